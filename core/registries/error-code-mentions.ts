/**
 * Where prose and API documents name an error code. Only forms that cannot be an ordinary
 * identifier count: a code written with an HTTP status (`409 run_terminal`, 409 `run_terminal`,
 * `409` `run_terminal`, `run_terminal` (409)), a row of a table with Code and Status columns, the
 * `error` of an envelope example (an object with `error` and `message` or `details`), and the
 * `enum`/`const` of an `error` property; the codes of a list that continues one of those
 * (`409` `run_terminal`, `run_already_active` or `not_found`), and every snake_case code span of
 * the description of a 4xx or 5xx response, which take its status. A snake_case word in backticks
 * elsewhere is a mention only as a candidate: in a sentence about an error, it is judged only when
 * it is a near miss of a registered code.
 */
import { visit as visitJsonc } from 'jsonc-parser';
import type { InlineCode, Nodes, Parent, Root, Table, TableRow } from 'mdast';
import { toString } from 'mdast-util-to-string';
import {
  isMap,
  isPair,
  isScalar,
  isSeq,
  visit as visitYaml,
  type Document,
  type Node as YamlNode,
  type Pair,
  type YAMLMap,
} from 'yaml';
import { type DataFile, type MarkdownFile, nodeAt, type PathSegment, codeBlockData } from '../model/index.js';
import { parseMarkdown, walkMarkdown } from '../markdown/index.js';

export interface CodeMention {
  code: string;
  /** The HTTP status written with the code, when there is one. */
  status: number | undefined;
  /** `yes`/`no` of a Retriable column beside the code, when there is one. */
  retriable: boolean | undefined;
  /** Offsets of the code in the file's text. */
  start: number;
  end: number;
  /** `candidate`: a snake_case code span in a sentence about an error, which only a near miss of a registered code makes a finding. */
  form: 'status' | 'table' | 'example' | 'enum' | 'candidate';
}

