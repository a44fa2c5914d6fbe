/**
 * The word budget of the core documents: counted as `wc -w` counts raw markdown (runs of
 * non-space characters), which is how the budget is stated and measured upstream, so a number
 * here is the number a maintainer gets from the shell.
 */
import type { Corpus } from './corpus.js';

export const CORE_DOCUMENTS = 'spec/v2/core/';

export function rawWordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

export interface DocumentWords {
  file: string;
  words: number;
}

/** Each markdown file directly under `folder`, with its words, in path order. */
export function folderWordCounts(corpus: Corpus, folder: string = CORE_DOCUMENTS): DocumentWords[] {
  return corpus
    .markdownFiles()
    .filter((file) => file.path.startsWith(folder) && !file.path.slice(folder.length).includes('/'))
    .map((file) => ({ file: file.path, words: rawWordCount(file.text) }))
    .sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** 25000 -> "25,000", the same in every locale. */
export function groupDigits(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
