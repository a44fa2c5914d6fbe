import { testRule } from '../../rule-tester.js';

const A = 'spec/v2/core/a.md';
const OPENAPI = 'api/v2/openapi.yaml';
const DETAILS = '## Details\n';
const marker = (file: string, line: number, text: string) => ({
  messageId: 'conflict-marker',
  file,
  line,
  column: 1,
  endLine: line,
  endColumn: text.length + 1,
  data: { marker: text.slice(0, 7) },
});

testRule('corpus/conflict-marker', {
  valid: [
    { name: 'a corpus without conflicts' },
    {
      name: 'longer rules, markers quoted, mid-line or indented are not conflicts',
      edits: [
        {
          file: A,
          find: DETAILS,
          replace: `========\n\nA line with <<<<<<< inside.\n\n    ======= indented\n\n${DETAILS}`,
        },
      ],
      files: { 'spec/v2/quoted.json': '{"a": "<<<<<<< not at line start"}\n' },
    },
  ],
  invalid: [
    {
      name: 'each marker line of a conflict in markdown and in YAML, the diff3 base marker included: at the line',
      edits: [
        {
          file: A,
          find: DETAILS,
          replace: `<<<<<<< HEAD\nours\n||||||| base\nbefore\n=======\ntheirs\n>>>>>>> feature\n\n${DETAILS}`,
        },
        { file: OPENAPI, find: 'info:\n', replace: 'info:\n<<<<<<< HEAD\n' },
      ],
      errors: [
        marker(OPENAPI, 3, '<<<<<<< HEAD'),
        marker(A, 12, '<<<<<<< HEAD'),
        marker(A, 14, '||||||| base'),
        marker(A, 16, '======='),
        marker(A, 18, '>>>>>>> feature'),
      ],
    },
    {
      name: 'a marker line that ends in CRLF: the carriage return is not part of it',
      edits: [{ file: A, find: DETAILS, replace: `>>>>>>> theirs\r\n\n${DETAILS}` }],
      errors: [marker(A, 12, '>>>>>>> theirs')],
    },
  ],
});
