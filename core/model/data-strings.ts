/**
 * The string values of a JSON or YAML document, for gates that read what is written inside them
 * (a citation in a `description`, a `source` or a `$comment`). Strings are read from the parsed
 * value; where one sits is worked out only when a finding asks for it.
 */
import { isScalar } from 'yaml';
import { parseMarkdown } from '../markdown/index.js';
import type { DataFile } from './corpus.js';
import type { Location } from './positions.js';
import { nodeAt, type PathSegment } from './structured.js';

export interface DataString {
  path: PathSegment[];
  /** The member name the string is the value of (the last string segment of its path). */
  key: string | undefined;
  value: string;
}

/** Every string value of the document (not its keys) for which `wanted` holds. */
export function dataStrings(file: Pick<DataFile, 'value'>, wanted: (value: string) => boolean): DataString[] {
  const found: DataString[] = [];
  const walk = (value: unknown, path: PathSegment[], key: string | undefined): void => {
    if (typeof value === 'string') {
      if (wanted(value)) found.push({ path, key, value });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...path, index], key));
    } else if (typeof value === 'object' && value !== null) {
      for (const [member, child] of Object.entries(value)) walk(child, [...path, member], member);
    }
  };
  walk(file.value, [], undefined);
  return found;
}

/** A link whose target is neither a URL with a scheme nor a fragment alone: a file of the repository. */
const RELATIVE_LINK = /\]\(\s*<?(?![a-z][a-z0-9+.-]*:|#|\/\/)[^)\s]/i;

/** links/file and links/anchor both read them; each string is parsed as markdown once. */
const linkCache = new WeakMap<DataFile, DataStringLink[]>();

export interface DataStringLink {
  url: string;
  /** Where the link is written, looked up on first use. */
  place(): Location;
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
      links.push({ url: link.url, place: () => dataStringLocation(file, string.path, start, end) });
    }
  }
  return links;
}

/**
 * Where the characters [start, end) of the string at `path` are written: at those characters
 * when the string is written on one line (escapes and quotes accounted for), else where the
 * string starts.
 */
export function dataStringLocation(file: Pick<DataFile, 'doc' | 'lineCounter' | 'text'>, path: readonly PathSegment[], start: number, end: number): Location {
  const node = nodeAt(file.doc, path);
  const range = node?.range;
  if (!range || !isScalar(node)) return { line: 1, column: 1 };
  const from = range[0];
  const to = range[1];
  const source = file.text.slice(from, to);
  const at = (offset: number) => {
    const position = file.lineCounter.linePos(offset);
    return { line: position.line, column: position.col };
  };
  if (node.type === 'BLOCK_LITERAL') {
    const line = literalLine(file.text, from, to, String(node.value), start);
    return line === undefined ? at(from) : at(line);
  }
  if (source.includes('\n')) return at(from);
  const offsets = sourceOffsets(source, node.type);
  if (!offsets) return at(from);
  const first = at(from + (offsets[start] ?? 0));
  const last = at(from + (offsets[end] ?? source.length));
  return { line: first.line, column: first.column, endLine: last.line, endColumn: last.column };
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
