import { testRule } from '../../rule-tester.js';

const RULE = 'schemas/compile';

const head = (file: string) => `"$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$id": "https://openwop.dev/${file}",\n  "title": "t",\n  "description": "d",`;
const schema = (file: string, body: string) => `{\n  ${head(file)}\n${body}\n}\n`;

const CYCLES = schema(
  'schemas/v2/cycle.schema.json',
  [
    '  "$ref": "#/$defs/a",', // 6
    '  "$defs": {', // 7
    '    "a": { "$ref": "#/$defs/b" },', // 8
    '    "b": { "$ref": "#/$defs/a" },', // 9
    '    "c": { "allOf": [{ "$ref": "#/$defs/d" }] },', // 10
    '    "d": { "anyOf": [{ "type": "string" }, { "not": { "$ref": "#/$defs/c" } }] },', // 11
    '    "tree": { "type": "object", "properties": { "children": { "type": "array", "items": { "$ref": "#/$defs/tree" } } } }', // 12
    '  }',
  ].join('\n'),
);

const DEFECTS: Record<string, string> = {
  'schemas/v2/wrong-id.schema.json': schema('schemas/v2/other.schema.json', '  "type": "object"'),
  'schemas/v2/bare.schema.json': '{\n  "type": "object"\n}\n',
  'schemas/v2/draft7.schema.json': `{\n  "$schema": "http://json-schema.org/draft-07/schema#",\n  "$id": "https://openwop.dev/schemas/v2/draft7.schema.json",\n  "type": "string"\n}\n`,
  'schemas/v2/refs.schema.json': schema(
    'schemas/v2/refs.schema.json',
    ['  "type": "object",', '  "properties": {', '    "a": { "$ref": "missing.schema.json#/$defs/x" },', '    "b": { "$ref": "#/$defs/nope" },', '    "c": { "$ref": "wrong-id.schema.json" }', '  }'].join('\n'),
  ),
  'schemas/v2/strict.schema.json': schema(
    'schemas/v2/strict.schema.json',
    ['  "type": "object",', '  "$defs": {', '    "loose": {', '      "properties": { "x": { "type": "string" } }', '    }', '  }'].join('\n'),
  ),
};

const wrongId = (file: string, line: number, id: string, expected: string) => ({ messageId: 'wrong-id', file, line, column: 10, data: { id: JSON.stringify(id), expected, base: 'https://openwop.dev/' } });

/** Sound schemas: a kind file, and a schema that $refs it across files, with a recursion under items and an unused definition. */
const SOUND = {
  'schemas/v2/ids.schema.json': schema('schemas/v2/ids.schema.json', '  "$defs": { "runId": { "type": "string", "pattern": "^r-" } }'),
  'schemas/v2/run.schema.json': schema(
    'schemas/v2/run.schema.json',
    [
      '  "type": "object",',
      '  "additionalProperties": false,',
      '  "properties": { "runId": { "$ref": "ids.schema.json#/$defs/runId" }, "children": { "type": "array", "items": { "$ref": "#" } } },',
      '  "$defs": { "spare": { "type": "object", "properties": { "a": { "type": "string" } } } }',
    ].join('\n'),
  ),
};

const UPSTREAM_LAYOUT = { layout: { schemaIds: { 'schemas/v2/': 'https://openwop.dev/spec/v2/', 'spec/v2/': 'https://openwop.dev/spec/v2/' } } };
const schemaWithBase = (base: string, file: string, body: string) => `{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$id": "${base}${file}",\n${body}\n}\n`;
const UPSTREAM_IDS = {
  'schemas/v2/ids.schema.json': schemaWithBase('https://openwop.dev/spec/v2/', 'ids.schema.json', '  "$defs": { "runId": { "type": "string" } }'),
  'schemas/v2/run.schema.json': schemaWithBase('https://openwop.dev/spec/v2/', 'run.schema.json', '  "type": "object",\n  "properties": { "runId": { "$ref": "ids.schema.json#/$defs/runId" } }'),
};

