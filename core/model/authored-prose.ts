/**
 * The prose an author wrote, as the prose rules read it: markdown under some path prefixes, less
 * the documents generated whole (under any banner of the "generated … do not edit" family) and the
 * content of generated regions, which are their generators' text.
 */
import { isGeneratedDocument } from '../markdown/index.js';
import type { Corpus, MarkdownFile } from './corpus.js';

/** The markdown files under one of `prefixes` that are not generated whole. */
export function authoredMarkdown(corpus: Corpus, prefixes: readonly string[]): MarkdownFile[] {
  return corpus
    .markdownFiles()
    .filter((file) => prefixes.some((prefix) => file.path.startsWith(prefix)) && !isGeneratedDocument(file));
}

/** Whether an offset of the file lies outside every generated region (an unknown offset does). */
export function outsideRegions(file: MarkdownFile): (offset: number | undefined) => boolean {
  return (offset) =>
    offset === undefined || !file.regions.some((region) => offset >= region.contentStart && offset < region.contentEnd);
}
