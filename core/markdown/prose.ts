/** Running text of a markdown tree, with what encloses it: the unit the prose gates read. */
import type { Link, Nodes, Root, Text } from 'mdast';
import { walkMarkdown } from './walk.js';

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

const cache = new WeakMap<Root, ProseText[]>();

/**
 * Every text node of the tree, with its context, collected in one walk and shared by the gates
 * that read prose. Code, inline code and HTML are not text nodes in mdast, so they never appear.
 */
export function proseTexts(tree: Root, source: string): readonly ProseText[] {
  const cached = cache.get(tree);
  if (cached) return cached;
  const texts: ProseText[] = [];
  walkMarkdown(tree, {
    text(node, parent, index, ancestors) {
      let link: Link | undefined;
      let inHeading = false;
      let inOtherConstruct = false;
      for (const ancestor of ancestors) {
        if (ancestor.type === 'link') link = ancestor as Link;
        else if (ancestor.type === 'heading') inHeading = true;
        else if (ancestor.type === 'linkReference' || ancestor.type === 'footnoteDefinition') inOtherConstruct = true;
      }
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      // Compared in place: a substring per text node was a measurable share of the walk.
      const verbatim =
        start !== undefined &&
        end !== undefined &&
        end - start === node.value.length &&
        source.startsWith(node.value, start);
      texts.push({
        node,
        link,
        inHeading,
        inOtherConstruct,
        previous: parent && index !== undefined && index > 0 ? parent.children[index - 1] : undefined,
        offset: verbatim ? start : undefined,
      });
    },
  });
  cache.set(tree, texts);
  return texts;
}

export function forEachProseText(tree: Root, source: string, visit: (text: ProseText) => void): void {
  for (const text of proseTexts(tree, source)) visit(text);
}
