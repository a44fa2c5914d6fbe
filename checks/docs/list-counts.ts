import type { RootContent, Table, TableCell } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { Location, type MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { isGeneratedDocument } from '../../core/markdown/index.js';
import { CITES_V1, proseExclusions } from '../../core/registries/index.js';

/**
 * "The 13 manifest schemas …": a number before a plural noun of up to three words. The noun's last
 * word is what a table's first column may be headed by ("Schema").
 */
const COUNT = /(?<![\w.§/-])(\d+)[ \t]+((?:[A-Za-z][\w-]*[ \t]+){0,2}?([A-Za-z][a-z-]*s))\b/g;
/** Words before a count that make it a bound or a guess, not a count of a list. */
const NOT_EXACT = /\b(?:at least|at most|up to|more than|fewer than|less than|over|under|about|around|some|of|per|every|each)[ \t]*$/i;
/** What may stand between the code spans of one cell that lists several entries: commas, slashes, "and", "or". */
const SEPARATOR = /^[\s,;/]*(?:(?:and|or)[\s,;/]*)?$/;

export default defineCheck({
  id: 'docs/list-counts',
  summary:
    'A number that counts what a table of its section lists ("The 13 manifest schemas" over a table whose first column is headed Schema) is the number of entries that table lists',
  description:
    'A count is held to a table only where the text clearly counts it: the number stands before a plural noun whose last word is the heading of the first column of a table in the same section (singular or plural), and exactly one table of that section is so headed. The table lists one entry per row, or, where every cell of its first column holds only code spans joined by commas, slashes, "and" or "or", one per code span. A bound ("at least 3"), a count of entries of v1 ("the 11 v1 families"), and a generated document are not read; the size of a registry is compared by the gate of that registry.',
  severity: 'error',
  messages: {
    'list-count': '"{{phrase}}" counts {{written}}, but the table of this section headed "{{column}}" lists {{listed}}',
  },
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      if (!/\d/.test(file.text) || !file.text.includes('|') || isGeneratedDocument(file)) continue;
      for (const section of sections(file)) checkSection(file, section, report);
    }
  },
});

interface Section {
  blocks: RootContent[];
}

/** The top-level blocks of a document, cut at every heading. */
function sections(file: MarkdownFile): Section[] {
  const found: Section[] = [{ blocks: [] }];
  for (const block of file.tree.children) {
    if (block.type === 'heading') found.push({ blocks: [] });
    else found[found.length - 1]?.blocks.push(block);
  }
  return found.filter((section) => section.blocks.some((block) => block.type === 'table'));
}

function checkSection(file: MarkdownFile, section: Section, report: Report): void {
  const tables = section.blocks.filter((block): block is Table => block.type === 'table');
  let excluded: ReadonlyArray<readonly [number, number]> | undefined;
  for (const block of section.blocks) {
    if (block.type !== 'paragraph') continue;
    const from = block.position?.start.offset;
    const to = block.position?.end.offset;
    if (from === undefined || to === undefined) continue;
    const text = file.text.slice(from, to);
    if (!/\d/.test(text)) continue;
    for (const match of text.matchAll(COUNT)) {
      const start = from + (match.index ?? 0);
      const code = (excluded ??= proseExclusions(file));
      if (code.some(([a, b]) => start >= a && start < b)) continue;
      if (NOT_EXACT.test(text.slice(0, match.index ?? 0))) continue;
      // "the 11 v1 families": a count of another version's entries.
      if (CITES_V1.test(match[2] ?? '')) continue;
      const noun = (match[3] ?? '').toLowerCase();
      const counted = tables.filter((table) => headsColumn(firstColumnWord(table), noun));
      const table = counted.length === 1 ? counted[0] : undefined;
      if (!table) continue;
      const written = Number(match[1]);
      const listed = entries(table);
      if (written === listed) continue;
      const number = match[1] ?? '';
      report({
        location: Location.text(file, start, start + number.length),
        messageId: 'list-count',
        data: { phrase: `${number} ${match[2] ?? ''}`, written, listed, column: toString(table.children[0]?.children[0] ?? { type: 'text', value: '' }).trim() },
        hint: `write ${listed}, or make the table list what the sentence counts`,
      });
    }
  }
}

/** The first word of the heading of a table's first column, lowercase ("schema" of "Schema (`schemas/v2/…`)"). */
function firstColumnWord(table: Table): string {
  const cell = table.children[0]?.children[0];
  return cell ? (/^[A-Za-z][a-z-]*/.exec(toString(cell).trim())?.[0] ?? '').toLowerCase() : '';
}

/** Whether a column headed `word` lists what the plural `noun` counts. */
function headsColumn(word: string, noun: string): boolean {
  if (word.length < 3) return false;
  return noun === word || noun === `${word}s` || noun === `${word}es` || (word.endsWith('y') && noun === `${word.slice(0, -1)}ies`);
}

/** How many entries a table lists: one per code span where each first cell only enumerates code spans, else one per row. */
function entries(table: Table): number {
  const cells = table.children.slice(1).map((row) => row.children[0]);
  const spans = cells.map((cell) => (cell && onlyCodeSpans(cell) ? cell.children.filter((child) => child.type === 'inlineCode').length : 0));
  return spans.every((count) => count > 0) ? spans.reduce((sum, count) => sum + count, 0) : cells.length;
}

function onlyCodeSpans(cell: TableCell): boolean {
  return cell.children.every((child) => child.type === 'inlineCode' || (child.type === 'text' && SEPARATOR.test(child.value)));
}
