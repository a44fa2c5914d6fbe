import { testRule } from '../../rule-tester.js';

const RULE = 'docs/examples';
const X = 'spec/v2/core/x.md';
const Y = 'spec/v2/core/y.md';
const THING = 'schemas/v2/thing.schema.json';

const SCHEMA = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://openwop.dev/schemas/v2/thing.schema.json',
  title: 'Thing',
  description: 'A fixture schema.',
  type: 'object',
  additionalProperties: false,
  required: ['name'],
  properties: { name: { type: 'string' }, size: { type: 'integer' } },
  $defs: { Part: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string' } } } },
});

/** A schema outside schemas/v2/ whose subschema an example names by pointer. */
const LANE = JSON.stringify({
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://openwop.dev/spec/v2/lanes.schema.json',
  type: 'object',
  additionalProperties: false,
  $defs: { lane: { type: 'object', additionalProperties: false, required: ['kind'], properties: { kind: { enum: ['a', 'b'] } } } },
});

/** A schema that does not compile in strict mode: `properties` with no object type. */
const LOOSE = JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/schemas/v2/loose.schema.json', properties: { x: { type: 'string' } } });

const fence = '```';
const DEFECTS = [
  '# A', '', // 1-2
  `<!-- example: ${THING} -->`, // 3
  `${fence}json`, '{', '  "name": "ok",', '  "size": "big"', '}', fence, '', // 4-10
  '- an item:', '', // 11-12
  `  <!-- example: ${THING}#/$defs/Part -->`, // 13
  `  ${fence}json`, '  { "id": 1 }', `  ${fence}`, '', // 14-17
  `<!-- example: ${THING} -->`, // 18
  `${fence}jsonc`, '{ "name": "x", … }', fence, '', // 19-22
  `<!-- example: ${THING} -->`, // 23
  `${fence}jsonc`, '{', '  // the only required member', '  "name": "x // not a comment",', '  "extra": true,', '}', fence, '', // 24-31
  `${fence}json`, '{ "unannotated": true }', fence, '', // 32-35
  '<!-- example: schemas/v2/nope.schema.json -->', // 36
  `${fence}json`, '{}', fence, '', // 37-40
  `<!-- example: ${THING}#/$defs/Nope -->`, // 41
  `${fence}json`, '{}', fence, '', // 42-45
  `<!-- example: ${THING} -->`, // 46
  `${fence}yaml`, 'name: 3', fence, '', // 47-50
  `<!-- example: ${THING} -->`, // 51
  `${fence}json`, '{ "name": "x", }', fence, '', // 52-55
  `<!-- example: ${THING} -->`, // 56
  `${fence}text`, 'hello', fence, '', // 57-60
  `<!-- example: ${THING} -->`, '', // 61-62
  'A paragraph, not a fence.', // 63
  '',
].join('\n');

const GOOD = [
  '# A',
  '',
  `<!-- example: ${THING} -->`,
  `${fence}json`,
  '{ "name": "ok", "size": 3 }',
  fence,
  '',
  `<!-- example: ${THING}#/$defs/Part -->`,
  `${fence}jsonc`,
  '{ "id": "p1", /* a comment */ }',
  fence,
  '',
  `<!-- example: ${THING} -->`,
  `${fence}yaml`,
  'name: ok',
  fence,
  '',
  `${fence}jsonc`,
  '{ "sketch": … }',
  fence,
  '',
].join('\n');

const PLAIN = ['# A', '', `${fence}json`, '{ "unannotated": true }', fence, ''].join('\n');
const annotated = (target: string, example: string): string => ['# A', '', `<!-- example: ${target} -->`, `${fence}json`, example, fence, ''].join('\n');

const invalid = (line: number, column: number, target: string, error: string) => ({ messageId: 'invalid', file: X, line, column, data: { target, error } });

testRule(RULE, {
  valid: [
    { name: 'the base corpus: no example annotated' },
    { name: 'examples that match, in json, jsonc and yaml, and an unannotated sketch', files: { [THING]: SCHEMA, [X]: GOOD } },
    { name: 'an unannotated json block in a corpus that annotates no example', files: { [THING]: SCHEMA, [X]: PLAIN } },
    { name: 'an example of a subschema of a schema outside schemas/v2/', files: { 'spec/v2/lanes.schema.json': LANE, [X]: annotated('spec/v2/lanes.schema.json#/$defs/lane', '{ "kind": "a" }') } },
  ],
  invalid: [
    {
      name: 'reports each failure at the line inside the block, and each bad annotation at the annotation; an elided jsonc sketch is skipped',
      files: { [THING]: SCHEMA, [X]: DEFECTS },
      errors: [
        invalid(7, 3, THING, '/size: must be integer'),
        invalid(15, 5, `${THING}#/$defs/Part`, '/id: must be string'),
        invalid(28, 3, THING, '(root): property "extra" is not allowed'),
        { messageId: 'unannotated', file: X, line: 32, column: 1, severity: 'warning' },
        { messageId: 'unknown-schema', file: X, line: 36, column: 1, data: { target: 'schemas/v2/nope.schema.json' } },
        { messageId: 'no-pointer', file: X, line: 41, column: 1, data: { schema: THING, pointer: '/$defs/Nope' } },
        invalid(48, 1, THING, '/name: must be string'),
        { messageId: 'unparsable', file: X, line: 53, column: 16, data: { lang: 'json', problem: 'invalid JSON: Expected double-quoted property name' } },
        { messageId: 'not-data', file: X, line: 56, column: 1, data: { lang: 'text' } },
        { messageId: 'no-block', file: X, line: 61, column: 1 },
      ],
    },
    {
      name: 'warns of an unannotated json block in a corpus that annotates its examples elsewhere',
      files: { [THING]: SCHEMA, [X]: PLAIN, [Y]: GOOD },
      errors: [{ messageId: 'unannotated', file: X, line: 3, column: 1, severity: 'warning' }],
    },
    {
      name: 'holds an example of a subschema outside schemas/v2/ to it',
      files: { 'spec/v2/lanes.schema.json': LANE, [X]: annotated('spec/v2/lanes.schema.json#/$defs/lane', '{ "kind": "c" }') },
      errors: [invalid(5, 3, 'spec/v2/lanes.schema.json#/$defs/lane', '/kind: must be one of "a", "b"')],
    },
    {
      name: 'says an example cannot be checked against a schema that does not compile',
      files: { 'schemas/v2/loose.schema.json': LOOSE, [X]: annotated('schemas/v2/loose.schema.json', '{ "x": "y" }') },
      errors: [{ messageId: 'schema-does-not-compile', file: X, line: 3, column: 1, data: { target: 'schemas/v2/loose.schema.json', problem: 'strict mode: missing type "object" for keyword "properties" at "https://openwop.dev/schemas/v2/loose.schema.json#" (strictTypes)' } }],
    },
  ],
});
