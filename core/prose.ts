/** Running text of a markdown tree, with what encloses it: the unit the prose gates read. */
import type { Link, Nodes, Parent, Root, Text } from 'mdast';
import { visitParents } from 'unist-util-visit-parents';

export interface ProseText {
  node: Text;
  /** The link this text is the label of, if any. */
  link: Link | undefined;
  /** Inside a heading (not running prose for some gates, but citations there still count). */
  inHeading: boolean;
  /** Inside a link reference, image alt, or anything else that is not plain prose. */
  inOtherConstruct: boolean;
  /** The sibling before this text node inside its parent. */
  previous: Nodes | undefined;
  /** 0-based offset of the node's first character in the file, when its source is verbatim. */
  offset: number | undefined;
}

/**
 * Calls `visit` for every text node. Code, inline code and HTML are not text nodes in mdast,
 * so they are never visited.
 */
export function forEachProseText(tree: Root, source: string, visit: (text: ProseText) => void): void {
  visitParents(tree, 'text', (node: Text, ancestors: Parent[]) => {
    let link: Link | undefined;
    let inHeading = false;
    let inOtherConstruct = false;
    for (const ancestor of ancestors) {
      const type = (ancestor as Nodes).type;
      if (type === 'link') link = ancestor as Link;
      else if (type === 'heading') inHeading = true;
      else if (type === 'linkReference' || type === 'imageReference' || type === 'footnoteDefinition') inOtherConstruct = true;
    }
    const parent = ancestors[ancestors.length - 1];
    const index = parent ? parent.children.indexOf(node) : -1;
    const previous = parent && index > 0 ? (parent.children[index - 1] as Nodes) : undefined;
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    const verbatim = start !== undefined && end !== undefined && source.slice(start, end) === node.value;
    visit({ node, link, inHeading, inOtherConstruct, previous, offset: verbatim ? start : undefined });
  });
}
