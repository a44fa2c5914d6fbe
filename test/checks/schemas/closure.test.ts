import { jsonText } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const RULE = 'schemas/closure';


const DECLARATION = jsonText({
  extensionsKeyPattern: '^[a-z]+\\.[a-z]+$',
  families: [{ key: 'auth', anchor: 'core' }, { key: 'old', anchor: 'deleted' }],
});
const DECLARATION_SCHEMA = jsonText({ properties: { extensions: { propertyNames: { pattern: '^[a-z]+$' } } } });

/** Schemas that say their openness, a mixin decided by its user, the vendor grammar, and a capability record without `supported`. */
const GOOD = {
  'spec/v2/declaration.json': DECLARATION,
  'spec/v2/declaration.schema.json': DECLARATION_SCHEMA,
  'schemas/v2/thing.schema.json': jsonText({
    $id: 'https://openwop.dev/schemas/v2/thing.schema.json',
    type: 'object',
    additionalProperties: false,
    properties: {
      bag: { type: 'object', additionalProperties: true },
      vendor: { type: 'object', additionalProperties: false, patternProperties: { '^[a-z]+\\.[a-z]+$': {} } },
      byOrg: { type: 'object', additionalProperties: false, patternProperties: { '^[a-z]+$': {} } },
      anything: { type: ['object', 'array', 'string'] },
      level: { type: 'object', $ref: '#/$defs/fields', unevaluatedProperties: false },
      derived: { type: 'object', $ref: '#/$defs/closed', properties: { kind: { const: 'a' } } },
    },
    allOf: [{ if: { properties: { bag: { type: 'object' } } }, then: { properties: { vendor: { type: 'object' } } } }],
    $defs: {
      fields: { type: 'object', properties: { name: { type: 'string' } } },
      closed: { type: 'object', additionalProperties: false, properties: { kind: { type: 'string' } } },
      mixed: { type: 'object', unevaluatedProperties: false, allOf: [{ type: 'object', properties: { a: {} } }] },
    },
  }),
  'schemas/v2/capabilities.schema.json': jsonText({
    $id: 'https://openwop.dev/schemas/v2/capabilities.schema.json',
    type: 'object',
    additionalProperties: false,
    properties: { auth: { type: 'object', additionalProperties: false, properties: { lanes: {} } } },
  }),
  'spec/v2/facets/auth.schema.json': jsonText({ properties: { lanes: {} } }),
};

const OPEN = {
  ...GOOD,
  'schemas/v2/open.schema.json': jsonText({
    $id: 'https://openwop.dev/schemas/v2/open.schema.json',
    type: 'object',
    additionalProperties: false,
    properties: { loose: { type: 'object', properties: { a: {} } }, keyed: { type: 'object', additionalProperties: false, patternProperties: { '^x-': {} } } },
  }),
  'schemas/v2/capabilities.schema.json': jsonText({
    $id: 'https://openwop.dev/schemas/v2/capabilities.schema.json',
    type: 'object',
    additionalProperties: true,
    properties: { auth: { type: 'object', additionalProperties: false, properties: { supported: { type: 'boolean' } } } },
  }),
  'spec/v2/facets/auth.schema.json': jsonText({ properties: { supported: { type: 'boolean' } } }),
};

const V3 = { ...GOOD, 'schemas/v3/x.schema.json': jsonText({ type: 'object', patternProperties: { '^x-': {} } }) };

testRule(RULE, {
  valid: [
    { name: 'the base corpus: no schema' },
    { name: 'schemas that say their openness, mixins decided by their user, and the vendor grammar', files: GOOD },
    { name: 'holds only the paths of its options: schemas/v2/ by default', files: V3 },
  ],
  invalid: [
    {
      name: 'fires at an object schema that says neither keyword, at a foreign pattern, an open named root and a `supported` record',
      files: OPEN,
      errors: [
        { messageId: 'closed-root-open', file: 'schemas/v2/capabilities.schema.json', line: 4, column: 27, data: { file: 'schemas/v2/capabilities.schema.json', keyword: 'additionalProperties', value: 'true' } },
        { messageId: 'supported-property', file: 'schemas/v2/capabilities.schema.json', line: 10, column: 9, data: { family: 'auth' } },
        { messageId: 'open-by-default', file: 'schemas/v2/open.schema.json', line: 6, column: 5, data: { pointer: '/properties/loose' } },
        {
          messageId: 'vendor-pattern',
          file: 'schemas/v2/open.schema.json',
          line: 16,
          column: 9,
          data: { pattern: '^x-', source: 'extensionsKeyPattern of spec/v2/declaration.json or the org pattern of spec/v2/declaration.schema.json' },
        },
        { messageId: 'supported-property', file: 'spec/v2/facets/auth.schema.json', line: 3, column: 5, data: { family: 'auth' } },
      ],
    },
    {
      name: 'fires at a named root that does not say whether it is closed',
      files: { ...GOOD, 'schemas/v2/certification-bundle.schema.json': jsonText({ $id: 'https://openwop.dev/schemas/v2/certification-bundle.schema.json', type: 'object', properties: {} }) },
      errors: [
        { messageId: 'closed-root-unsaid', file: 'schemas/v2/certification-bundle.schema.json', line: 1, column: 1, data: { file: 'schemas/v2/certification-bundle.schema.json' } },
        { messageId: 'open-by-default', file: 'schemas/v2/certification-bundle.schema.json', line: 3, column: 3, data: { pointer: 'the root' } },
      ],
    },
    {
      name: 'takes the paths, roots and extra patterns from its options',
      files: V3,
      config: { rules: { [RULE]: ['error', { paths: ['schemas/v3/'], patterns: ['^x-'] }] } },
      errors: [{ messageId: 'open-by-default', file: 'schemas/v3/x.schema.json', line: 2, column: 3, data: { pointer: 'the root' } }],
    },
  ],
});
