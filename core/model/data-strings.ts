/**
 * The string values of a JSON or YAML document, for gates that read what is written inside them
 * (a citation in a `description`, a `source` or a `$comment`). Strings are read from the parsed
 * value; where one sits is worked out only when a finding asks for it.
 */
import { isScalar, parseDocument } from 'yaml';
import { parseMarkdown } from '../markdown/index.js';
import type { DataFile } from './corpus.js';
import type { Span } from '../output/index.js';
import { Location } from './location.js';
import { nodeAt, type PathSegment } from './structured.js';

export interface DataString {
  path: PathSegment[];
  /** The member name the string is the value of (the last string segment of its path). */
  key: string | undefined;
  value: string;
}

/**
 * Every string of a document's value, found by one walk and kept with the value: half a dozen
 * readers look for strings in every data file. The value of an unchanged file is the same object
 * in the next model, so an edit walks only the documents it changed. Read-only: callers get their
 * own list, sharing the entries.
 *
 * An entry keeps its path as a link to its container's (one link per container, shared by its
 * members), and spells it out only when asked: a large corpus holds millions of strings, and an
 * array of segments for each was a fifth of its memory. The walk is walkData's order and paths.
 */
const stringsOf = new WeakMap<object, readonly DataString[]>();

interface PathLink {
  readonly parent: PathLink | undefined;
  readonly segment: PathSegment;
}

class KeptString implements DataString {
  constructor(
    readonly value: string,
    readonly key: string | undefined,
    private readonly container: PathLink | undefined,
    private readonly segment: PathSegment,
  ) {}

  get path(): PathSegment[] {
    const path: PathSegment[] = [this.segment];
    for (let link = this.container; link; link = link.parent) path.push(link.segment);
    return path.reverse();
  }
}

function allStrings(value: unknown): readonly DataString[] {
  if (typeof value !== 'object' || value === null)
    return typeof value === 'string' ? [{ path: [], key: undefined, value }] : [];
  let found = stringsOf.get(value);
  if (!found) {
    const strings: DataString[] = [];
    const walk = (node: object, at: PathLink | undefined, key: string | undefined): void => {
      if (Array.isArray(node)) {
        for (let index = 0; index < node.length; index++) visit(node[index] as unknown, at, index, key);
      } else {
        for (const member of Object.keys(node)) visit((node as Record<string, unknown>)[member], at, member, member);
      }
    };
    const visit = (member: unknown, at: PathLink | undefined, segment: PathSegment, key: string | undefined): void => {
      if (typeof member === 'string') strings.push(new KeptString(member, key, at, segment));
      else if (typeof member === 'object' && member !== null) walk(member, { parent: at, segment }, key);
    };
    walk(value, undefined, undefined);
    stringsOf.set(value, (found = strings));
  }
  return found;
}

/** Every string value of the document (not its keys) for which `wanted` holds. */
export function dataStrings(file: Pick<DataFile, 'value'>, wanted: (value: string) => boolean): DataString[] {
  return allStrings(file.value).filter((string) => wanted(string.value));
}

