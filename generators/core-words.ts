/** The `count/core-words` regions: the words of the core documents, quoted in prose and kept true. */
import { CORE_DOCUMENTS, folderWordCounts, groupDigits } from '../core/model/index.js';
import { defineGenerator, regionOutputs } from '../core/run/index.js';

const CORE_WORDS_REGION = 'count/core-words';

export default defineGenerator({
  id: 'core-words',
  summary: `the ${CORE_WORDS_REGION} regions, from the word count of ${CORE_DOCUMENTS}*.md`,
  inputs: [CORE_DOCUMENTS],
  followsEveryEdit: true,
  generate(corpus) {
    // Region contents are not counted, so the total does not depend on what this or any generator writes.
    const total = folderWordCounts(corpus).reduce((sum, entry) => sum + entry.words, 0);
    return regionOutputs(corpus, CORE_WORDS_REGION, `**${groupDigits(total)}**`);
  },
});
