import { missingRequired } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/required',
  summary: 'Every file the config requires (the registries, the API documents) is in the corpus',
  severity: 'error',
  run(corpus, report) {
    for (const problem of missingRequired(corpus)) report({ ...problem, messageId: 'missing', data: { file: problem.file } });
  },
});
