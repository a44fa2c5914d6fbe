import { defineCheck } from '../../core/run/index.js';
import { resolveLink } from '../../core/markdown/index.js';
import { dataStringLinks, type Corpus, type Location } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';

export default defineCheck({
  id: 'links/file',
  summary: 'Every relative link, image and link definition in corpus markdown (and in the strings of JSON/YAML documents) names a file that exists inside the root',
  severity: 'error',
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      for (const link of file.links) {
        checkLink(corpus, file.path, link.kind, link.url, () => ({ line: link.line, column: link.column, endLine: link.endLine, endColumn: link.endColumn }), report);
      }
    }
    for (const file of corpus.dataFiles()) {
      for (const link of dataStringLinks(file)) checkLink(corpus, file.path, 'link', link.url, link.place, report);
    }
  },
});

function checkLink(corpus: Corpus, from: string, kind: string, url: string, place: () => Location, report: Report): void {
  const target = resolveLink(from, url);
  if (target.kind !== 'local') return;
  if (target.escapesRoot) {
    report({ file: from, ...place(), messageId: 'escapes-root', data: { kind, url }, message: `${kind} target "${url}" climbs out of the corpus root`, hint: 'link only to files inside the repository, or use an absolute https URL' });
  } else if (!corpus.exists(target.target)) {
    report({ file: from, ...place(), messageId: 'missing-target', data: { kind, url, target: target.target }, message: `${kind} target "${url}" does not exist (resolved to ${target.target})`, hint: 'fix the path; it is relative to the linking file' });
  }
}
