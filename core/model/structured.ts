/**
 * JSON and YAML with positions. Both go through yaml's parseDocument with a LineCounter,
 * which keeps the range of every node and rejects duplicate keys that JSON.parse would hide.
 * A file's value alone comes faster (parseJsonValue, parseYamlValue): JSON.parse, or js-yaml for
 * a plain YAML document, with the positioned parse left until something asks where.
 */
import { CORE_SCHEMA, load as loadYaml } from 'js-yaml';
import { isAlias, isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { visit as visitJson } from 'jsonc-parser';
import { LineIndex } from '../output/index.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `Array.isArray` narrowing to `unknown` members, not `any`: a parsed value's members are checked before use. */
export function isList(value: unknown): value is readonly unknown[] {
  return Array.isArray(value);
}

export interface ParseProblem {
  message: string;
  line: number;
  column: number;
  /**
   * What kind of problem, for code that decides by it (the cascade): `refused`, a file the bounds
   * stop reading (nesting, aliases), which no second reading is had of; `encoding`, bytes that are
   * not UTF-8 text. Absent: a syntax error.
   */
  kind?: 'refused' | 'encoding';
}

export interface ParsedData {
  doc: Document | undefined;
  value: unknown;
  lineCounter: LineCounter;
  problems: ParseProblem[];
}

export type PathSegment = string | number;

/**
 * How deep a JSON or YAML value may nest. No document of a specification corpus comes near it (the
 * deepest OpenAPI document nests about twenty levels); past it, the recursive walks of the gates,
 * of ajv and of the YAML composer would run out of stack, so the file is refused as a finding of
 * its own and every other file is still checked.
 */
export const MAX_NESTING = 256;
/** How many alias expansions a YAML document may cost (yaml's measure): an alias bomb stops here. */
export const MAX_YAML_ALIASES = 1000;

export function parseYamlText(text: string, language: 'YAML' | 'JSON' = 'YAML'): ParsedData {
  const lineCounter = new LineCounter();
  const refused = (problem: ParseProblem): ParsedData => ({
    doc: undefined,
    value: undefined,
    lineCounter,
    problems: [{ ...problem, kind: 'refused' }],
  });
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, keepSourceTokens: false });
  } catch (error) {
    // The composer recurses per level of flow nesting; a stack that runs out is the nesting bound.
    if (error instanceof RangeError)
      return refused({
        message: `nested too deeply to be read (the limit is ${MAX_NESTING} levels)`,
        line: 1,
        column: 1,
      });
    throw error;
  }
  const problems: ParseProblem[] = doc.errors.map((error) => {
    const at = error.linePos?.[0] ?? lineCounter.linePos(error.pos[0]);
    // yaml turns a stack that ran out in its composer into an error of the document: that is the nesting bound too.
    const message =
      language === 'JSON' && error.code === 'DUPLICATE_KEY'
        ? duplicateKeyMessage(text, error.pos[0])
        : /Maximum call stack/.test(error.message)
          ? `nested too deeply to be read (the limit is ${MAX_NESTING} levels)`
          : firstLine(error.message);
    return {
      message,
      line: at.line,
      column: at.col,
      ...(/Maximum call stack/.test(error.message) ? { kind: 'refused' as const } : {}),
    };
  });
  // A file past the bound is one finding: what the parser said after its stack ran out is noise.
  const tooDeep = problems.find((problem) => problem.kind === 'refused');
  if (tooDeep) return refused(tooDeep);
  if (problems.length > 0) return { doc: undefined, value: undefined, lineCounter, problems };
  const shape = measureNodes(doc);
  if (shape.tooDeep !== undefined) {
    const at = lineCounter.linePos(shape.tooDeep);
    return refused({
      message: `nested more than ${MAX_NESTING} levels deep; no corpus document needs that, and it is not read further`,
      line: at.line,
      column: at.col,
    });
  }
  if (shape.foreignTag !== undefined) {
    const at = lineCounter.linePos(shape.foreignTag.at);
    const tag = shape.foreignTag.tag.replace(/^tag:yaml\.org,2002:/, '!!');
    return refused({
      message: `the tag ${tag} is not of the YAML core schema (str, int, float, bool, null, map, seq): a loader that honours it builds an object or runs code (yaml.load in Python or old js-yaml); write the value plainly`,
      line: at.line,
      column: at.col,
    });
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) {
      const at = lineCounter.linePos(shape.firstAlias ?? 0);
      return refused({
        message: `its aliases expand to more than ${MAX_YAML_ALIASES} times their anchors' size (an alias bomb, or aliases nested too deeply); write the values out or use fewer aliases`,
        line: at.line,
        column: at.col,
      });
    }
    throw error;
  }
  const surrogate = loneSurrogate(value, text);
  if (surrogate) return refused(surrogate);
  return { doc, value, lineCounter, problems };
}