/** A word that could be meant as a code: lowercase, digits, `_`, `-`, `.`; not `Conflict`, not `5xx`. */
const CANDIDATE = /^[a-z][a-z0-9]*(?:[._-][a-z0-9]+)*$/;
const STATUS = /^[45]\d\d$/;
const STATUS_AND_CODE = /^([45]\d\d)\s+(\S+)$/;
const STATUS_BEFORE = /(?:^|[^\w.])([45]\d\d)(?:[ \t]+|[ \t]*[(:][ \t]*)$/;
/** What separates the codes of a list: a comma, "or", "and", a slash. */
const LIST_SEPARATOR = /^[ \t]*(?:,[ \t]*(?:(?:or|and)[ \t]+)?|(?:or|and)[ \t]+|\/[ \t]*)$/;
/** A code an error answers with: snake_case, at least one underscore. */
const SNAKE_CODE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;
/** A sentence about an error, where a snake_case code span is likely a code. */
const ABOUT_AN_ERROR = /\b(?:errors?|fails?|failed|rejects?|rejected|refuses?|refused|answers?|returns?|responds?)\b/i;
const STATUS_AFTER = /^[ \t]*\((?:HTTP[ \t]+)?([45]\d\d)\)/;
const CODE_HEADER = /^(?:error(?:\s+code)?|code)$/i;
const STATUS_HEADER = /^(?:http(?:\s+status)?|status(?:\s+code)?)$/i;
const RETRIABLE_HEADER = /^retriable$/i;

export function markdownCodeMentions(file: Pick<MarkdownFile, 'tree' | 'text'>): CodeMention[] {
  return treeMentions(file.tree, file.text);
}

/**
 * What a YAML block names a code under: an `error` key (an envelope, or an `error` property's
 * enum), or a `description` or `summary` in prose; a key can be spelt otherwise only with an escape.
 */
const YAML_MAY_MENTION = /error|description|summary|\\/;

/** `responseStatus`: the status of the 4xx/5xx response whose description `tree` is; each snake_case code span takes it. */
function treeMentions(tree: Root, source: string, responseStatus?: number): CodeMention[] {
  const mentions: CodeMention[] = [];
  walkMarkdown(tree, {
    table: (node) => tableMentions(node, source, mentions),
    inlineCode: (node, parent, index) => inlineMentions(node, parent, index ?? 0, source, mentions, responseStatus),
    code: (node) => {
      const start = valueOffset(node.value, source, node.position);
      if (start === undefined) return;
      if (!/^ya?ml$/i.test(node.lang ?? '')) mentions.push(...envelopeMentions(node.value, start));
      // Parsed with positions only when it can name a code (the parser is most of a warm run's YAML cost).
      else if (YAML_MAY_MENTION.test(node.value))
        mentions.push(...documentMentions(codeBlockData(node).doc, node.value, start));
    },
  });
  return mentions.sort((a, b) => a.start - b.start);
}

function inlineMentions(
  node: InlineCode,
  parent: Parent | undefined,
  index: number,
  source: string,
  into: CodeMention[],
  responseStatus?: number,
): void {
  const start = valueOffset(node.value, source, node.position);
  if (start === undefined) return;
  const pair = STATUS_AND_CODE.exec(node.value);
  if (pair) {
    const code = pair[2] ?? '';
    if (CANDIDATE.test(code)) {
      const at = start + node.value.lastIndexOf(code);
      into.push({
        code,
        status: Number(pair[1]),
        retriable: undefined,
        start: at,
        end: at + code.length,
        form: 'status',
      });
    }
    return;
  }
  if (CANDIDATE.test(node.value) && parent) {
    const siblings = parent.children as Nodes[];
    const status =
      statusBeside(siblings, index) ??
      listStatus(siblings, index) ??
      (SNAKE_CODE.test(node.value) ? responseStatus : undefined);
    if (status !== undefined)
      into.push({
        code: node.value,
        status,
        retriable: undefined,
        start,
        end: start + node.value.length,
        form: 'status',
      });
    else if (SNAKE_CODE.test(node.value) && ABOUT_AN_ERROR.test(toString(parent)))
      into.push({
        code: node.value,
        status: undefined,
        retriable: undefined,
        start,
        end: start + node.value.length,
        form: 'candidate',
      });
    return;
  }
  if (node.value.includes('"error"')) into.push(...envelopeMentions(node.value, start));
}

/**
 * The status of the list the code span at `index` continues: code spans joined by commas, "or",
 * "and" or slashes back to one written with a status (`409` `a`, `b` or `c`; `409 a`, `b`).
 */
function listStatus(siblings: readonly Nodes[], index: number): number | undefined {
  for (let i = index; i >= 2; i -= 2) {
    const separator = siblings[i - 1];
    const previous = siblings[i - 2];
    if (separator?.type !== 'text' || !LIST_SEPARATOR.test(separator.value) || previous?.type !== 'inlineCode')
      return undefined;
    const pair = STATUS_AND_CODE.exec(previous.value);
    if (pair) return Number(pair[1]);
    if (!CANDIDATE.test(previous.value)) return undefined;
    const status = statusBeside(siblings, i - 2);
    if (status !== undefined) return status;
  }
  return undefined;
}

/** The status written right before (`409 `, `` `409` ``) or right after (` (409)`) the code span at `index`. */
function statusBeside(siblings: readonly Nodes[], index: number): number | undefined {
  const before = siblings[index - 1];
  if (before?.type === 'text') {
    const match = STATUS_BEFORE.exec(before.value);
    if (match) return Number(match[1]);
    const previous = siblings[index - 2];
    if (/^[ \t]+$/.test(before.value) && previous?.type === 'inlineCode' && STATUS.test(previous.value))
      return Number(previous.value);
  }
  const after = siblings[index + 1];
  if (after?.type === 'text') {
    const match = STATUS_AFTER.exec(after.value);
    if (match) return Number(match[1]);
  }
  return undefined;
}

/** Rows of a table whose header has a Code column and a Status (or HTTP) column. */
function tableMentions(table: Table, source: string, into: CodeMention[]): void {
  const [header, ...body] = table.children;
  if (!header) return;
  const names = header.children.map((cell) => toString(cell).trim());
  const codeColumn = names.findIndex((name) => CODE_HEADER.test(name));
  const statusColumn = names.findIndex((name) => STATUS_HEADER.test(name));
  const retriableColumn = names.findIndex((name) => RETRIABLE_HEADER.test(name));
  if (codeColumn === -1 || statusColumn === -1) return;
  for (const row of body) {
    const code = soleInlineCode(row, codeColumn);
    const statusText = cellText(row, statusColumn);
    if (!code || !CANDIDATE.test(code.value) || !STATUS.test(statusText)) continue;
    const start = valueOffset(code.value, source, code.position);
    if (start === undefined) continue;
    const retriableText = retriableColumn === -1 ? '' : cellText(row, retriableColumn).toLowerCase();
    const retriable = retriableText === 'yes' ? true : retriableText === 'no' ? false : undefined;
    into.push({
      code: code.value,
      status: Number(statusText),
      retriable,
      start,
      end: start + code.value.length,
      form: 'table',
    });
  }
}

function soleInlineCode(row: TableRow, column: number): InlineCode | undefined {
  const children = (row.children[column]?.children ?? []).filter(
    (child) => !(child.type === 'text' && child.value.trim() === ''),
  );
  const only = children[0];
  return children.length === 1 && only?.type === 'inlineCode' ? only : undefined;
}

function cellText(row: TableRow, column: number): string {
  const cell = row.children[column];
  return cell ? toString(cell).trim() : '';
}

/**
 * Where a node's literal value starts in the source, when it is there verbatim inside the node
 * (a code span folded across lines, or a block indented in a list, is not, and is skipped).
 */
function valueOffset(
  value: string,
  source: string,
  position: { start: { offset?: number }; end: { offset?: number } } | undefined,
): number | undefined {
  const from = position?.start.offset;
  const to = position?.end.offset;
  if (from === undefined || to === undefined) return undefined;
  const found = source.indexOf(value, from);
  return found === -1 || found + value.length > to ? undefined : found;
}

// ---------------------------------------------------------------------------------------------
// Envelope examples in JSON-like text (json, jsonc with comments and `…` elisions), read by
// jsonc-parser's fault-tolerant visitor, which skips what is not JSON and goes on: `"error"`
// counts only as a member of an object that also has `"message"` or `"details"`.

interface EnvelopeFrame {
  keys: Set<string>;
  error: { value: string; start: number } | undefined;
}

export function envelopeMentions(text: string, base = 0): CodeMention[] {
  const mentions: CodeMention[] = [];
  // One entry per open object or array (undefined for an array: it has no members).
  const open: Array<EnvelopeFrame | undefined> = [];
  let member: string | undefined;
  visitJsonc(
    text,
    {
      onObjectBegin: () => {
        open.push({ keys: new Set(), error: undefined });
        member = undefined;
      },
      onArrayBegin: () => {
        open.push(undefined);
        member = undefined;
      },
      onObjectProperty: (name) => {
        open[open.length - 1]?.keys.add(name);
        member = name;
      },
      onLiteralValue: (value: unknown, offset) => {
        const frame = open[open.length - 1];
        if (member === 'error' && frame && typeof value === 'string') frame.error = { value, start: offset + 1 };
        member = undefined;
      },
      onObjectEnd: () => {
        const frame = open.pop();
        if (frame?.error && (frame.keys.has('message') || frame.keys.has('details'))) {
          const { value, start } = frame.error;
          mentions.push({
            code: value,
            status: undefined,
            retriable: undefined,
            start: base + start,
            end: base + start + value.length,
            form: 'example',
          });
        }
        member = undefined;
      },
      onArrayEnd: () => {
        open.pop();
        member = undefined;
      },
    },
    { allowTrailingComma: true, disallowComments: false },
  );
  return mentions.sort((a, b) => a.start - b.start);
}

// ---------------------------------------------------------------------------------------------
// YAML: the OpenAPI/AsyncAPI documents, and yaml blocks in markdown.

/**
 * Mentions in a YAML (or JSON) corpus document: envelope examples (unless `examples: false`),
 * `enum`/`const` of an `error` property (with the status of the enclosing `responses` entry, if
 * any), and the markdown of `description`/`summary`/`$comment`. It reads the parsed value; where a mention
 * sits is worked out only when a finding asks (`start`/`end`), so a clean document is never given
 * a positioned parse.
 */
export function yamlCodeMentions(file: DataFile, options: { examples?: boolean } = {}): CodeMention[] {
  const examples = options.examples ?? true;
  const mentions: CodeMention[] = [];
  // One path, pushed and popped as the walk goes (copied only for a mention), and the status of the
  // enclosing `responses` entry handed down: a document of thousands of nodes is walked in linear time.
  const path: PathSegment[] = [];
  const walk = (value: unknown, status: number | undefined, isResponse: boolean): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => descend(item, index, status));
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    if (examples && typeof record.error === 'string' && ('message' in record || 'details' in record)) {
      mentions.push(scalarAt(file, [...path, 'error'], record.error, status, 'example'));
    }
    const properties = record.properties;
    const errorProperty =
      typeof properties === 'object' && properties !== null ? (properties as Record<string, unknown>).error : undefined;
    if (typeof errorProperty === 'object' && errorProperty !== null) {
      const { enum: members, const: only } = errorProperty as Record<string, unknown>;
      if (Array.isArray(members))
        members.forEach(
          (member, index) =>
            typeof member === 'string' &&
            mentions.push(scalarAt(file, [...path, 'properties', 'error', 'enum', index], member, status, 'enum')),
        );
      if (typeof only === 'string')
        mentions.push(scalarAt(file, [...path, 'properties', 'error', 'const'], only, status, 'enum'));
    }
    for (const key of PROSE_KEYS) {
      const text = record[key];
      if (typeof text !== 'string') continue;
      // A response's own description names the codes it answers with, in any words.
      const answers = key === 'description' && isResponse ? status : undefined;
      if (mayMention(text) || (answers !== undefined && text.includes('`')))
        mentions.push(...proseAt(file, [...path, key], text, answers));
    }
    for (const key of Object.keys(record)) descend(record[key], key, status);
  };
  const descend = (child: unknown, segment: PathSegment, status: number | undefined): void => {
    if (typeof child !== 'object' || child === null) return;
    // The status of the nearest `responses: { '409': … }` entry on the path.
    const response = path[path.length - 1] === 'responses' && STATUS.test(String(segment));
    path.push(segment);
    walk(child, response ? Number(segment) : status, response);
    path.pop();
  };
  walk(file.value, undefined, false);
  return mentions;
}

