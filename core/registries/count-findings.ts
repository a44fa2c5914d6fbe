/**
 * A registry count that disagrees with the registry, as a finding: the count against the size,
 * and a heading's count against the entries listed under it. Gates that hold a registry report
 * these for it; the words are `COUNT_MESSAGES`, which such a gate puts in its `messages`.
 */
import type { Corpus } from '../model/index.js';
import type { Finding } from '../output/index.js';
import { COUNTED_REGISTRIES, type CountedRegistryId } from './counted-registries.js';
import { mentionIndex, type LocatedCount } from './mention-index.js';

export const COUNT_MESSAGES = {
  'count-wrong': '"{{phrase}}" gives the size of {{registry}} as {{written}}; it has {{count}}',
  'heading-count-differs': '"{{phrase}}" heads {{listed}} entries; the count and what it counts disagree',
} as const;

export type CountFinding = Omit<Finding, 'rule' | 'message' | 'severity'> & {
  messageId: keyof typeof COUNT_MESSAGES;
  count: LocatedCount;
};

/** The counts of registry `id` the corpus gets wrong, each with its place, id, data and hint; none while the registry cannot be read. */
export function registryCountFindings(corpus: Corpus, id: CountedRegistryId): CountFinding[] {
  const registry = COUNTED_REGISTRIES.find((candidate) => candidate.id === id);
  const size = registry?.size(corpus);
  if (!registry || size === undefined) return [];
  const findings: CountFinding[] = [];
  for (const count of mentionIndex(corpus).counts) {
    if (count.registry !== id) continue;
    const place = { file: count.file, ...count.place() };
    if (count.value !== size) {
      findings.push({
        ...place,
        count,
        messageId: 'count-wrong',
        data: { registry: registry.what, phrase: count.phrase, count: size, written: count.value },
        hint:
          count.kind === 'data'
            ? `write ${size}, or regenerate the text from ${registry.path}`
            : `write ${size}, or correct ${registry.path} if the prose is right`,
      });
    }
    // A heading that counts what it heads is held to that too: the table, list or enumeration under it.
    if (count.listed !== undefined && count.listed !== count.value) {
      findings.push({
        ...place,
        count,
        messageId: 'heading-count-differs',
        data: {
          registry: registry.what,
          phrase: count.phrase,
          listed: count.listed,
          written: count.value,
          count: size,
        },
        hint: `make the count and the entries under the heading agree (${registry.what} has ${size})`,
      });
    }
  }
  return findings;
}
