/**
 * Replaces members of a hand-written JSON file in place. A registry or schema that has a derived
 * member (the codemap's `counts`, the payload schema's `_typeIndex`) keeps its author's layout
 * everywhere else: only the member's value is rewritten, two-space indented from its key's line.
 */
import { isMap, isPair, isScalar, type Node } from 'yaml';
import type { DataFile } from './corpus.js';
import { nodeAt } from './structured.js';

export interface MemberUpdate {
  /** Object keys from the root to the member. */
  path: string[];
  value: unknown;
}

export class SpliceError extends Error {}

/**
 * The text of `file` with each member at `path` set to `value`: replaced when it exists, appended
 * as the last member of its parent object when it does not. Throws SpliceError when a parent is
 * missing or is not an object.
 */
export function spliceJson(file: DataFile, updates: readonly MemberUpdate[]): string {
  // The usual case: every member already holds its value. Then the text stands as it is, and the
  // positioned document (the costly part) is never built.
  if (updates.every((update) => JSON.stringify(valueAt(file.value, update.path)) === JSON.stringify(update.value)))
    return file.text;
  const text = file.text;
  const edits: Array<{ start: number; end: number; text: string }> = [];
  for (const update of updates) {
    const node = nodeAt(file.doc, update.path);
    if (node?.range) {
      const indent = lineIndent(text, keyStart(file, update.path) ?? node.range[0]);
      edits.push({ start: node.range[0], end: node.range[1], text: formatValue(update.value, indent) });
      continue;
    }
    const parentPath = update.path.slice(0, -1);
    const parent = nodeAt(file.doc, parentPath);
    const key = update.path[update.path.length - 1];
    if (key === undefined || !isMap(parent) || !parent.range) {
      throw new SpliceError(`${file.path} has no object at /${parentPath.join('/')} to hold "${key ?? ''}"`);
    }
    const parentIndent = lineIndent(
      text,
      parentPath.length === 0 ? parent.range[0] : (keyStart(file, parentPath) ?? parent.range[0]),
    );
    const memberIndent = `${parentIndent}  `;
    const member = `${JSON.stringify(key)}: ${formatValue(update.value, memberIndent)}`;
    const last = parent.items[parent.items.length - 1];
    const lastEnd =
      last && isPair(last)
        ? ((last.value as Node | null)?.range?.[1] ?? (last.key as Node | null)?.range?.[1])
        : undefined;
    if (lastEnd !== undefined) {
      edits.push({ start: lastEnd, end: lastEnd, text: `,\n${memberIndent}${member}` });
    } else {
      const close = text.lastIndexOf('}', parent.range[1]);
      edits.push({ start: parent.range[0] + 1, end: close, text: `\n${memberIndent}${member}\n${parentIndent}` });
    }
  }
  edits.sort((a, b) => b.start - a.start);
  for (let i = 1; i < edits.length; i++) {
    const [later, earlier] = [edits[i - 1], edits[i]];
    if (later && earlier && earlier.end > later.start) throw new SpliceError(`${file.path}: two updates overlap`);
  }
  let result = text;
  for (const edit of edits) result = result.slice(0, edit.start) + edit.text + result.slice(edit.end);
  return result;
}

function keyStart(file: DataFile, path: readonly string[]): number | undefined {
  if (path.length === 0) return undefined;
  const parent = nodeAt(file.doc, path.slice(0, -1));
  if (!isMap(parent)) return undefined;
  const pair = parent.items.find(
    (item) => isPair(item) && isScalar(item.key) && item.key.value === path[path.length - 1],
  );
  return pair && isPair(pair) ? (pair.key as Node | null)?.range?.[0] : undefined;
}

function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, offset))?.[0] ?? '';
}

function formatValue(value: unknown, indent: string): string {
  return JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}