/** The first node nested past the bound, and the first alias, by offset; iterative, so depth cannot overflow it. */
function measureNodes(doc: Document): {
  tooDeep?: number;
  firstAlias?: number;
  foreignTag?: { tag: string; at: number };
} {
  const result: { tooDeep?: number; firstAlias?: number; foreignTag?: { tag: string; at: number } } = {};
  const stack: Array<[unknown, number]> = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    const tag = (node as { tag?: unknown } | null)?.tag;
    if (typeof tag === 'string' && !CORE_TAGS.has(tag)) {
      const at = (node as { range?: [number] }).range?.[0] ?? 0;
      if (result.foreignTag === undefined || at < result.foreignTag.at) result.foreignTag = { tag, at };
    }
    if (isAlias(node)) {
      const at = node.range?.[0] ?? 0;
      if (result.firstAlias === undefined || at < result.firstAlias) result.firstAlias = at;
      continue;
    }
    if (!isMap(node) && !isSeq(node)) continue;
    if (depth > MAX_NESTING) {
      result.tooDeep = node.range?.[0] ?? 0;
      return result;
    }
    for (const item of node.items as unknown[]) {
      if (isPair(item)) {
        stack.push([item.key, depth + 1], [item.value, depth + 1]);
      } else stack.push([item, depth + 1]);
    }
  }
  return result;
}

/** The tags of the YAML 1.2 core schema: what a corpus document may name; anything else asks a loader for a type. */
const CORE_TAGS = new Set(
  ['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((name) => `tag:yaml.org,2002:${name}`),
);

function duplicateKeyMessage(text: string, offset: number): string {
  const key = /^"((?:[^"\\]|\\.)*)"/.exec(text.slice(offset));
  const name = key ? key[0] : 'a key';
  return `duplicate key ${name}: an object has this member twice, and JSON parsers keep only one of them, silently; remove or rename one`;
}

/**
 * YAML accepts things JSON does not (comments, trailing commas, bare keys), so a .json file is
 * first held to JSON's own grammar; yaml then supplies positions and duplicate-key detection.
 */
export function parseJsonText(text: string): ParsedData {
  const quick = readJson(text);
  if (quick.positioned) return quick.positioned;
  return quick.problems.length > 0
    ? { doc: undefined, value: undefined, lineCounter: new LineCounter(), problems: quick.problems }
    : parseYamlText(text, 'JSON');
}

/**
 * A .json file's value without positions: JSON.parse, which is native and an order of magnitude
 * faster than a positioned parse. JSON.parse keeps the last of two equal keys silently; a member
 * lost that way takes its key string with it, so the file has more strings than its value holds,
 * and only then is the positioned parse run, to name the duplicate where it is written.
 */
export function parseJsonValue(text: string): { value: unknown; problems: ParseProblem[] } {
  const { value, problems } = readJson(text);
  return { value, problems };
}

/**
 * A .yaml file's value without positions. yaml's positioned parse costs most of a cold run's
 * loading and, on a large document, several times the document's size in memory (a 10 MiB OpenAPI
 * file: 5.6 s and 570 MiB, against js-yaml's 0.6 s and 230 MiB), yet a clean run never asks where
 * anything is. So the value comes from js-yaml under the YAML 1.2 core schema, which resolves every
 * scalar as yaml does, whenever the document is plain: one document, no directive, no explicit tag,
 * no alias of a collection, no key written as null, nesting within the bound. Anything else
 * (and every document js-yaml refuses) takes yaml's own parse, so problems, alias limits and the
 * nesting finding are yaml's, located, exactly as before. Positions always come from yaml, when asked.
 */
export function parseYamlValue(text: string): { value: unknown; problems: ParseProblem[] } {
  const quick = plainYamlValue(text);
  if (quick.plain) {
    const surrogate = loneSurrogate(quick.value, text);
    return surrogate ? { value: undefined, problems: [surrogate] } : { value: quick.value, problems: [] };
  }
  const parsed = parseYamlText(text);
  return { value: parsed.value, problems: parsed.problems };
}

/** js-yaml's value when the document is plain (see parseYamlValue), else `{ plain: false }`. */
export function plainYamlValue(text: string): { plain: true; value: unknown } | { plain: false } {
  // A directive (`%YAML 1.1` changes what `yes` means to yaml) or an explicit tag (`!!float 1`, which
  // the two libraries resolve differently) leaves the document to yaml. A `!` after a space inside
  // some prose only costs the slower parse.
  if (DIRECTIVE_OR_TAG.test(text)) return { plain: false };
  let value: unknown;
  try {
    // js-yaml rejects duplicate keys, several documents and unknown tags: yaml then says where.
    value = loadYaml(text, { schema: CORE_SCHEMA });
  } catch {
    return { plain: false };
  }
  return isPlainTree(value) ? { plain: true, value } : { plain: false };
}