const PROSE_KEYS = ['description', 'summary', '$comment'] as const;

/** A code span that holds a snake_case code and nothing else (one space either side may pad it). */
const SNAKE_SPAN = /`+ ?[a-z][a-z0-9]*(?:_[a-z0-9]+)+ ?`/;

/**
 * Every form a mention takes has a code span or a fence, and a status or an `"error"` key; a
 * candidate is a snake_case code span (in words about an error, which the parsed sentence decides).
 * Most descriptions have none of these, and are not parsed as markdown at all.
 */
function mayMention(text: string): boolean {
  return text.includes('`') && (/[45]\d\d|"error"/.test(text) || SNAKE_SPAN.test(text));
}

/** A mention whose offsets are looked up in the positioned document on first read. */
function deferred(
  mention: Omit<CodeMention, 'start' | 'end'>,
  offsets: () => { start: number; end: number },
): CodeMention {
  let found: { start: number; end: number } | undefined;
  const get = () => (found ??= offsets());
  return Object.defineProperties({ ...mention } as CodeMention, {
    start: { enumerable: true, get: () => get().start },
    end: { enumerable: true, get: () => get().end },
  });
}

function scalarAt(
  file: DataFile,
  path: PathSegment[],
  code: string,
  status: number | undefined,
  form: CodeMention['form'],
): CodeMention {
  return deferred({ code, status, retriable: undefined, form }, () => {
    const node = nodeAt(file.doc, path);
    return (node && scalarMention(node, file.text, 0, status, form)) ?? { start: 0, end: 0 };
  });
}

