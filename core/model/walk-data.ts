/**
 * The one walk over a parsed JSON or YAML value: every value, depth first in document order, with
 * the path of keys and indexes that leads to it (what `Location.pointer` takes). Gates and readers
 * that look for something anywhere in a document (a `$ref`, a string that cites, an example of an
 * envelope) visit it through this, not through a recursion of their own.
 */
import type { PathSegment } from './structured.js';

/** What a visitor returns: nothing to go on, `skip` to leave this value's members unvisited, `stop` to end the walk. */
type WalkControl = void | 'skip' | 'stop';

/**
 * The value being visited, the path to it (a fresh array the visitor may keep) and the member name
 * it is written under: its own key, or for an item of an array the key of the array.
 */
export type DataVisitor = (value: unknown, path: PathSegment[], key: string | undefined) => WalkControl;

/** Visits `root` and everything inside it; returns false when a visitor stopped the walk. */
export function walkData(root: unknown, visit: DataVisitor, path: PathSegment[] = []): boolean {
  return step(root, path, undefined, visit);
}

function step(value: unknown, path: PathSegment[], key: string | undefined, visit: DataVisitor): boolean {
  const control = visit(value, path, key);
  if (control === 'stop') return false;
  if (control === 'skip' || typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++)
      if (!step(value[index], [...path, index], key, visit)) return false;
  } else {
    for (const member of Object.keys(value))
      if (!step((value as Record<string, unknown>)[member], [...path, member], member, visit)) return false;
  }
  return true;
}