const DIRECTIVE_OR_TAG = /^%|(?:^|[\s[{,])!/m;

/**
 * Whether js-yaml's value is one yaml would build the same: a tree (an alias of a collection makes
 * js-yaml share one object, where yaml counts the expansion against its alias limit), no key that
 * was a null (js-yaml names it "null", yaml ""), no deeper than the bound; iterative.
 */
function isPlainTree(value: unknown): boolean {
  const seen = new Set<object>();
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > MAX_NESTING || seen.has(node)) return false;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
      continue;
    }
    for (const key of Object.keys(node)) {
      if (key === 'null') return false;
      stack.push([(node as Record<string, unknown>)[key], depth + 1]);
    }
  }
  return true;
}

/** JSON.parse, and the positioned parse when (and only when) a duplicate key made it necessary. */
function readJson(text: string): { value: unknown; problems: ParseProblem[]; positioned?: ParsedData } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return {
      value: undefined,
      problems: [{ message: `invalid JSON: ${cleanJsonMessage(message)}`, ...jsonErrorPosition(message, text) }],
    };
  }
  // JSON.parse is iterative and takes any depth; everything after it recurses, so depth is bounded here.
  const measured = measureValue(value);
  if (measured.depth > MAX_NESTING) {
    return {
      value: undefined,
      problems: [
        {
          message: `nested more than ${MAX_NESTING} levels deep; no corpus document needs that, and it is not read further`,
          ...tooDeepAt(text),
          kind: 'refused',
        },
      ],
    };
  }
  const surrogate = loneSurrogate(value, text);
  if (surrogate) return { value: undefined, problems: [surrogate] };
  if (stringsInText(text) === measured.strings) return { value, problems: [] };
  // A member was lost to a duplicate key: found by one streaming pass that holds the keys of the
  // open objects only, in memory proportional to the file (a positioned parse of 30 MB took 1.7 GB).
  const duplicates = duplicateKeys(text);
  if (duplicates.length > 0) return { value: undefined, problems: duplicates };
  const positioned = parseYamlText(text, 'JSON');
  return { value: positioned.value, problems: positioned.problems, positioned };
}

/** Every member whose key an earlier member of the same object has, located at its key. */
function duplicateKeys(text: string): ParseProblem[] {
  const problems: ParseProblem[] = [];
  const open: Array<Set<string>> = [];
  visitJson(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (property, offset, _length, line, character) => {
      const keys = open[open.length - 1];
      if (!keys) return;
      if (keys.has(property))
        problems.push({ message: duplicateKeyMessage(text, offset), line: line + 1, column: character + 1 });
      else keys.add(property);
    },
  });
  return problems;
}

/**
 * A string that is not Unicode text: a surrogate escaped alone (`\ud800`), which JSON and YAML
 * accept and no UTF-8 file can hold, so text generated from it could never be written as planned.
 * Located at the first such escape in the text, else at the start.
 */
function loneSurrogate(value: unknown, text: string): ParseProblem | undefined {
  // Decoded UTF-8 holds none: only an escape can write one, so a text without such an escape is not walked.
  if (!SURROGATE_ESCAPE.test(text)) return undefined;
  const stack: unknown[] = [value];
  let found: string | undefined;
  while (stack.length > 0 && found === undefined) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (ILL_FORMED.test(node)) found = node;
    } else if (Array.isArray(node)) {
      for (const item of node) stack.push(item);
    } else if (typeof node === 'object' && node !== null) {
      for (const [key, item] of Object.entries(node)) {
        if (ILL_FORMED.test(key)) found = key;
        stack.push(item);
      }
    }
  }
  if (found === undefined) return undefined;
  const escape = LONE_SURROGATE_ESCAPE.exec(text);
  const at = escape ? new LineIndex(text).position(escape.index) : { line: 1, column: 1 };
  return {
    message: `a string holds a lone surrogate${escape ? ` (${escape[0]})` : ''}: half of a UTF-16 pair, not a character, which no UTF-8 file can carry; write the character meant, or remove it`,
    ...at,
  };
}

/** A surrogate code unit not in a pair (with the u flag, a pair is one code point and never matches). */
const ILL_FORMED = /\p{Cs}/u;

const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]|\\U0000[dD][89a-fA-F]/;

const LONE_SURROGATE_ESCAPE =
  /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/;

/** The number of string tokens (keys and values) in a text JSON.parse accepted: its unescaped quotes, halved. */
function stringsInText(text: string): number {
  // In valid JSON a backslash occurs only inside a string, starting a two-character escape.
  const unescaped = text.includes('\\') ? text.replace(/\\./g, '') : text;
  let quotes = 0;
  for (let at = unescaped.indexOf('"'); at !== -1; at = unescaped.indexOf('"', at + 1)) quotes++;
  return quotes / 2;
}