/** The mentions in a description, each placed again in the scalar's source text when asked. */
function proseAt(file: DataFile, path: PathSegment[], text: string, responseStatus?: number): CodeMention[] {
  const found = treeMentions(parseMarkdown(text).tree, text, responseStatus);
  let placed: CodeMention[] | undefined;
  const place = (): CodeMention[] => {
    const node = nodeAt(file.doc, path);
    placed =
      node && isScalar(node) && node.range
        ? proseInScalar(text, file.text, node.range[0], node.range[1], 0, responseStatus)
        : [];
    return placed;
  };
  return found.map((mention, index) =>
    deferred({ code: mention.code, status: mention.status, retriable: mention.retriable, form: mention.form }, () => {
      const match = (placed ?? place())[index];
      return match ? { start: match.start, end: match.end } : { start: 0, end: 0 };
    }),
  );
}

function documentMentions(doc: Document | undefined, text: string, base: number, examples = true): CodeMention[] {
  if (!doc) return [];
  const mentions: CodeMention[] = [];
  visitYaml(doc, {
    Map(_, map, path) {
      const status = responseStatus(path);
      const error = examples ? pairOf(map, 'error') : undefined;
      if (
        error &&
        isScalar(error.value) &&
        typeof error.value.value === 'string' &&
        (pairOf(map, 'message') || pairOf(map, 'details'))
      ) {
        const mention = scalarMention(error.value, text, base, status, 'example');
        if (mention) mentions.push(mention);
      }
      const properties = pairOf(map, 'properties');
      const errorProperty = properties && isMap(properties.value) ? pairOf(properties.value, 'error') : undefined;
      if (errorProperty && isMap(errorProperty.value)) {
        const values: YamlNode[] = [];
        const enumPair = pairOf(errorProperty.value, 'enum');
        if (enumPair && isSeq(enumPair.value)) values.push(...(enumPair.value.items as YamlNode[]));
        const constPair = pairOf(errorProperty.value, 'const');
        if (constPair && isScalar(constPair.value)) values.push(constPair.value);
        for (const value of values) {
          const mention =
            isScalar(value) && typeof value.value === 'string'
              ? scalarMention(value, text, base, status, 'enum')
              : undefined;
          if (mention) mentions.push(mention);
        }
      }
    },
    Pair(_, pair) {
      if (!isScalar(pair.key) || !['description', 'summary'].includes(String(pair.key.value))) return;
      if (!isScalar(pair.value) || typeof pair.value.value !== 'string' || !pair.value.range) return;
      mentions.push(...proseInScalar(pair.value.value, text, pair.value.range[0], pair.value.range[1], base));
    },
  });
  return mentions.sort((a, b) => a.start - b.start);
}

