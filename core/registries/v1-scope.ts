/**
 * Where v2 text speaks in v1's terms on purpose: the sentence that cites v1 ("the v1 name",
 * `spec/v1/runs.md`, an era-2 log, which a v1 host wrote), the section whose heading does, and a
 * table column headed by a v1 name ("Era-2 name", "v1 type"). A v1 spelling there is quoted, not
 * used; anywhere else in v2 text it is a defect. The unit is the sentence, never the whole file:
 * a document that cites v1 once still states v2 everywhere else.
 */
import type { Corpus, MarkdownFile } from '../model/index.js';

/** Words that put a sentence in v1's terms: v1 itself, a v1 document, an era-2 (v1-written) log. */
export const CITES_V1 = /(?<![\w.-])v1(?![\w-])|\bspec\/v1\/|\bera[- ]2\b/i;
/**
 * A heading that puts its section in v1's terms names v1 itself. A section about era-2 logs
 * states v2's rules for reading them: a sentence in it that quotes a v1 name says "era-2" itself.
 */
const HEADING_CITES_V1 = /(?<![\w.-])v1(?![\w-])|\bspec\/v1\//i;

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.*)$/;
const TABLE_DELIMITER = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The sentence of `text` around `offset`, within its paragraph (blank lines bound it) or table row. */
export function sentenceAt(text: string, offset: number): string {
  const { start, end } = sentenceRange(text, offset);
  return text.slice(start, end);
}

/** Where the sentence around `offset` starts and ends in `text` (the bounds `sentenceAt` reads). */
export function sentenceRange(text: string, offset: number): { start: number; end: number } {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset) === -1 ? text.length : text.indexOf('\n', offset);
  // A table row is its own unit.
  if (text.slice(lineStart, lineEnd).trim().startsWith('|')) return { start: lineStart, end: lineEnd };
  const blank = text.lastIndexOf('\n\n', offset - 1);
  const blockStart = blank === -1 ? 0 : blank + 2;
  const next = text.indexOf('\n\n', offset);
  const blockEnd = next === -1 ? text.length : next;
  const block = text.slice(blockStart, blockEnd);
  const at = offset - blockStart;
  // A sentence ends at ". " (or ! ?) before a capital, a code span or a link; a list item ends one too.
  const bounds = [0];
  for (const match of block.matchAll(/[.!?](?=\s+[A-Z`*[(_])|\n\s*(?:[-*+]|\d+\.)\s/g))
    bounds.push((match.index ?? 0) + 1);
  bounds.push(block.length);
  for (let i = 0; i < bounds.length - 1; i++) {
    if ((bounds[i] as number) <= at && at < (bounds[i + 1] as number))
      return { start: blockStart + (bounds[i] as number), end: blockStart + (bounds[i + 1] as number) };
  }
  return { start: blockStart, end: blockEnd };
}

/** Whether the markdown at `offset` is read in v1's terms: its sentence, section heading or table column cites v1. */
export function markdownReadsAsV1(file: MarkdownFile, offset: number): boolean {
  if (CITES_V1.test(sentenceAt(file.text, offset))) return true;
  const before = file.text.slice(0, offset).split('\n');
  for (let i = before.length - 1; i >= 0; i--) {
    const heading = HEADING.exec(before[i] as string);
    if (heading) {
      if (HEADING_CITES_V1.test(heading[2] ?? '')) return true;
      break;
    }
  }
  return columnCitesV1(file.text, offset);
}

/** In a table row, whether the header of the column holding `offset` names v1 ("Era-2 name", "v1"). */
function columnCitesV1(text: string, offset: number): boolean {
  const lines = text.split('\n');
  const lineIndex = text.slice(0, offset).split('\n').length - 1;
  const row = lines[lineIndex] ?? '';
  if (!row.includes('|')) return false;
  let delimiter = lineIndex;
  while (delimiter > 0 && !TABLE_DELIMITER.test(lines[delimiter] ?? '')) {
    if (!(lines[delimiter] ?? '').includes('|')) return false;
    delimiter--;
  }
  const header = lines[delimiter - 1];
  if (header === undefined || delimiter === lineIndex) return false;
  const column = cellIndex(row, offset - (text.lastIndexOf('\n', offset - 1) + 1));
  const cells = header
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split(/(?<!\\)\|/);
  return CITES_V1.test(cells[column] ?? '');
}

function cellIndex(row: string, column: number): number {
  const leading = row.trimStart().startsWith('|') ? 1 : 0;
  let index = 0;
  for (let i = 0; i < column && i < row.length; i++) if (row[i] === '|' && row[i - 1] !== '\\') index++;
  return Math.max(0, index - leading);
}

/** Whether a file is v2 text: under a v2 tree (`spec/v2/`, `api/v2/`, `schemas/v2/`) or a `-v2` document. */
export function isV2Text(path: string): boolean {
  return /(^|\/)v2\/|-v2\.[a-z]+$/.test(path);
}

/** Whether a mention in `file` at `line`/`column` is read in v1's terms (markdown), or its line cites v1 (data). */
export function readsAsV1(corpus: Corpus, file: string, line: number, column: number): boolean {
  const markdown = corpus.markdown(file);
  if (markdown) return markdownReadsAsV1(markdown, markdown.lines.lineStart(line) + column - 1);
  const data = corpus.get(file);
  const text = data && data.kind !== 'binary' ? data.text : '';
  const lines = text.split('\n');
  return CITES_V1.test(lines[line - 1] ?? '');
}
