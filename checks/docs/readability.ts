import type { Nodes, Parent } from 'mdast';
import type { MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { HOUSE_STYLE_DOCUMENT, isGeneratedDocument, plainText, proseTexts, proseWordCount } from '../../core/markdown/index.js';

export default defineCheck({
  id: 'docs/readability',
  summary: 'v2 prose: no RFC number outside the Sources footer; paragraphs and list items within a word limit, table cells within a shorter one; mentions of v1 held to a recorded count that may only go down',
  description:
    'Words are counted as upstream\'s readability gate counts them (scripts/check-spec-readability.mjs: "Words are whitespace tokens with inline code counted as one word"): every whitespace-separated token counts, and an inline code span, however long, is one word. A document under any banner of the "generated … do not edit" family is its generator\'s and is not read.',
  severity: 'error',
  options: {
    paths: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the prose held to these limits (generated documents and regions are skipped)' },
    maxWords: { type: 'integer', minimum: 1, default: 90, description: 'the most words a paragraph or a list item may have' },
    maxCellWords: { type: 'integer', minimum: 1, default: 40, description: 'the most words a table cell may have' },
    rfcPattern: { type: 'string', default: '\\bRFC[ -]?0\\d{3}\\b', description: "how the project's own RFC numbers are written (IETF RFCs such as RFC 8785 are standards, cited where they are used)" },
    v1Mentions: { type: ['integer', 'null'], minimum: 0, default: null, description: 'the recorded count of `v1` mentions in this prose, which may only go down (null: not held to a count)' },
  },
  run(corpus, report, { options }) {
    const paths = options.paths as string[];
    const files = corpus.markdownFiles().filter((file) => paths.some((prefix) => file.path.startsWith(prefix)) && !isGeneratedDocument(file));
    const rfc = new RegExp(options.rfcPattern as string, 'g');
    const mentions: Array<{ file: string; line: number; column: number }> = [];
    for (const file of files) {
      const outside = outsideRegions(file);
      checkRfcNumbers(file, rfc, outside, report);
      checkLengths(file, options.maxWords as number, options.maxCellWords as number, outside, report);
      mentions.push(...v1Mentions(file, outside));
    }
    const recorded = options.v1Mentions as number | null;
    if (recorded !== null) checkV1Count(mentions, recorded, report);
  },
});

/** Offsets inside generated regions are the generator's text, not the author's. */
function outsideRegions(file: MarkdownFile): (offset: number | undefined) => boolean {
  return (offset) => offset === undefined || !file.regions.some((region) => offset >= region.contentStart && offset < region.contentEnd);
}

/** The `*Sources: RFC …*` paragraph that closes a document: the one place RFC numbers belong. */
function isSourcesFooter(node: Nodes): boolean {
  return node.type === 'paragraph' && /^Sources:/.test(plainText(node).trim());
}

function checkRfcNumbers(file: MarkdownFile, rfc: RegExp, outside: (offset: number | undefined) => boolean, report: Report): void {
  const footer = file.tree.children.filter(isSourcesFooter).at(-1);
  const footerStart = footer?.position?.start.offset ?? Infinity;
  const statusBlock = file.tree.children.find((node) => node.type === 'blockquote');
  const statusEnd = statusBlock?.position?.end.offset ?? -1;
  const inStatus = (offset: number) => offset <= statusEnd && statusBlock?.position !== undefined && offset >= (statusBlock.position.start.offset ?? 0);
  // docs/structure reports every RFC number in a core document's status block, with the fix that
  // moves it to the footer: said here too, one defect would be two findings.
  const statusOwned = HOUSE_STYLE_DOCUMENT.test(file.path);
  const tables = file.tree.children.filter((node) => node.type === 'table');
  const inTable = (offset: number) => tables.some((table) => offset >= (table.position?.start.offset ?? 0) && offset < (table.position?.end.offset ?? 0));
  for (const text of proseTexts(file.tree, file.text)) {
    if (text.offset === undefined || !outside(text.offset) || text.offset >= footerStart) continue;
    // A number that labels a link to the RFC cites the document itself, as migrated documents keep doing.
    if (text.link) continue;
    for (const match of text.node.value.matchAll(rfc)) {
      const offset = text.offset + (match.index ?? 0);
      if (statusOwned && inStatus(offset)) continue;
      if (restatesOwner(tables, text.node.value.slice(0, match.index ?? 0), offset)) continue;
      const where = text.inHeading ? 'a heading' : inStatus(offset) ? 'the status banner' : inTable(offset) ? 'a table cell' : 'running text';
      const position = file.lines.position(offset);
      report({
        file: file.path,
        line: position.line,
        column: position.column,
        endLine: position.line,
        endColumn: position.column + match[0].length,
        messageId: 'rfc-in-prose', data: { text: match[0], where }, message: `${match[0]} in ${where}; RFC numbers belong in the Sources footer, and the prose says what the rule is`,
        hint: `state the rule without the RFC number, and list ${match[0]} in the closing "*Sources: …*" line`,
      });
    }
  }
}

/**
 * A family's owning RFC is a field of its spec/v2/declaration.json row (`owningRfc`); the sentence
 * under a family heading ("owner RFC 0193"), an extension's "owning RFC" field row and an "Owner"
 * column restate that field, which is data the document is made to carry, not prose citing a source.
 */
const OWNER_FIELD = /^(?:owner|owning RFCs?):?$/i;

function restatesOwner(tables: readonly Nodes[], before: string, offset: number): boolean {
  if (/\bowner\s+$/.test(before)) return true;
  for (const table of tables) {
    if (table.type !== 'table' || offset < (table.position?.start.offset ?? 0) || offset >= (table.position?.end.offset ?? 0)) continue;
    const row = table.children.find((candidate) => offset >= (candidate.position?.start.offset ?? 0) && offset < (candidate.position?.end.offset ?? 0));
    const index = row?.children.findIndex((cell) => offset >= (cell.position?.start.offset ?? 0) && offset < (cell.position?.end.offset ?? 0)) ?? -1;
    if (!row || index < 0) return false;
    // The row's label ("| **owning RFC** | RFC 0144 |") or the column's ("| Path | Owner | What |") says the cell is that field.
    const label = index > 0 ? row.children[0] : undefined;
    const column = table.children[0] !== row ? table.children[0]?.children[index] : undefined;
    return [label, column].some((cell) => cell !== undefined && OWNER_FIELD.test(plainText(cell).trim()));
  }
  return false;
}

function checkLengths(file: MarkdownFile, maxWords: number, maxCellWords: number, outside: (offset: number | undefined) => boolean, report: Report): void {
  const say = (node: Nodes, what: string, words: number, limit: number) => {
    const start = node.position?.start;
    if (!start || !outside(start.offset)) return;
    report({
      file: file.path,
      line: start.line,
      column: start.column,
      messageId: 'too-long', data: { what, words, limit }, message: `${what} of ${words} words, over the limit of ${limit}`,
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

const V1 = /(?<![\w.-])v1(?![\w-])/g;

/** Every `v1` the prose says, in running text and in inline code, outside code blocks. */
function v1Mentions(file: MarkdownFile, outside: (offset: number | undefined) => boolean): Array<{ file: string; line: number; column: number }> {
  const found: Array<{ file: string; line: number; column: number }> = [];
  const visit = (node: Nodes): void => {
    if (node.type === 'text' || node.type === 'inlineCode') {
      const start = node.position?.start.offset;
      if (start === undefined || !outside(start)) return;
      const verbatim = node.type === 'text' && file.text.slice(start, node.position?.end.offset) === node.value;
      for (const match of node.value.matchAll(V1)) {
        const position = file.lines.position(verbatim ? start + (match.index ?? 0) : start);
        found.push({ file: file.path, line: position.line, column: position.column });
      }
      return;
    }
    if ('children' in node) for (const child of (node as Parent).children as Nodes[]) visit(child);
  };
  visit(file.tree);
  return found;
}

function checkV1Count(mentions: ReadonlyArray<{ file: string; line: number; column: number }>, recorded: number, report: Report): void {
  const count = mentions.length;
  if (count === recorded) return;
  const perFile = new Map<string, number>();
  for (const mention of mentions) perFile.set(mention.file, (perFile.get(mention.file) ?? 0) + 1);
  const shares = [...perFile].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([file, n]) => `${file} ${n}`).join(', ');
  const first = mentions[mentions.length - 1];
  const place = first ? { file: first.file, line: first.line, column: first.column } : { file: 'spec/v2', line: 1, column: 1 };
  if (count > recorded) {
    report({
      ...place,
      messageId: 'v1-mentions-up', data: { count, recorded }, message: `${count} mentions of v1 in v2 prose, above the recorded ${recorded}: the count may only go down (${shares})`,
      hint: 'say what v2 requires instead of how it differs from v1; a v1 mention belongs in the migration notes',
    });
  } else {
    report({
      ...place,
      severity: 'warning',
      messageId: 'v1-mentions-down', data: { count, recorded }, message: `${count} mentions of v1 in v2 prose, below the recorded ${recorded}`,
      hint: `lower the recorded count (rules: {"docs/readability": ["error", {"v1Mentions": ${count}}]}) so that it holds`,
    });
  }
}
