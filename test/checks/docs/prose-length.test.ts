import { doc, words } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const RUNS = 'spec/v2/core/runs.md';
const SPAN = '`OpenWOP-Version: 2.0 and more tokens inside one span`';

testRule('docs/prose-length', {
  valid: [
    { name: 'the base corpus' },
    {
      name: 'a list item at the limit with a nested item, a cell at its limit, a long code block',
      files: { [RUNS]: doc('Runs', [`- ${words(90)}`, '  - a nested item is counted on its own', '', '| Field | Meaning |', '| --- | --- |', `| runId | ${words(40)} |`, '', '```text', words(200), '```'].join('\n')) },
    },
    {
      name: 'an inline code span is one word, as upstream counts it',
      files: { [RUNS]: doc('Runs', [`${words(84)} ${Array.from({ length: 6 }, () => SPAN).join(' ')}`, '', '| Field | Meaning |', '| --- | --- |', `| runId | ${words(36)} ${SPAN} ${SPAN} ${SPAN} ${SPAN} |`].join('\n')) },
    },
    { name: 'generated regions and documents are their generators\'', files: { [RUNS]: doc('Runs', `<!-- generated: t from x; do not edit -->\n${words(120)}\n<!-- /generated: t -->`), 'spec/v2/generated/codes.md': `# Codes\n\n> **Status: Stable.** Generated from \`spec/v2/errors.json\`; do not edit.\n\n${words(100)}\n` } },
  ],
  invalid: [
    {
      name: 'a paragraph, a list item and a table cell over their limits',
      files: { [RUNS]: doc('Runs', [words(91), '', `- ${words(91)}`, '', '| Field | Meaning |', '| --- | --- |', `| runId | ${words(37)} ${SPAN} ${SPAN} ${SPAN} ${SPAN} |`].join('\n')) },
      errors: [
        { messageId: 'too-long', file: RUNS, line: 7, column: 1, data: { what: 'a paragraph', words: 91, limit: 90 } },
        { messageId: 'too-long', file: RUNS, line: 9, column: 1, data: { what: 'a list item', words: 91, limit: 90 } },
        { messageId: 'too-long', file: RUNS, line: 13, column: 9, data: { what: 'a table cell', words: 41, limit: 40 } },
      ],
    },
    {
      name: 'the limits are options',
      files: { [RUNS]: doc('Runs', `${words(41)}\n\n| Field | Meaning |\n| --- | --- |\n| runId | ${words(11)} |`) },
      config: { rules: { 'docs/prose-length': ['error', { maxWords: 40, maxCellWords: 10 }] } },
      errors: [
        { messageId: 'too-long', file: RUNS, line: 7, column: 1, data: { what: 'a paragraph', words: 41, limit: 40 } },
        { messageId: 'too-long', file: RUNS, line: 11, column: 9, data: { what: 'a table cell', words: 11, limit: 10 } },
      ],
    },
  ],
});
