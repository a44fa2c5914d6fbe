/** What prose limits read from a markdown tree: a node's words, and whether a document is generated whole. */
import type { Nodes, Parent, Root } from 'mdast';

/** The text a reader sees in `node`: text and inline code, joined; code blocks and HTML are not prose. */
export function plainText(node: Nodes): string {
  if (node.type === 'text' || node.type === 'inlineCode') return node.value;
  if (node.type === 'code' || node.type === 'html') return '';
  if (!('children' in node)) return '';
  // Siblings joined with a space so that a break or a list boundary never fuses two words.
  return ((node as Parent).children as Nodes[]).map(plainText).join(node.type === 'paragraph' || node.type === 'tableCell' || node.type === 'heading' ? '' : ' ');
}

/** Words as a reader counts them: runs of letters or digits (a hyphenated or dotted token is one word). */
export function wordCount(text: string): number {
  return text.split(/\s+/).filter((token) => /[\p{L}\p{N}]/u.test(token)).length;
}

const GENERATED_STATUS = /\bGenerated from\b[^\n]*\bdo not edit\b/i;

/**
 * A document generated whole, as upstream writes them: a status line saying it is generated and not
 * to be edited. Its prose is the generator's, not an author's, so prose rules leave it alone.
 */
export function isGeneratedDocument(file: { tree: Root }): boolean {
  const status = file.tree.children.find((node) => node.type === 'blockquote');
  return status !== undefined && GENERATED_STATUS.test(plainText(status));
}
