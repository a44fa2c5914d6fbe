/**
 * What a house rule's `given` selects from the corpus model: values in JSON and YAML files (by
 * JSONPath or JSON pointer), or parts of markdown files (headings, paragraphs, code spans, table
 * cells), each with where it is written and, for text, where each of its characters is, so that a
 * substitution is placed on the words it replaces and fixed there.
 */
import type { Nodes, Table } from 'mdast';
import { walkMarkdown } from '../markdown/index.js';
import { toString } from 'mdast-util-to-string';
import { JSONPath } from 'jsonpath-plus';
import picomatch from 'picomatch';
import {
  dataStringEdit,
  hasPointer,
  Location,
  type Corpus,
  type DataFile,
  type MarkdownFile,
  type PathSegment,
} from '../model/index.js';
import type { Fix } from '../output/index.js';
import type { Given } from './definition.js';

/** A stretch of text the function reads, with how to place and replace characters of it. */
interface TextPiece {
  text: string;
  /** Offset of the piece within the target's value. */
  offset: number;
  locate(start: number, end: number): Location;
  edit(start: number, end: number, replacement: string): Fix | undefined;
}

export interface Target {
  file: string;
  value: unknown;
  /** Its name in its parent (`@key`), when it has one. */
  key?: string | number;
  /** Where the value, or its field `field`, is written. */
  locate(field?: string): Location;
  /** The value's text in pieces that map back to the file (a markdown node's text nodes; a data string). */
  pieces(field?: string): TextPiece[];
  /** How the value is named in a message: a JSON pointer, or the markdown part. */
  name: string;
}

export function selectTargets(corpus: Corpus, given: Given): Target[] {
  const globs = given.files === undefined ? undefined : Array.isArray(given.files) ? given.files : [given.files];
  const wanted = globs ? picomatch(globs, { dot: true }) : () => true;
  if (given.markdown !== undefined)
    return corpus
      .markdownFiles()
      .filter((file) => wanted(file.path))
      .flatMap((file) => markdownTargets(file, given));
  return corpus
    .dataFiles()
    .filter((file) => wanted(file.path))
    .flatMap((file) => dataTargets(file, given));
}

// ---- JSON and YAML ----------------------------------------------------------------------------

function dataTargets(file: DataFile, given: Given): Target[] {
  if (given.pointer !== undefined) {
    if (!hasPointer(file.value, given.pointer)) return [];
    const path = pathOf(file.value, given.pointer);
    return [dataTarget(file, path, valueAt(file.value, path))];
  }
  const keys = (given.path ?? '').trimEnd().endsWith('~');
  const results = JSONPath<Array<{ pointer: string; value: unknown }>>({
    path: given.path ?? '$',
    json: file.value as object,
    resultType: 'all',
    eval: 'safe',
    wrap: true,
  });
  const seen = new Set<string>();
  return results.flatMap((result) => {
    if (seen.has(result.pointer)) return [];
    seen.add(result.pointer);
    const path = pathOf(file.value, result.pointer);
    // `$.paths[*]~` selects names: the value is the key, written where the key is.
    return [keys ? keyTarget(file, path) : dataTarget(file, path, result.value)];
  });
}

function dataTarget(file: DataFile, path: PathSegment[], value: unknown): Target {
  const fieldPath = (field?: string): PathSegment[] =>
    field === undefined || field === '@key' ? path : [...path, field];
  return {
    file: file.path,
    value,
    ...(path.length > 0 ? { key: path[path.length - 1] } : {}),
    name: pointerOf(path),
    locate: (field) => {
      const at = fieldPath(field);
      // A field that is not there is reported where its object is.
      return Location.pointer(
        file,
        field !== undefined && field !== '@key' && !hasField(value, field) ? path : at,
        'key',
      );
    },
    pieces: (field) => {
      const at = fieldPath(field);
      const text = field === '@key' ? undefined : valueAt(file.value, at);
      if (typeof text !== 'string') return [];
      return [
        {
          text,
          offset: 0,
          locate: (start, end) => Location.pointer(file, at).chars(start, end),
          edit: (start, end, replacement) => dataStringEdit(file, at, start, end, replacement),
        },
      ];
    },
  };
}

function keyTarget(file: DataFile, path: PathSegment[]): Target {
  const key = path[path.length - 1];
  return {
    file: file.path,
    value: key,
    name: pointerOf(path),
    locate: () => Location.pointer(file, path, 'key'),
    pieces: () => [],
  };
}

function hasField(value: unknown, field: string): boolean {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, field);
}

