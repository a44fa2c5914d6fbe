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
  const say = (node: Nodes, what: string, words: number, limit: number) => {
    const start = node.position?.start;
    if (!start || !outside(start.offset)) return;
    report({
      file: file.path,
      line: start.line,
      column: start.column,
      messageId: 'too-long', data: { what, words, limit },
      hint: what === 'a table cell' ? 'move the explanation into prose below the table and keep the cell to what identifies the row' : 'split it: one rule a sentence, a list for parallel cases',
    });
  };
  const visit = (node: Nodes): void => {
    if (node.type === 'paragraph') {
      const words = proseWordCount(node);
      if (words > maxWords) say(node, 'a paragraph', words, maxWords);
      return;
    }
    if (node.type === 'listItem') {
      // The item's own text: a nested list is counted item by item.
      const own = node.children.filter((child) => child.type !== 'list');
      const words = own.reduce((sum, child) => sum + proseWordCount(child), 0);
      if (words > maxWords) say(node, 'a list item', words, maxWords);
      for (const child of node.children) if (child.type === 'list') visit(child);
      return;
    }
    if (node.type === 'tableCell') {
      const words = proseWordCount(node);
      if (words > maxCellWords) say(node, 'a table cell', words, maxCellWords);
      return;
    }
    if (node.type === 'code' || node.type === 'html' || node.type === 'heading') return;
    if ('children' in node) for (const child of (node as Parent).children as Nodes[]) visit(child);
  };
  visit(file.tree);
}
