import { CORE_DOCUMENTS, folderWordCounts, groupDigits, Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'docs/core-budget',
  summary: 'The core documents stay under their word budget (counted as `wc -w` counts raw markdown); an overrun names each document with its share',
  severity: 'error',
  messages: {
    'over-budget': '{{folder}} holds {{words}} words, {{over}} over its budget of {{budget}}; by document: {{shares}}',
  },
  options: {
    budget: { type: 'integer', minimum: 1, default: 25000, description: 'the most words the core documents may hold together' },
    folder: { type: 'string', default: CORE_DOCUMENTS, description: 'the folder whose markdown files (not its subfolders) share the budget' },
  },
  run(corpus, report, { options }) {
    const budget = options.budget as number;
    const counts = folderWordCounts(corpus, options.folder as string);
    const total = counts.reduce((sum, entry) => sum + entry.words, 0);
    if (total <= budget) return;
    const ranked = [...counts].sort((a, b) => b.words - a.words || (a.file < b.file ? -1 : 1));
    const largest = ranked[0];
    if (!largest) return;
    const share = (words: number) => `${((words * 100) / total).toFixed(1)}%`;
    const folder = options.folder as string;
    report({
      location: Location.file(largest.file),
      messageId: 'over-budget',
      // The counts as a reader reads them (grouped digits), each document with its share of the total.
      data: {
        folder,
        words: groupDigits(total),
        over: groupDigits(total - budget),
        budget: groupDigits(budget),
        shares: ranked.map((entry) => `${entry.file.slice(folder.length)} ${groupDigits(entry.words)} (${share(entry.words)})`).join(', '),
        largest: largest.file,
      },
      hint: `the largest share is ${largest.file.slice(folder.length)}: move what is not a core obligation to an extension document, or say it in fewer words`,
    });
  },
});
