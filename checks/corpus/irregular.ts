import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/irregular',
  summary: 'Every corpus entry is a regular file inside the root: no symbolic link, device or pipe is read, and none passes unsaid',
  severity: 'error',
  run(corpus, report) {
    for (const file of corpus.irregular) {
      const kind = corpus.irregularKinds.get(file) ?? 'not a regular file';
      report({
        file,
        line: 1,
        column: 1,
        messageId: 'not-regular',
        data: { kind },
        message: `${file} is ${kind}; the corpus is read from regular files inside the root only, so it is not read, and nothing it holds is checked or shipped`,
        hint: 'replace it with the file itself (a link that points out of the root could make a check pass on anything)',
      });
    }
  },
});
