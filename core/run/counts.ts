/**
 * Counts quoted in prose (`<!-- generated: count/<name> -->**97**<!-- /generated: count/<name> -->`)
 * are inline regions; a generator that owns a count fills every occurrence in every document.
 */
import type { Corpus } from '../model/index.js';
import type { GeneratedRegionContent } from './define.js';

export function countRegionId(name: string): string {
  return `count/${name}`;
}

export function countOutputs(corpus: Corpus, name: string, value: number): GeneratedRegionContent[] {
  const region = countRegionId(name);
  return regionOutputs(corpus, region, `**${value}**`);
}

/** One output for each document that has region `region`, all with the same content. */
export function regionOutputs(corpus: Corpus, region: string, content: string): GeneratedRegionContent[] {
  return corpus
    .markdownFiles()
    .filter((file) => file.regions.some((r) => r.id === region))
    .map((file) => ({ path: file.path, region, content }));
}
