import { DECLARATION_PATH, isObject, reportRegistryCounts } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/** Counts of the declaration in prose ("Metadata keys (17)", "Core families (72)") are its sizes. */
export default defineCheck({
  id: 'declaration/counts',
  summary: 'A count of the declaration written in prose ("Metadata keys (17)", "Core families (72)", "N core families") is the size of spec/v2/declaration.json',
  description: 'A heading that counts what it heads is held to the list, table or enumeration under it too.',
  severity: 'error',
  // Worded by core/registries (count-wrong, heading-count-differs), which quotes the phrase as the corpus writes it.
  run(corpus, report) {
    const value = corpus.data(DECLARATION_PATH)?.value;
    if (!isObject(value)) return;
    const families = Array.isArray(value.families) ? value.families.filter(isObject) : [];
    const sizes = [
      ['metadata', Array.isArray(value.metadata) ? value.metadata.length : isObject(value.metadata) ? Object.keys(value.metadata).length : undefined, 'metadata keys'],
      ['core-families', families.filter((family) => family.anchor === 'core').length, 'core families'],
      ['ext-families', families.filter((family) => family.anchor === 'ext').length, 'extension families'],
    ] as const;
    for (const file of corpus.markdownFiles()) {
      for (const [registry, size, what] of sizes) if (size !== undefined) reportRegistryCounts(file, registry, size, `the ${what} of ${DECLARATION_PATH}`, report);
    }
  },
});
