/**
 * The files whose findings change with a registry because they name its entries: a document that
 * writes `409 run_terminal` breaks when errors.json renames the code, one that names an event type
 * when the codemap (or the declaration, which registers the orgs of vendor types) changes. `check
 * FILE…` widens its report to them, and so does one that counts the registry's entries, from the
 * mention index the gates judge.
 */
import type { Corpus } from '../model/index.js';
import { DECLARATION_PATH } from './views.js';
import { ERRORS_PATH } from './errors.js';
import { CODEMAP_PATH } from './event-codemap.js';
import { mentionIndex } from './mention-index.js';
import { COUNTED_REGISTRIES } from './counted-registries.js';

export function registryMentionDependents(corpus: Corpus, selected: ReadonlySet<string>): Set<string> {
  const dependents = new Set<string>();
  if (selected.has(ERRORS_PATH)) {
    for (const { file } of mentionIndex(corpus).codes) dependents.add(file);
  }
  if (selected.has(CODEMAP_PATH) || selected.has(DECLARATION_PATH)) {
    for (const mention of mentionIndex(corpus).events) dependents.add(mention.file);
  }
  // A count of a registry breaks when the registry grows or shrinks.
  const counted = new Set(
    COUNTED_REGISTRIES.filter((registry) => selected.has(registry.path)).map((registry) => registry.id),
  );
  if (counted.size > 0)
    for (const count of mentionIndex(corpus).counts) if (counted.has(count.registry)) dependents.add(count.file);
  for (const file of selected) dependents.delete(file);
  return dependents;
}
