import { COUNT_MESSAGES, registryCountFindings } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/** Counts of the declaration in prose and in the strings of JSON/YAML documents ("Metadata keys (17)", "Core families (72)") are its sizes. */
export default defineCheck({
  id: 'declaration/counts',
  summary:
    'A count of the declaration written in prose ("Metadata keys (17)", "Core families (72)", "N core families") is the size of spec/v2/declaration.json',
  description:
    'A heading that counts what it heads is held to the list, table or enumeration under it too. Counts are read from the mention index, in prose and in the strings of JSON and YAML documents (a schema description that says "17 metadata keys"); a count of a list at hand ("the 3 metadata keys below") is not the declaration\'s.',
  severity: 'error',
  messages: { ...COUNT_MESSAGES },
  run(corpus, report) {
    for (const registry of ['metadata', 'core-families', 'ext-families'] as const) {
      for (const { count: _count, ...finding } of registryCountFindings(corpus, registry)) report(finding);
    }
  },
});