const FRAGMENT = '{\n  "$comment": "a facet",\n  "properties": { "modes": { "type": "array" } },\n  "required": ["modes"]\n}\n';
const CONDITIONAL = schema(
  'schemas/v2/ref.schema.json',
  '  "type": "object",\n  "properties": { "version": { "type": "string" }, "channel": { "type": "string" }, "role": { "type": "string" }, "speakerId": { "type": "string" } },\n  "not": { "required": ["version", "channel"] },\n  "if": { "properties": { "role": { "const": "agent" } }, "required": ["role"] },\n  "then": { "required": ["speakerId"] }',
);

testRule(RULE, {
  valid: [
    { name: 'the base corpus: no schema' },
    { name: 'sound schemas: $refs across files, recursion under items, an unused definition that compiles', files: SOUND },
    { name: 'takes the $id base from layout.schemaIds, and resolves relative $refs against it', files: UPSTREAM_IDS, config: UPSTREAM_LAYOUT },
    { name: 'accepts a facet fragment (no $schema, no $id, composed under an object) in spec/v2/facets/', files: { 'spec/v2/facets/replay.schema.json': FRAGMENT } },
    { name: 'accepts `required` in `not` and `then` naming properties the enclosing schema declares', files: { 'schemas/v2/ref.schema.json': CONDITIONAL } },
  ],
  invalid: [
    {
      name: 'fires at a wrong or missing $id and $schema, each $ref that names nothing, and each strict-mode error; fixes the wrong $id',
      files: DEFECTS,
      errors: [
        { messageId: 'no-dialect', file: 'schemas/v2/bare.schema.json', line: 1, column: 1 },
        { messageId: 'no-id', file: 'schemas/v2/bare.schema.json', line: 1, column: 1, data: { expected: 'https://openwop.dev/schemas/v2/bare.schema.json' } },
        { messageId: 'other-dialect', file: 'schemas/v2/draft7.schema.json', line: 2, column: 14, data: { dialect: '"http://json-schema.org/draft-07/schema#"' } },
        {
          messageId: 'unresolved-ref',
          file: 'schemas/v2/refs.schema.json',
          line: 8,
          column: 20,
          data: { keyword: '$ref', ref: '"missing.schema.json#/$defs/x"', reason: 'https://openwop.dev/schemas/v2/missing.schema.json is not a schema of this corpus' },
        },
        { messageId: 'unresolved-ref', file: 'schemas/v2/refs.schema.json', line: 9, column: 20, data: { keyword: '$ref', ref: '"#/$defs/nope"', reason: 'schemas/v2/refs.schema.json has nothing at #/$defs/nope' } },
        { messageId: 'strict-mode', file: 'schemas/v2/strict.schema.json', line: 8, column: 5, data: { problem: 'missing type "object" for keyword "properties" (strictTypes)' } },
        wrongId('schemas/v2/wrong-id.schema.json', 3, 'https://openwop.dev/schemas/v2/other.schema.json', 'https://openwop.dev/schemas/v2/wrong-id.schema.json'),
      ],
      output: { 'schemas/v2/wrong-id.schema.json': schema('schemas/v2/wrong-id.schema.json', '  "type": "object"') },
    },
    {
      name: 'reports a $ref cycle that consumes nothing, once, instead of recursing; recursion under items is fine',
      files: { 'schemas/v2/cycle.schema.json': CYCLES },
      errors: [
        { messageId: 'ref-cycle', file: 'schemas/v2/cycle.schema.json', line: 8, column: 20, data: { chain: '#/$defs/a -> #/$defs/b -> #/$defs/a' } },
        { messageId: 'ref-cycle', file: 'schemas/v2/cycle.schema.json', line: 10, column: 32, data: { chain: '#/$defs/c/allOf/0 -> #/$defs/d/anyOf/1/not -> #/$defs/c/allOf/0' } },
      ],
      output: null,
    },
    {
      name: 'finds a cycle that runs through two files',
      files: {
        'schemas/v2/one.schema.json': schema('schemas/v2/one.schema.json', '  "allOf": [{ "$ref": "two.schema.json" }]'),
        'schemas/v2/two.schema.json': schema('schemas/v2/two.schema.json', '  "oneOf": [{ "$ref": "one.schema.json" }]'),
      },
      errors: [{ messageId: 'ref-cycle', file: 'schemas/v2/one.schema.json', line: 6, column: 23, data: { chain: '#/allOf/0 -> schemas/v2/two.schema.json#/oneOf/0 -> #/allOf/0' } }],
      output: null,
    },
    {
      name: 'reports two schemas that claim one $id, and fixes the one whose path is another',
      files: { 'schemas/v2/a.schema.json': schema('schemas/v2/a.schema.json', '  "type": "string"'), 'schemas/v2/b.schema.json': schema('schemas/v2/a.schema.json', '  "type": "string"') },
      errors: [
        wrongId('schemas/v2/b.schema.json', 3, 'https://openwop.dev/schemas/v2/a.schema.json', 'https://openwop.dev/schemas/v2/b.schema.json'),
        { messageId: 'cannot-register', file: 'schemas/v2/b.schema.json', line: 3, column: 10, data: { problem: '$id https://openwop.dev/schemas/v2/a.schema.json is also the $id of schemas/v2/a.schema.json' } },
      ],
      output: { 'schemas/v2/b.schema.json': schema('schemas/v2/b.schema.json', '  "type": "string"') },
    },
    {
      name: 'without the layout, the same $ids are wrong ones, each fixed to its path under the default base',
      files: UPSTREAM_IDS,
      errors: [
        wrongId('schemas/v2/ids.schema.json', 3, 'https://openwop.dev/spec/v2/ids.schema.json', 'https://openwop.dev/schemas/v2/ids.schema.json'),
        wrongId('schemas/v2/run.schema.json', 3, 'https://openwop.dev/spec/v2/run.schema.json', 'https://openwop.dev/schemas/v2/run.schema.json'),
      ],
      output: {
        'schemas/v2/ids.schema.json': schemaWithBase('https://openwop.dev/schemas/v2/', 'ids.schema.json', '  "$defs": { "runId": { "type": "string" } }'),
        'schemas/v2/run.schema.json': schemaWithBase('https://openwop.dev/schemas/v2/', 'run.schema.json', '  "type": "object",\n  "properties": { "runId": { "$ref": "ids.schema.json#/$defs/runId" } }'),
      },
    },
    {
      name: 'under the layout, an $id under the default base is wrong, and said to be off the base the layout gives its folder',
      files: { ...UPSTREAM_IDS, 'schemas/v2/run.schema.json': schemaWithBase('https://openwop.dev/schemas/v2/', 'run.schema.json', '  "type": "object"') },
      config: UPSTREAM_LAYOUT,
      errors: [{ messageId: 'wrong-id-in-layout', file: 'schemas/v2/run.schema.json', line: 3, column: 10, data: { id: '"https://openwop.dev/schemas/v2/run.schema.json"', expected: 'https://openwop.dev/spec/v2/run.schema.json' } }],
      output: { 'schemas/v2/run.schema.json': schemaWithBase('https://openwop.dev/spec/v2/', 'run.schema.json', '  "type": "object"') },
    },
    {
      name: 'holds a facet fragment outside spec/v2/facets/ to what a schema is',
      files: { 'schemas/v2/replay.schema.json': FRAGMENT },
      errors: [
        { messageId: 'strict-mode', file: 'schemas/v2/replay.schema.json', line: 1, column: 1, data: { problem: 'missing type "object" for keyword "required" (strictTypes)' } },
        { messageId: 'no-dialect', file: 'schemas/v2/replay.schema.json', line: 1, column: 1 },
        { messageId: 'no-id', file: 'schemas/v2/replay.schema.json', line: 1, column: 1, data: { expected: 'https://openwop.dev/schemas/v2/replay.schema.json' } },
      ],
      output: null,
    },
    {
      name: 'still resolves the $refs of a facet fragment',
      files: { 'spec/v2/facets/a.schema.json': '{\n  "properties": { "a": { "$ref": "#/$defs/none" } }\n}\n' },
      errors: [{ messageId: 'unresolved-ref', file: 'spec/v2/facets/a.schema.json', line: 2, column: 34, data: { keyword: '$ref', ref: '"#/$defs/none"', reason: 'spec/v2/facets/a.schema.json has nothing at #/$defs/none' } }],
      output: null,
    },
    {
      name: 'fires at a schema file that holds no object',
      files: { 'schemas/v2/list.schema.json': '[]\n' },
      errors: [{ messageId: 'not-an-object', file: 'schemas/v2/list.schema.json', line: 1, column: 1 }],
      output: null,
    },
  ],
});
