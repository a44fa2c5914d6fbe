import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/parse',
  summary: 'Every corpus file parses as what its name says (JSON, YAML, UTF-8 text), with no duplicate keys',
  severity: 'error',
  // The parser words the problem; the id says which kind it is (the cascade decides by it).
  messages: {
    syntax: '{{problem}}',
    refused: '{{problem}}',
    encoding: '{{problem}}',
  },
  run(corpus, report) {
    for (const file of corpus.all()) {
      for (const problem of file.problems) {
        report({
          file: file.path,
          line: problem.line,
          column: problem.column,
          messageId: problem.kind ?? 'syntax',
          data: { problem: problem.message },
          hint: 'the other gates skip this file until it parses',
        });
      }
    }
  },
});
