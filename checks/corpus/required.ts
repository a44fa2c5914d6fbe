import { missingRequired, REQUIRED_MESSAGE } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/required',
  summary: 'Every file the config requires (the registries, the API documents) is in the corpus',
  severity: 'error',
  // One template with the run's own report of a required file no generator will write.
  messages: { missing: REQUIRED_MESSAGE },
  run(corpus, report) {
    // The data names the missing file; the finding may stand at the config entry that requires it.
    for (const { required, reason, why, message: _worded, ...problem } of missingRequired(corpus))
      report({ ...problem, messageId: 'missing', data: { file: required, reason, why } });
  },
});
