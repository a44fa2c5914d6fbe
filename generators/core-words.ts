/** The `count/core-words` regions: the words of the core documents, quoted in prose and kept true. */
import { CORE_DOCUMENTS, folderWordCounts, groupDigits, rawWordCount } from '../core/model/index.js';
import { defineGenerator, regionOutputs } from '../core/run/index.js';

export const CORE_WORDS_REGION = 'count/core-words';

export default defineGenerator({
  id: 'core-words',
  summary: `the ${CORE_WORDS_REGION} regions, from the word count of ${CORE_DOCUMENTS}*.md`,
  inputs: [CORE_DOCUMENTS],
  generate(corpus, _report, context) {
    // Counted on the text the documents will have once the generators before this one (it runs after
    // every other, but the stamp) have filled their regions, so one `generate` reaches the fixed point.
    const total = folderWordCounts(corpus).reduce((sum, entry) => {
      const text = context.contentOf(entry.file);
      return sum + (typeof text === 'string' ? rawWordCount(text) : Buffer.isBuffer(text) ? rawWordCount(text.toString('utf8')) : entry.words);
    }, 0);
    // A region's own content counts too; a single grouped number keeps it one word, so the count is a fixed point.
    return regionOutputs(corpus, CORE_WORDS_REGION, `**${groupDigits(total)}**`);
  },
});
