import { defineCheck } from '../../core/run/index.js';
import { resolveLink } from '../../core/markdown/index.js';

export default defineCheck({
  id: 'links/file',
  summary: 'Every relative link, image and link definition in corpus markdown names a file that exists inside the root',
  severity: 'error',
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      for (const link of file.links) {
        const target = resolveLink(file.path, link.url);
        if (target.kind !== 'local') continue;
        const at = { file: file.path, line: link.line, column: link.column, endLine: link.endLine, endColumn: link.endColumn };
        if (target.escapesRoot) {
          report({ ...at, message: `${link.kind} target "${link.url}" climbs out of the corpus root`, hint: 'link only to files inside the repository, or use an absolute https URL' });
        } else if (!corpus.exists(target.target)) {
          report({ ...at, message: `${link.kind} target "${link.url}" does not exist (resolved to ${target.target})`, hint: 'fix the path; it is relative to the linking file' });
        }
      }
    }
  },
});