/**
 * The strings (keys and values) a parsed value holds, and how deep it nests, in one iterative pass:
 * a value of any depth is measured without recursion. A value nested past the bound stops the count.
 */
function measureValue(value: unknown, bound = MAX_NESTING): { strings: number; depth: number } {
  let strings = 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (typeof node === 'string') {
      strings++;
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > bound) break;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
    } else {
      for (const key in node) {
        strings++;
        stack.push([(node as Record<string, unknown>)[key], depth + 1]);
      }
    }
  }
  return { strings, depth: deepest };
}

/** Where the bracket that opens one level too many stands, found in the text (only for a file refused for its depth). */
function tooDeepAt(text: string): { line: number; column: number } {
  let depth = 0;
  let inString = false;
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      line++;
      lineStart = i + 1;
    } else if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > MAX_NESTING) return { line, column: i - lineStart + 1 };
    } else if (c === 93 || c === 125) depth--;
  }
  return { line: 1, column: 1 };
}

function jsonErrorPosition(message: string, text: string): { line: number; column: number } {
  const lineColumn = /line (\d+) column (\d+)/.exec(message);
  if (lineColumn) return { line: Number(lineColumn[1]), column: Number(lineColumn[2]) };
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : text.length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

function cleanJsonMessage(message: string): string {
  return firstLine(message)
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/ in JSON at position \d+.*$/, '');
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** The node at `path`, or undefined. */
export function nodeAt(doc: Document | undefined, path: readonly PathSegment[]): Node | undefined {
  let node: unknown = doc?.contents;
  for (const segment of path) {
    if (isMap(node)) {
      const pair = node.items.find((item) => isPair(item) && scalarValue(item.key) === segment);
      node = pair?.value;
    } else if (isSeq(node) && typeof segment === 'number') {
      node = node.items[segment];
    } else {
      return undefined;
    }
  }
  return (node ?? undefined) as Node | undefined;
}

/** The key node of the last segment of `path` (a map entry), or undefined. */
function keyAt(doc: Document | undefined, path: readonly PathSegment[]): Node | undefined {
  if (path.length === 0) return undefined;
  const parent = nodeAt(doc, path.slice(0, -1));
  const last = path[path.length - 1];
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find((item) => isPair(item) && scalarValue(item.key) === last);
  return (pair?.key ?? undefined) as Node | undefined;
}

function scalarValue(node: unknown): unknown {
  return isScalar(node) ? node.value : node;
}

/**
 * The offsets [start, end) at which `path` is written: its key when it is a map entry (that is
 * where a reader looks), else its value; falls back to the deepest ancestor that exists.
 */
export function rangeAt(
  doc: Document | undefined,
  path: readonly PathSegment[],
  prefer: 'key' | 'value' = 'key',
): [number, number] | undefined {
  for (let depth = path.length; depth >= 0; depth--) {
    const prefix = path.slice(0, depth);
    const node = (prefer === 'key' ? keyAt(doc, prefix) : undefined) ?? nodeAt(doc, prefix);
    const range = node?.range;
    if (range) return [range[0], range[1]];
  }
  return undefined;
}

/** Whether a JSON pointer names something in a plain value (no positions needed). */
export function hasPointer(value: unknown, pointer: string): boolean {
  if (pointer === '') return true;
  if (!pointer.startsWith('/')) return false;
  let current = value;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current) && /^(0|[1-9]\d*)$/.test(segment)) current = current[Number(segment)];
    else if (typeof current === 'object' && current !== null && Object.hasOwn(current, segment))
      current = (current as Record<string, unknown>)[segment];
    else return false;
    if (current === undefined) return false;
  }
  return true;
}

const keyOrder = new WeakMap<object, Map<string, number>>();

/**
 * Which of two paths into one parsed value comes first in the document, without a positioned
 * parse: array items by index, members by the order the parser met them (a JSON or YAML object
 * keeps insertion order, except that integer-like keys come first, in ascending order).
 */
export function compareDocumentOrder(value: unknown, a: readonly PathSegment[], b: readonly PathSegment[]): number {
  let node = value;
  for (let depth = 0; depth < Math.min(a.length, b.length); depth++) {
    const [left, right] = [a[depth], b[depth]];
    if (left !== right) {
      if (typeof left === 'number' && typeof right === 'number') return left - right;
      if (typeof node !== 'object' || node === null) return String(left) < String(right) ? -1 : 1;
      let order = keyOrder.get(node);
      if (!order) {
        order = new Map(Object.keys(node).map((key, index) => [key, index]));
        keyOrder.set(node, order);
      }
      return (
        (order.get(String(left)) ?? Infinity) - (order.get(String(right)) ?? Infinity) ||
        (String(left) < String(right) ? -1 : 1)
      );
    }
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[String(left)] : undefined;
  }
  return a.length - b.length;
}