/** The path a JSON pointer names, array indexes as numbers (as the model's positions take them). */
function pathOf(root: unknown, pointer: string): PathSegment[] {
  if (pointer === '') return [];
  const path: PathSegment[] = [];
  let current = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    const step: PathSegment = Array.isArray(current) ? Number(segment) : segment;
    path.push(step);
    current =
      current !== null && typeof current === 'object'
        ? (current as Record<string, unknown>)[step as string]
        : undefined;
  }
  return path;
}

function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let current = root;
  for (const step of path)
    current =
      current !== null && typeof current === 'object'
        ? (current as Record<string, unknown>)[step as string]
        : undefined;
  return current;
}

function pointerOf(path: readonly PathSegment[]): string {
  return path.map((s) => `/${String(s).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') || '/';
}

// ---- markdown ---------------------------------------------------------------------------------

function markdownTargets(file: MarkdownFile, given: Given): Target[] {
  const nodes: Array<{ node: Nodes; name: string }> = [];
  // A selected node's children are walked too (a code span in a selected heading is a target of
  // its own); a table is taken by its cells and not walked further.
  walkMarkdown(file.tree, {
    heading(node) {
      if (given.markdown === 'headings' && (given.level === undefined || node.depth === given.level))
        nodes.push({ node, name: 'heading' });
    },
    paragraph(node) {
      if (given.markdown === 'paragraphs') nodes.push({ node, name: 'paragraph' });
    },
    inlineCode(node) {
      if (given.markdown === 'code-spans') nodes.push({ node, name: 'code span' });
    },
    table(node) {
      if (given.markdown !== 'table-cells') return;
      nodes.push(...tableCells(node, given.column));
      return 'skip';
    },
  });
  return nodes.map(({ node, name }) => markdownTarget(file, node, name));
}

/** The body cells of a table (the header row names columns, it holds no data), of one column when `column` names its header. */
function tableCells(table: Table, column: string | undefined): Array<{ node: Nodes; name: string }> {
  const [header, ...body] = table.children;
  const headers = (header?.children ?? []).map((cell) => toString(cell).trim());
  const index = column === undefined ? undefined : headers.indexOf(column);
  if (index === -1) return [];
  return body.flatMap((row) =>
    row.children.flatMap((cell, i) =>
      index === undefined || i === index ? [{ node: cell, name: `cell of column "${headers[i] ?? i + 1}"` }] : [],
    ),
  );
}

function markdownTarget(file: MarkdownFile, node: Nodes, name: string): Target {
  const value = node.type === 'inlineCode' ? node.value : toString(node);
  // A table cell's own position takes in the pipe before it; its text is where a reader looks.
  const children = node.type === 'tableCell' ? node.children : [];
  const position =
    children.length > 0 && children[0]?.position && children.at(-1)?.position
      ? { start: children[0].position.start, end: (children.at(-1)?.position ?? children[0].position).end }
      : node.position;
  const start = position?.start.offset;
  const place =
    start !== undefined ? Location.text(file, start, position?.end.offset ?? start) : Location.file(file.path);
  return { file: file.path, value, name, locate: () => place, pieces: () => textPieces(file, node) };
}

/**
 * The node's text as it maps back to the file: each text node whose value is its source verbatim
 * (no escapes or entities), and a code span's content. Their offsets in the node's text are those
 * `toString` gives, so a piece's characters are the value's characters.
 */
function textPieces(file: MarkdownFile, node: Nodes): TextPiece[] {
  const pieces: TextPiece[] = [];
  let offset = 0;
  const piece = (text: string, start: number | undefined): void => {
    if (start !== undefined && file.text.slice(start, start + text.length) === text) {
      pieces.push({
        text,
        offset,
        locate: (s, e) => Location.text(file, start + s, start + e),
        edit: (s, e, replacement) => ({ start: start + s, end: start + e, text: replacement }),
      });
    }
    offset += text.length;
  };
  const walk = (current: Nodes): void => {
    if (current.type === 'text') piece(current.value, current.position?.start.offset);
    // Code inside prose is code, not words: only a code span selected for itself is read.
    else if (current.type === 'inlineCode' && current === node) {
      // A code span's content starts after its opening backticks (and one space, when padded).
      const start = current.position?.start.offset;
      const source = start === undefined ? '' : file.text.slice(start, current.position?.end.offset);
      const fence = /^`+ ?/.exec(source)?.[0].length ?? 0;
      piece(current.value, start === undefined ? undefined : start + fence);
    } else if (current.type === 'image') offset += (current.alt ?? '').length;
    else if ('children' in current) for (const child of current.children as Nodes[]) walk(child);
    else if ('value' in current && typeof current.value === 'string') offset += current.value.length;
  };
  walk(node);
  return pieces;
}
