/** The code spans of a tree, in document order, found once for every gate that reads them. */
import type { InlineCode, Nodes, Parent, Root } from 'mdast';

const spansOf = new WeakMap<Root, InlineCode[]>();

/**
 * Every inline code node of `tree`, in document order. Several gates read a document's code spans
 * (header spellings, event names); one walk of a parsed tree serves them all, and a walk of every
 * tree per gate was a measurable part of a run.
 */
export function inlineCodes(tree: Root): readonly InlineCode[] {
  let spans = spansOf.get(tree);
  if (spans) return spans;
  spans = [];
  // An explicit stack in document order: trees are bounded in depth, but this costs nothing.
  const stack: Array<{ parent: Parent; index: number }> = [{ parent: tree, index: 0 }];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { parent: Parent; index: number };
    if (frame.index >= frame.parent.children.length) {
      stack.pop();
      continue;
    }
    const node = frame.parent.children[frame.index++] as Nodes;
    if (node.type === 'inlineCode') spans.push(node);
    else if ('children' in node && node.children.length > 0) stack.push({ parent: node, index: 0 });
  }
  spansOf.set(tree, spans);
  return spans;
}
