/**
 * The one walk over a markdown tree: a visitor by node kind (`{ heading(node, parent, index, ancestors) { … } }`),
 * called in document order. Readers of the tree that look for nodes anywhere in it go through
 * this, not through a recursion of their own with casts. The tree is at most MAX_TREE_DEPTH deep
 * (the parser cuts it there), so the recursion is bounded.
 */
import type { Nodes, Parent } from 'mdast';

/** What a visitor returns: nothing to go on, `skip` to leave the node's children unvisited, `stop` to end the walk. */
type MarkdownControl = void | 'skip' | 'stop';

/**
 * Called with the node, its parent and its index there (undefined for the node the walk starts
 * at), and its ancestors, the start first and the parent last: a live list, read it during the
 * call and copy what is kept.
 */
type MarkdownVisitor<N extends Nodes> = (
  node: N,
  parent: Parent | undefined,
  index: number | undefined,
  ancestors: readonly Parent[],
) => MarkdownControl;

/** A visitor for each kind of node wanted; kinds without one are walked through. */
export type MarkdownVisitors = { [K in Nodes['type']]?: MarkdownVisitor<Extract<Nodes, { type: K }>> };

/** Walks `tree` (a root or any node) in document order; returns false when a visitor stopped the walk. */
export function walkMarkdown(tree: Nodes, visitors: MarkdownVisitors): boolean {
  return step(tree, undefined, undefined, [], visitors);
}

function step(
  node: Nodes,
  parent: Parent | undefined,
  index: number | undefined,
  ancestors: Parent[],
  visitors: MarkdownVisitors,
): boolean {
  const visit = visitors[node.type] as MarkdownVisitor<Nodes> | undefined;
  const control = visit?.(node, parent, index, ancestors);
  if (control === 'stop') return false;
  if (control === 'skip' || !('children' in node)) return true;
  const children = node.children as Nodes[];
  ancestors.push(node);
  try {
    for (let i = 0; i < children.length; i++)
      if (!step(children[i] as Nodes, node, i, ancestors, visitors)) return false;
  } finally {
    ancestors.pop();
  }
  return true;
}
