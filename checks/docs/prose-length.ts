import type { Nodes, Parent } from 'mdast';
import { authoredMarkdown, outsideRegions, type MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { proseWordCount } from '../../core/markdown/index.js';

export default defineCheck({
  id: 'docs/prose-length',
  summary: 'v2 paragraphs and list items stay within a word limit, table cells within a shorter one',
  description:
    'Words are counted as upstream\'s readability gate counts them (scripts/check-spec-readability.mjs: "Words are whitespace tokens with inline code counted as one word"): every whitespace-separated token counts, and an inline code span, however long, is one word. A list item counts its own text; a list nested in it is counted item by item. Code blocks, HTML and headings are not prose; a document under any banner of the "generated … do not edit" family, and the content of a generated region, are their generator\'s and are not read.',
  severity: 'error',
  options: {
    paths: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the prose held to this rule (generated documents and regions are skipped)' },
    maxWords: { type: 'integer', minimum: 1, default: 90, description: 'the most words a paragraph or a list item may have' },
    maxCellWords: { type: 'integer', minimum: 1, default: 40, description: 'the most words a table cell may have' },
  },
  messages: {
    'too-long': '{{what}} of {{words}} words, over the limit of {{limit}}',
  },
  run(corpus, report, { options }) {
    for (const file of authoredMarkdown(corpus, options.paths as string[])) checkLengths(file, options.maxWords as number, options.maxCellWords as number, outsideRegions(file), report);
  },
});

function checkLengths(file: MarkdownFile, maxWords: number, maxCellWords: number, outside: (offset: number | undefined) => boolean, report: Report): void {
  for (const { node, what, words } of proseBlocks(file)) {
    const limit = what === 'a table cell' ? maxCellWords : maxWords;
    const start = node.position?.start;
    if (words <= limit || !start || !outside(start.offset)) continue;
    report({
      file: file.path,
      line: start.line,
      column: start.column,
      messageId: 'too-long', data: { what, words, limit },
      hint: what === 'a table cell' ? 'move the explanation into prose below the table and keep the cell to what identifies the row' : 'split it: one rule a sentence, a list for parallel cases',
    });
  }
}

interface ProseBlock {
  node: Nodes;
  what: 'a paragraph' | 'a list item' | 'a table cell';
  words: number;
}

/**
 * Each paragraph, list item and table cell of a document with its word count, in document order.
 * Kept per parsed file: the language server runs this gate after every edit, and only the edited
 * document is parsed again.
 */
function proseBlocks(file: MarkdownFile): readonly ProseBlock[] {
  let blocks = blocksOf.get(file);
  if (blocks) return blocks;
  blocks = [];
  const found = blocks;
  const visit = (node: Nodes): void => {
    if (node.type === 'paragraph') {
      found.push({ node, what: 'a paragraph', words: proseWordCount(node) });
      return;
    }
    if (node.type === 'listItem') {
      // The item's own text: a nested list is counted item by item.
      const own = node.children.filter((child) => child.type !== 'list');
      found.push({ node, what: 'a list item', words: own.reduce((sum, child) => sum + proseWordCount(child), 0) });
      for (const child of node.children) if (child.type === 'list') visit(child);
      return;
    }
    if (node.type === 'tableCell') {
      found.push({ node, what: 'a table cell', words: proseWordCount(node) });
      return;
    }
    if (node.type === 'code' || node.type === 'html' || node.type === 'heading') return;
    if ('children' in node) for (const child of (node as Parent).children as Nodes[]) visit(child);
  };
  visit(file.tree);
  blocksOf.set(file, blocks);
  return blocks;
}

const blocksOf = new WeakMap<MarkdownFile, ProseBlock[]>();
