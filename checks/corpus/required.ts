import { missingRequired } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/required',
  summary: 'Every file the config requires (the registries, the API documents) is in the corpus',
  severity: 'error',
  run(corpus, report) {
    // The data names the missing file; the finding may stand at the config entry that requires it.
    for (const { required, ...problem } of missingRequired(corpus)) report({ ...problem, messageId: 'missing', data: { file: required } });
  },
});
