/** What the parse cache may hand back, checked before it is used: an entry that is not what the loader writes is a miss. */
import type { Root } from 'mdast';
import type { ParsedMarkdown } from '../markdown/index.js';
import { MAX_NESTING, type ParseProblem } from './structured.js';

/** A parse entry as the loader writes it: a value no deeper than the loader admits, and located problems (then no value). */
export function isParseEntry(entry: unknown): entry is { value: unknown; problems: ParseProblem[] } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const { value, problems } = entry as { value?: unknown; problems?: unknown };
  if (!Array.isArray(problems) || !problems.every(isProblem)) return false;
  if (problems.length > 0) return value === undefined;
  return 'value' in entry && isPlainJson(value);
}

function isProblem(problem: unknown): problem is ParseProblem {
  if (typeof problem !== 'object' || problem === null) return false;
  const { message, line, column } = problem as Record<string, unknown>;
  return (
    typeof message === 'string' &&
    Number.isInteger(line) &&
    (line as number) >= 1 &&
    Number.isInteger(column) &&
    (column as number) >= 1
  );
}

/** A parse result as the markdown layer returns it: a tree and located problems. */
export function isParsedMarkdown(value: unknown): value is ParsedMarkdown {
  if (typeof value !== 'object' || value === null) return false;
  const { tree, problems } = value as { tree?: unknown; problems?: unknown };
  return Array.isArray(problems) && problems.every(isProblem) && isMarkdownTree(tree);
}

/** An mdast root as the markdown parser builds it: typed nodes with positions, all the way down (checked without recursion). */
function isMarkdownTree(tree: unknown): tree is Root {
  if (typeof tree !== 'object' || tree === null || (tree as { type?: unknown }).type !== 'root') return false;
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || typeof node.type !== 'string') return false;
    const position = node.position as { start?: Record<string, unknown>; end?: Record<string, unknown> } | undefined;
    if (position !== undefined && !(isPoint(position?.start) && isPoint(position?.end))) return false;
    if ('value' in node && typeof node.value !== 'string') return false;
    if ('children' in node) {
      if (!Array.isArray(node.children)) return false;
      for (const child of node.children) stack.push(child);
    }
  }
  return true;
}

function isPoint(point: Record<string, unknown> | undefined): boolean {
  return (
    point !== undefined &&
    Number.isInteger(point.line) &&
    Number.isInteger(point.column) &&
    Number.isInteger(point.offset)
  );
}

/** Whether a value survives a JSON round trip unchanged (YAML can hold .inf, dates, and the like) and nests no deeper than the loader admits; iterative. */
export function isPlainJson(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node === 'string' || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return false;
      continue;
    }
    if (typeof node !== 'object' || depth >= MAX_NESTING) return false;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
    } else {
      if (Object.getPrototypeOf(node) !== Object.prototype) return false;
      for (const item of Object.values(node)) stack.push([item, depth + 1]);
    }
  }
  return true;
}
