import { defineCheck } from '../../core/run/index.js';

const MARKER = /^(?:<{7} |>{7} |={7}$|\|{7} )/;

export default defineCheck({
  id: 'corpus/conflict-marker',
  summary: 'No merge-conflict marker (<<<<<<<, =======, >>>>>>>) is left in any text file',
  severity: 'error',
  messages: {
    'conflict-marker': 'merge-conflict marker "{{marker}}" left in the file',
  },
  run(corpus, report) {
    for (const file of corpus.textFiles()) {
      // Cheap pre-filter: almost no file contains a run of seven marker characters.
      if (!/(?:<{7}|={7}|>{7}|\|{7})/.test(file.text)) continue;
      const lines = file.text.split('\n');
      lines.forEach((raw, index) => {
        const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
        if (MARKER.test(line)) {
          report({
            file: file.path,
            line: index + 1,
            column: 1,
            endLine: index + 1,
            endColumn: line.length + 1,
            messageId: 'conflict-marker',
            data: { marker: line.slice(0, 7) },
            hint: 'resolve the conflict and delete the marker lines',
          });
        }
      });
    }
  },
});