function pairOf(map: YAMLMap, key: string): Pair | undefined {
  return map.items.find((item) => isPair(item) && isScalar(item.key) && item.key.value === key);
}

/** The status of the nearest `responses: { '409': … }` entry around a node. */
function responseStatus(path: readonly unknown[]): number | undefined {
  for (let i = path.length - 1; i >= 2; i--) {
    const pair = path[i];
    if (!isPair(pair) || !isScalar(pair.key)) continue;
    const key = String(pair.key.value);
    if (!STATUS.test(key)) continue;
    const owner = path[i - 2];
    if (isPair(owner) && isScalar(owner.key) && owner.key.value === 'responses') return Number(key);
  }
  return undefined;
}

/** Node ranges are offsets into `text`; mentions are offsets into the file, `base` further on. */
function scalarMention(
  node: YamlNode,
  text: string,
  base: number,
  status: number | undefined,
  form: CodeMention['form'],
): CodeMention | undefined {
  if (!isScalar(node) || typeof node.value !== 'string' || !node.range) return undefined;
  const code = node.value;
  const found = text.indexOf(code, node.range[0]);
  const start = base + (found === -1 || found > node.range[1] ? node.range[0] : found);
  return { code, status, retriable: undefined, start, end: start + code.length, form };
}

/**
 * A description is markdown inside a YAML scalar; its offsets do not survive quoting and folding,
 * so each mention is found again, in order, in the scalar's source text.
 */
function proseInScalar(
  value: string,
  text: string,
  start: number,
  end: number,
  base: number,
  responseStatus?: number,
): CodeMention[] {
  const found: CodeMention[] = [];
  let cursor = start;
  for (const mention of treeMentions(parseMarkdown(value).tree, value, responseStatus)) {
    const at = text.indexOf(mention.code, cursor);
    if (at === -1 || at >= end) continue;
    found.push({ ...mention, start: base + at, end: base + at + mention.code.length });
    cursor = at + mention.code.length;
  }
  return found;
}
