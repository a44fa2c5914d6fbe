import { defineCheck } from '../../core/run/index.js';
import { documentIndex, Location } from '../../core/model/index.js';
import { relativeUrl, forEachProseText, isGeneratedDocument } from '../../core/markdown/index.js';

/** A file name such as `packs.md` or a path such as `spec/v2/core/packs.md`, standing alone in text. */
const MENTION = /(?<![\w/.@-])((?:[\w.-]+\/)*[\w-][\w.-]*\.md)(?![\w-])/g;

export default defineCheck({
  id: 'links/bare-doc-reference',
  summary: 'A corpus document named in running prose is a relative link, not a bare file name (fixable)',
  severity: 'error',
  fixable: true,
  messages: {
    'bare-reference': '"{{name}}" names a corpus document in prose; make it a link: [{{name}}]({{url}})',
  },
  run(corpus, report) {
    const documents = documentIndex(corpus);
    for (const file of corpus.markdownFiles()) {
      // A generated document's text is its generator's output: a link written into it by hand is
      // overwritten on the next run, and its sources (API descriptions) are not markdown prose.
      if (isGeneratedDocument(file)) continue;
      forEachProseText(file.tree, file.text, (prose) => {
        if (prose.link || prose.inHeading || prose.inOtherConstruct) return;
        const value = prose.node.value;
        if (!value.includes('.md')) return;
        for (const match of value.matchAll(MENTION)) {
          const name = match[1] ?? '';
          const target = documents.resolve(name, file.path);
          if (!target) continue;
          const index = match.index ?? 0;
          const url = relativeUrl(file.path, target);
          const location =
            prose.offset !== undefined
              ? Location.text(file, prose.offset + index, prose.offset + index + name.length)
              : Location.fixed(file.path, {
                  line: prose.node.position?.start.line ?? 1,
                  column: prose.node.position?.start.column ?? 1,
                });
          const finding = {
            location,
            messageId: 'bare-reference',
            data: { name, url },
          };
          // Where the text's offsets are unknown there is nothing to rewrite: the hint then says how to by hand.
          report(
            prose.offset !== undefined
              ? {
                  ...finding,
                  hint: 'run `openwop-spec check --fix` to rewrite it',
                  fix: {
                    start: prose.offset + index,
                    end: prose.offset + index + name.length,
                    text: `[${name}](${url})`,
                  },
                }
              : { ...finding, hint: `write it as [${name}](${url})` },
          );
        }
      });
    }
  },
});
