/**
 * Counts quoted in prose (`<!-- generated: count/<name> -->**97**<!-- /generated: count/<name> -->`)
 * are inline regions; a generator that owns a count fills every occurrence in every document.
 */
import type { Corpus } from '../model/index.js';
import { wholeFileMark } from '../model/index.js';
import type { GeneratedRegionContent } from './define.js';

export function countRegionId(name: string): string {
  return `count/${name}`;
}

export function countOutputs(corpus: Corpus, name: string, value: number): GeneratedRegionContent[] {
  const region = countRegionId(name);
  return regionOutputs(corpus, region, `**${value}**`);
}

/**
 * One output for each document that has region `region`, all with the same content; and, when
 * `sources` are given, one for each document generated whole from one of them (its tables stand
 * for the regions it has no markers for).
 */
export function regionOutputs(
  corpus: Corpus,
  region: string,
  content: string,
  sources: readonly string[] = [],
): GeneratedRegionContent[] {
  return corpus
    .markdownFiles()
    .filter(
      (file) =>
        file.regions.some((r) => r.id === region) ||
        (sources.length > 0 &&
          file.regions.length === 0 &&
          (wholeFileMark(file.text)?.sources ?? []).some((source) => sources.includes(source))),
    )
    .map((file) => ({ path: file.path, region, content }));
}
