import { testRule } from '../../rule-tester.js';

/** A finding of the rule; its data (the parser's own words) stated where this tool words the problem. */
const problem = (messageId: string, file: string, line: number, column: number, words?: string) => ({
  messageId,
  file,
  line,
  column,
  ...(words ? { data: { problem: words } } : {}),
});

testRule('corpus/parse', {
  valid: [
    { name: 'a corpus whose JSON, YAML and markdown parse' },
    { name: 'a JSON schema beside them', files: { 'schemas/v2/fine.schema.json': '{"ok": true}\n' } },
  ],
  invalid: [
    {
      name: 'each file that does not parse, at the parser position: YAML, a trailing comma, a duplicate key, a binary file',
      files: {
        'api/v2/openapi.yaml': 'openapi: 3.1.0\ninfo:\n  title: [unclosed\n  version: 1\n',
        'spec/v2/trailing-comma.json': '{\n  "rows": [\n    { "code": "a", }\n  ]\n}\n',
        'spec/v2/duplicate-key.json': '{\n  "code": "a",\n  "code": "b"\n}\n',
        'schemas/v2/binary.json': '{\u0000\u0001binary',
      },
      errors: [
        problem('syntax', 'api/v2/openapi.yaml', 4, 3),
        problem(
          'syntax',
          'schemas/v2/binary.json',
          1,
          1,
          'binary content in a .json file (a NUL byte); it cannot be read as text',
        ),
        problem(
          'syntax',
          'spec/v2/duplicate-key.json',
          3,
          3,
          'duplicate key "code": an object has this member twice, and JSON parsers keep only one of them, silently; remove or rename one',
        ),
        problem('syntax', 'spec/v2/trailing-comma.json', 3, 20),
      ],
    },
  ],
});