/** A link whose target is neither a URL with a scheme nor a fragment alone: a file of the repository. */
const RELATIVE_LINK = /\]\(\s*<?(?![a-z][a-z0-9+.-]*:|#|\/\/)[^)\s]/i;

/** links/file and links/anchor both read them; each string is parsed as markdown once. */
const linkCache = new WeakMap<DataFile, DataStringLink[]>();

export interface DataStringLink {
  url: string;
  /** Where the link is written (resolved when a finding reports it). */
  location: Location;
  /** The same, resolved; a finding takes `location`. */
  place(): Span;
}

/**
 * The markdown links written in the strings of a JSON or YAML document (an OpenAPI description is
 * CommonMark), each relative to the document itself.
 */
export function dataStringLinks(file: DataFile): DataStringLink[] {
  if (!file.text.includes('](')) return [];
  const cached = linkCache.get(file);
  if (cached) return cached;
  const links: DataStringLink[] = [];
  linkCache.set(file, links);
  for (const string of dataStrings(file, (value) => RELATIVE_LINK.test(value))) {
    for (const link of parseMarkdown(string.value).links) {
      if (link.kind === 'definition') continue;
      const start = link.node.position?.start.offset ?? 0;
      const end = link.node.position?.end.offset ?? start;
      const location = Location.pointer(file, string.path).chars(start, end);
      links.push({ url: link.url, location, place: () => location.resolve() });
    }
  }
  return links;
}

/**
 * Where the characters [start, end) of the string at `path` are written, as offsets into the
 * file's text: at those characters when the string is written on one line (escapes and quotes
 * accounted for), else where the string starts (then `end` is absent); undefined when no string
 * is written there.
 */
export function dataStringRange(
  file: Pick<DataFile, 'doc' | 'text'>,
  path: readonly PathSegment[],
  start: number,
  end: number,
): { start: number; end?: number } | undefined {
  const node = nodeAt(file.doc, path);
  const range = node?.range;
  if (!range || !isScalar(node)) return undefined;
  const from = range[0];
  const to = range[1];
  const source = file.text.slice(from, to);
  // Any form the value can be read back from, over lines too: the characters themselves.
  const units = typeof node.value === 'string' ? scalarUnits(source, node.type) : undefined;
  if (units && units.map((unit) => unit.value).join('') === node.value) {
    const a = startOf(units, start) ?? endOf(units, start);
    const b = end > start ? endOf(units, end) : a;
    if (a !== undefined && b !== undefined) return { start: from + a, end: from + b };
  }
  if (node.type === 'BLOCK_LITERAL') {
    const line = literalLine(file.text, from, to, String(node.value), start);
    return { start: line ?? from };
  }
  if (source.includes('\n')) return { start: from };
  const offsets = sourceOffsets(source, node.type);
  if (!offsets) return { start: from };
  return { start: from + (offsets[start] ?? 0), end: from + (offsets[end] ?? source.length) };
}

/**
 * A literal block (`|`) keeps its lines as written, less their indentation: the offset in the
 * file of the value's character `index`.
 */
function literalLine(text: string, from: number, to: number, value: string, index: number): number | undefined {
  const header = text.indexOf('\n', from);
  if (header === -1 || header >= to) return undefined;
  const lineOfValue = value.slice(0, index).split('\n').length - 1;
  const column = index - (value.lastIndexOf('\n', index - 1) + 1);
  let lineStart = header + 1;
  let seen = 0;
  let indent: number | undefined;
  while (lineStart < to) {
    const lineEnd = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
    if (indent === undefined && line.trim() !== '') indent = line.length - line.trimStart().length;
    if (seen === lineOfValue) return indent === undefined ? undefined : lineStart + indent + column;
    seen++;
    if (lineEnd === -1) break;
    lineStart = lineEnd + 1;
  }
  return undefined;
}

/**
 * For each character index of a one-line scalar's value (and one past its end), the offset in its
 * source text; undefined when the value is not its source read left to right (folded forms).
 */
function sourceOffsets(source: string, type: string | undefined): number[] | undefined {
  const offsets: number[] = [];
  if (type === 'QUOTE_DOUBLE') {
    for (let i = 1; i < source.length - 1; i++) {
      offsets.push(i);
      if (source[i] !== '\\') continue;
      const escape = source[i + 1];
      i += escape === 'u' ? 5 : escape === 'x' ? 3 : escape === 'U' ? 9 : 1;
    }
    offsets.push(source.length - 1);
    return offsets;
  }
  if (type === 'QUOTE_SINGLE') {
    for (let i = 1; i < source.length - 1; i++) {
      offsets.push(i);
      if (source[i] === "'" && source[i + 1] === "'") i++;
    }
    offsets.push(source.length - 1);
    return offsets;
  }
  if (type === 'PLAIN') {
    for (let i = 0; i <= source.length; i++) offsets.push(i);
    return offsets;
  }
  return undefined;
}

/** An edit of a file's text: the characters [start, end) replaced by `text`. */
export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * The edit of the file's text that makes the characters [start, end) of the string at `path` read
 * `replacement`, written in the scalar's own style (a JSON string or YAML double-quoted scalar
 * with its escapes, a single-quoted, plain or block scalar as such) and touching only the
 * characters that differ, so that everything else stays byte for byte as it was. Undefined when no
 * such edit keeps the value what it should be: a new line break in a one-line form, a `: ` that
 * would end a plain scalar, a place inside an escape. Each edit is checked by parsing the edited
 * scalar again.
 */
export function dataStringEdit(
  file: Pick<DataFile, 'doc' | 'text' | 'kind'>,
  path: readonly PathSegment[],
  start: number,
  end: number,
  replacement: string,
): TextEdit | undefined {
  const node = nodeAt(file.doc, path);
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const value = node.value;
  if (start < 0 || end < start || end > value.length) return undefined;
  const expected = value.slice(0, start) + replacement + value.slice(end);
  if (expected === value) return undefined;
  // Only what differs is rewritten: a heading renamed by one word changes that word.
  const old = value.slice(start, end);
  let prefix = 0;
  while (prefix < old.length && prefix < replacement.length && old[prefix] === replacement[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < old.length - prefix &&
    suffix < replacement.length - prefix &&
    old[old.length - 1 - suffix] === replacement[replacement.length - 1 - suffix]
  )
    suffix++;
  const from = start + prefix;
  const to = end - suffix;
  const inserted = replacement.slice(prefix, replacement.length - suffix);

  const [rangeStart, rangeEnd] = node.range;
  const source = file.text.slice(rangeStart, rangeEnd);
  const units = scalarUnits(source, node.type);
  if (!units || units.map((unit) => unit.value).join('') !== value) return undefined;
  const a = from < to || from === 0 ? startOf(units, from) : endOf(units, from);
  const b = from < to ? endOf(units, to) : a;
  const written = encodeFor(node.type, inserted);
  if (a === undefined || b === undefined || written === undefined) return undefined;
  const edited = source.slice(0, a) + written + source.slice(b);
  if (!readsAs(edited, node.type, file.kind, flowParent(file, path), expected)) return undefined;
  return { start: rangeStart + a, end: rangeStart + b, text: written };
}

/**
 * The source place where the value's character `index` starts, and where the one before it ends:
 * units that stand for nothing (indentation, a block's header) are left on the side they are on.
 */
function startOf(units: readonly Unit[], index: number): number | undefined {
  let offset = 0;
  for (const unit of units) {
    if (unit.value.length === 0) continue;
    if (offset === index) return unit.from;
    offset += unit.value.length;
    if (offset > index) return undefined;
  }
  return undefined;
}

function endOf(units: readonly Unit[], index: number): number | undefined {
  let offset = 0;
  for (const unit of units) {
    if (unit.value.length === 0) continue;
    offset += unit.value.length;
    if (offset === index) return unit.to;
    if (offset > index) return undefined;
  }
  return undefined;
}

/** A piece of a scalar's source and the characters of its value it stands for. */
interface Unit {
  from: number;
  to: number;
  value: string;
}

/** The scalar's source cut into units whose values, joined, are its value; undefined for a form not read here. */
function scalarUnits(source: string, type: string | undefined): Unit[] | undefined {
  if (type === 'PLAIN') return flowUnits(source, 0, source.length, false);
  if (type === 'QUOTE_SINGLE' || type === 'QUOTE_DOUBLE') {
    if (source.length < 2) return undefined;
    return flowUnits(source, 1, source.length - 1, type === 'QUOTE_DOUBLE', type === 'QUOTE_SINGLE');
  }
  if (type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED') return blockUnits(source, type === 'BLOCK_FOLDED');
  return undefined;
}

const ESCAPES: Record<string, string> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };

/**
 * Plain and quoted scalars: characters stand for themselves (or, double-quoted, an escape for what
 * it means; single-quoted, `''` for `'`), and a line break with the blanks around it folds to a
 * space, or to one line feed for each empty line it spans.
 */
function flowUnits(source: string, from: number, to: number, escapes: boolean, quotes = false): Unit[] | undefined {
  const units: Unit[] = [];
  let i = from;
  while (i < to) {
    const c = source[i] as string;
    if (c === '\n' || ((c === ' ' || c === '\t') && /^[ \t]*\n/.test(source.slice(i, to)))) {
      // Blanks before a break, the break, empty lines and the indentation after them: one fold.
      let j = i;
      let breaks = 0;
      while (j < to && (source[j] === ' ' || source[j] === '\t' || source[j] === '\n')) {
        if (source[j] === '\n') breaks++;
        j++;
      }
      if (breaks === 0) {
        units.push({ from: i, to: i + 1, value: c });
        i++;
        continue;
      }
      units.push({ from: i, to: j, value: breaks === 1 ? ' ' : '\n'.repeat(breaks - 1) });
      i = j;
      continue;
    }
    if (escapes && c === '\\') {
      const next = source[i + 1];
      if (next === undefined) return undefined;
      if (next === '\n') {
        // An escaped line break: the break and the next line's indentation stand for nothing.
        let j = i + 2;
        while (j < to && (source[j] === ' ' || source[j] === '\t')) j++;
        units.push({ from: i, to: j, value: '' });
        i = j;
        continue;
      }
      const hex = HEX_LENGTH[next];
      if (hex !== undefined) {
        const digits = source.slice(i + 2, i + 2 + hex);
        if (!/^[0-9a-fA-F]+$/.test(digits) || digits.length !== hex) return undefined;
        units.push({ from: i, to: i + 2 + hex, value: String.fromCodePoint(Number.parseInt(digits, 16)) });
        i += 2 + hex;
        continue;
      }
      const meaning = ESCAPES[next];
      if (meaning === undefined) return undefined;
      units.push({ from: i, to: i + 2, value: meaning });
      i += 2;
      continue;
    }
    if (quotes && c === "'" && source[i + 1] === "'") {
      units.push({ from: i, to: i + 2, value: "'" });
      i += 2;
      continue;
    }
    // A character outside the basic plane is two code units: one unit, so no edit splits it.
    const width = c.codePointAt(0)! > 0xffff ? 2 : 1;
    units.push({ from: i, to: i + width, value: source.slice(i, i + width) });
    i += width;
  }
  return units;
}

/**
 * Literal (`|`) and folded (`>`) block scalars: the header line stands for nothing, each line's
 * indentation for nothing, its text for itself; a break for a line feed, or in a folded scalar
 * between two lines of text for a space. The chomping indicator decides the final breaks, which
 * are matched against the value by the caller.
 */
function blockUnits(source: string, folded: boolean): Unit[] | undefined {
  const headerEnd = source.indexOf('\n');
  if (headerEnd === -1) return undefined;
  const header = source.slice(0, headerEnd);
  // An explicit indentation is relative to the parent's, which the scalar alone does not know.
  if (/^[|>][-+]?\d|^[|>]\d/.test(header)) return undefined;
  const chomp = /^[|>]([-+])/.exec(header)?.[1] ?? /^[|>]\d?([-+])/.exec(header)?.[1] ?? '';
  const lines: Array<{ start: number; end: number }> = [];
  for (let at = headerEnd + 1; at < source.length;) {
    const next = source.indexOf('\n', at);
    const lineEnd = next === -1 ? source.length : next;
    lines.push({ start: at, end: lineEnd });
    at = next === -1 ? source.length : next + 1;
  }
  const firstText = lines.find((line) => source.slice(line.start, line.end).trim() !== '');
  if (!firstText) return undefined;
  const indent = /^ */.exec(source.slice(firstText.start, firstText.end))?.[0].length ?? 0;
  const units: Unit[] = [{ from: 0, to: headerEnd + 1, value: '' }];
  let previous: 'text' | 'more' | undefined;
  let pendingBreak: Unit | undefined;
  let emptyRun: Unit[] = [];
  const lastText = lines.map((line) => source.slice(line.start, line.end).trim() !== '').lastIndexOf(true);
  lines.forEach((line, index) => {
    const text = source.slice(line.start, line.end);
    const empty = text.trim() === '' && text.length <= indent;
    const breakUnit = line.end < source.length ? { from: line.end, to: line.end + 1, value: '\n' } : undefined;
    if (empty || index > lastText) {
      units.push({ from: line.start, to: line.end, value: '' });
      if (breakUnit) emptyRun.push(breakUnit);
      return;
    }
    const kind = /^[ \t]/.test(text.slice(indent)) ? 'more' : 'text';
    // The break before this line: folded between two lines of text, a space; unless empty lines came between.
    if (pendingBreak) {
      if (folded && previous === 'text' && kind === 'text') pendingBreak.value = emptyRun.length > 0 ? '' : ' ';
      units.push(pendingBreak);
    }
    units.push(...emptyRun);
    emptyRun = [];
    units.push({ from: line.start, to: line.start + indent, value: '' });
    for (let i = line.start + indent; i < line.end;) {
      const width = source.codePointAt(i)! > 0xffff ? 2 : 1;
      units.push({ from: i, to: i + width, value: source.slice(i, i + width) });
      i += width;
    }
    previous = kind;
    pendingBreak = breakUnit ? { ...breakUnit } : undefined;
  });
  // What follows the last line of text: its break and the empty lines' breaks, as chomping keeps them.
  const trailing = [...(pendingBreak ? [pendingBreak] : []), ...emptyRun];
  trailing.forEach((unit, index) => {
    unit.value = chomp === '+' ? '\n' : chomp === '-' ? '' : index === 0 ? '\n' : '';
    units.push(unit);
  });
  units.sort((x, y) => x.from - y.from);
  return units;
}

/** `text` as the scalar form writes it, or undefined when that form cannot hold it on the line. */
function encodeFor(type: string | undefined, text: string): string | undefined {
  if (type === 'QUOTE_DOUBLE') return JSON.stringify(text).slice(1, -1);
  if (/[\n\r]/.test(text)) return undefined;
  if (type === 'QUOTE_SINGLE') return text.replace(/'/g, "''");
  return text;
}

/** Whether the scalar at `path` sits in a flow collection (`[a, b]`), where `,` and brackets end a plain scalar. */
function flowParent(file: Pick<DataFile, 'doc'>, path: readonly PathSegment[]): boolean {
  const parent = path.length > 0 ? nodeAt(file.doc, path.slice(0, -1)) : undefined;
  return Boolean(parent && (parent as { flow?: boolean }).flow);
}

/** Whether the edited scalar source, parsed on its own (in a flow sequence when it sits in one), is the expected string. */
function readsAs(
  source: string,
  type: string | undefined,
  kind: DataFile['kind'],
  inFlow: boolean,
  expected: string,
): boolean {
  if (kind === 'json') {
    try {
      return JSON.parse(source) === expected;
    } catch {
      return false;
    }
  }
  const read = (text: string): unknown => {
    const doc = parseDocument(text, { prettyErrors: false });
    return doc.errors.length > 0 || doc.warnings.length > 0 ? undefined : doc.toJS();
  };
  if (read(source) !== expected) return false;
  if (type === 'PLAIN' && inFlow) {
    const inSequence = read(`[${source}]`);
    return Array.isArray(inSequence) && inSequence.length === 1 && inSequence[0] === expected;
  }
  return true;
}
