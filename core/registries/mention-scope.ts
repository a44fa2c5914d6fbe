/**
 * The files whose findings change with a registry because they name its entries: a document that
 * writes `409 run_terminal` breaks when errors.json renames the code, one that names an event type
 * when the codemap (or the declaration, which registers the orgs of vendor types) changes. `check
 * FILE…` widens its report to them, from the same mention indexes the gates judge.
 */
import type { Corpus } from '../model/index.js';
import { DECLARATION_PATH } from './views.js';
import { markdownCodeMentions, yamlCodeMentions } from './error-code-mentions.js';
import { ERRORS_PATH } from './errors.js';
import { CODEMAP_PATH } from './event-codemap.js';
import { eventNameMentions } from './event-mentions.js';

export function registryMentionDependents(corpus: Corpus, selected: ReadonlySet<string>): Set<string> {
  const dependents = new Set<string>();
  if (selected.has(ERRORS_PATH)) {
    for (const file of corpus.markdownFiles()) if (markdownCodeMentions(file).length > 0) dependents.add(file.path);
    for (const file of corpus.dataFiles()) if (file.path !== ERRORS_PATH && yamlCodeMentions(file).length > 0) dependents.add(file.path);
  }
  if (selected.has(CODEMAP_PATH) || selected.has(DECLARATION_PATH)) {
    for (const mention of eventNameMentions(corpus)) dependents.add(mention.file);
  }
  for (const file of selected) dependents.delete(file);
  return dependents;
}
