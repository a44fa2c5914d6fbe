import type { Corpus } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import { resolveLink } from '../../core/markdown/index.js';
import { closest, type Finding } from '../../core/output/index.js';
import { dataStringLinks, hasPointer, Location } from '../../core/model/index.js';

/** GitHub line anchors (#L10, #L10-L20) address lines, not headings. */
const LINE_ANCHOR = /^L\d+(?:C\d+)?(?:-L\d+(?:C\d+)?)?$/;

export default defineCheck({
  id: 'links/anchor',
  summary:
    'A link fragment (in markdown, or in the strings of a JSON/YAML document) names a heading (or explicit id) of its target, or a JSON pointer that exists in a JSON/YAML target',
  severity: 'error',
  messages: {
    'no-heading': '{{target}} has no heading with anchor #{{fragment}}',
    'no-pointer': '{{target}} has nothing at JSON pointer #{{pointer}}',
  },
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      for (const link of file.links) {
        const target = resolveLink(file.path, link.url);
        if (target.kind === 'external') continue;
        const fragment = target.fragment;
        if (fragment === undefined || fragment === '' || LINE_ANCHOR.test(fragment)) continue;
        const targetPath = target.kind === 'same-file' ? file.path : target.target;
        if (target.kind === 'local' && target.escapesRoot) continue;
        const problem = fragmentProblem(corpus, targetPath, fragment);
        if (problem) {
          report({ location: Location.fixed(file.path, link), ...problem });
        }
      }
    }
    for (const file of corpus.dataFiles()) {
      for (const link of dataStringLinks(file)) {
        const target = resolveLink(file.path, link.url);
        if (target.kind !== 'local' || target.escapesRoot || !target.fragment || LINE_ANCHOR.test(target.fragment))
          continue;
        const problem = fragmentProblem(corpus, target.target, target.fragment);
        if (problem) report({ location: link.location, ...problem });
      }
    }
  },
});

function fragmentProblem(
  corpus: Corpus,
  targetPath: string,
  fragment: string,
): Pick<Finding, 'messageId' | 'data' | 'hint'> | undefined {
  const target = corpus.get(targetPath);
  if (!target) return undefined; // links/file reports a missing target
  if (target.kind === 'markdown') {
    if (target.anchors.has(fragment)) return undefined;
    const nearest = closest(fragment, target.anchors);
    return {
      messageId: 'no-heading',
      data: { target: targetPath, fragment },
      hint: nearest ? `did you mean #${nearest}?` : 'link to a heading that exists, or restore the heading',
    };
  }
  if ((target.kind === 'json' || target.kind === 'yaml') && fragment.startsWith('/')) {
    if (target.problems.length > 0) return undefined; // corpus/parse reports it
    if (hasPointer(target.value, fragment)) return undefined;
    return {
      messageId: 'no-pointer',
      data: { target: targetPath, pointer: fragment },
      hint: 'check the pointer against the document',
    };
  }
  return undefined;
}
