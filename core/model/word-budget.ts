/**
 * The word budget of the core documents: counted as `wc -w` counts raw markdown (runs of
 * non-space characters), which is how the budget is stated and measured upstream, so a number
 * here is the number a maintainer gets from the shell, except that the content of generated
 * regions is left out: it is the registries' text restated, and counting it would make the quoted
 * total depend on what the other generators are about to write. So are the tool's own comments
 * (`<!-- openwop-spec-disable-next-line … -->`): they are addressed to the tool, not the reader,
 * and suppressing a finding must not change the count quoted in another file.
 */
import { blankDirectives, directiveComments, whitespaceTokens } from '../markdown/index.js';
import type { Corpus, MarkdownFile } from './corpus.js';

export const CORE_DOCUMENTS = 'spec/v2/core/';

function rawWordCount(text: string): number {
  return whitespaceTokens(text);
}

export interface DocumentWords {
  file: string;
  words: number;
}

/** Each document's words, kept with the document (a file object is its content). */
const wordsOf = new WeakMap<MarkdownFile, number>();

function documentWords(file: MarkdownFile): number {
  let words = wordsOf.get(file);
  if (words === undefined) {
    words = rawWordCount(
      withoutRegions(blankDirectives(file.text, directiveComments(file.htmlNodes, file.text)), file.regions),
    );
    wordsOf.set(file, words);
  }
  return words;
}

/** Each markdown file directly under `folder`, with its words, in path order. */
export function folderWordCounts(corpus: Corpus, folder: string = CORE_DOCUMENTS): DocumentWords[] {
  return corpus
    .markdownFiles()
    .filter((file) => file.path.startsWith(folder) && !file.path.slice(folder.length).includes('/'))
    .map((file) => ({ file: file.path, words: documentWords(file) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** The text with the content of each generated region taken out (its markers stay, one word each side). */
function withoutRegions(text: string, regions: ReadonlyArray<{ contentStart: number; contentEnd: number }>): string {
  let out = '';
  let at = 0;
  for (const region of [...regions].sort((a, b) => a.contentStart - b.contentStart)) {
    out += `${text.slice(at, region.contentStart)} `;
    at = region.contentEnd;
  }
  return out + text.slice(at);
}

/** 25000 -> "25,000", the same in every locale. */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
