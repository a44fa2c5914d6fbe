import { defineCheck } from '../../core/run/index.js';
import { resolveLink } from '../../core/markdown/index.js';
import { dataStringLinks, defineService, foldedName, Location, type Corpus } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';

export default defineCheck({
  id: 'links/file',
  summary:
    'Every relative link, image and link definition in corpus markdown (and in the strings of JSON/YAML documents) names a file that exists inside the root',
  severity: 'error',
  messages: {
    'escapes-root': '{{kind}} target "{{url}}" climbs out of the corpus root',
    'missing-target': '{{kind}} target "{{url}}" does not exist (resolved to {{target}})',
    'near-name':
      '{{kind}} target "{{url}}" does not exist (resolved to {{target}}); {{file}} differs from it only in {{how}}, which one file system folds and another does not',
  },
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      for (const link of file.links) {
        checkLink(corpus, file.path, link.kind, link.url, () => Location.fixed(file.path, link), report);
      }
    }
    for (const file of corpus.dataFiles()) {
      for (const link of dataStringLinks(file))
        checkLink(corpus, file.path, 'link', link.url, () => link.location, report);
    }
  },
});

function checkLink(
  corpus: Corpus,
  from: string,
  kind: string,
  url: string,
  place: () => Location,
  report: Report,
): void {
  const target = resolveLink(from, url);
  if (target.kind !== 'local') return;
  if (target.escapesRoot) {
    report({
      location: place(),
      messageId: 'escapes-root',
      data: { kind, url },
      hint: 'link only to files inside the repository, or use an absolute https URL',
    });
  } else if (!corpus.exists(target.target)) {
    const near = nearlyNamed(corpus, target.target);
    if (near) {
      report({
        location: place(),
        messageId: 'near-name',
        data: { kind, url, target: target.target, file: near.file, how: near.how },
        hint: `write the name as the file has it: ${near.file}`,
      });
      return;
    }
    report({
      location: place(),
      messageId: 'missing-target',
      data: { kind, url, target: target.target },
      hint: 'fix the path; it is relative to the linking file',
    });
  }
}

/** Corpus files by their NFC form and by their case-folded NFC form, per corpus (made on the first broken link). */
const FoldedNames = defineService('corpus files by folded name', (corpus: Corpus) => {
  const nfc = new Map<string, string>();
  const caseless = new Map<string, string>();
  for (const file of corpus.files.keys()) {
    const form = file.normalize('NFC');
    if (!nfc.has(form)) nfc.set(form, file);
    if (!caseless.has(foldedName(file))) caseless.set(foldedName(file), file);
  }
  return { nfc, caseless };
});

/** The corpus file whose name differs from `target` only in Unicode normalization, or only in case, if any. */
function nearlyNamed(corpus: Corpus, target: string): { file: string; how: string } | undefined {
  const maps = corpus.service(FoldedNames);
  const nfc = target.normalize('NFC');
  const byForm = maps.nfc.get(nfc);
  if (byForm !== undefined) return { file: byForm, how: 'Unicode normalization (NFC/NFD)' };
  const byCase = maps.caseless.get(foldedName(target));
  return byCase !== undefined ? { file: byCase, how: 'case' } : undefined;
}
