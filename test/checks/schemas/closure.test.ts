import { describe, expect, it } from 'vitest';
import { run, where } from '../../helpers.js';
import { runWithOptions } from '../options.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

const DECLARATION = json({
  extensionsKeyPattern: '^[a-z]+\\.[a-z]+$',
  families: [{ key: 'auth', anchor: 'core' }, { key: 'old', anchor: 'deleted' }],
});
const DECLARATION_SCHEMA = json({ properties: { extensions: { propertyNames: { pattern: '^[a-z]+$' } } } });

const good = {
  'spec/v2/declaration.json': DECLARATION,
  'spec/v2/declaration.schema.json': DECLARATION_SCHEMA,
  'schemas/v2/thing.schema.json': json({
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
  'schemas/v2/capabilities.schema.json': json({
    $id: 'https://openwop.dev/schemas/v2/capabilities.schema.json',
    type: 'object',
    additionalProperties: false,
    properties: { auth: { type: 'object', additionalProperties: false, properties: { lanes: {} } } },
  }),
  'spec/v2/facets/auth.schema.json': json({ properties: { lanes: {} } }),
};

describe('schemas/closure', () => {
  it('is quiet on schemas that say their openness, mixins decided by their user, and the vendor grammar', () => {
    expect(run('schemas/closure', good)).toEqual([]);
  });

  it('fires at an object schema that says neither keyword, at a foreign pattern, an open named root and a `supported` record', () => {
    const files = {
      ...good,
      'schemas/v2/open.schema.json': json({
        $id: 'https://openwop.dev/schemas/v2/open.schema.json',
        type: 'object',
        additionalProperties: false,
        properties: { loose: { type: 'object', properties: { a: {} } }, keyed: { type: 'object', additionalProperties: false, patternProperties: { '^x-': {} } } },
      }),
      'schemas/v2/capabilities.schema.json': json({
        $id: 'https://openwop.dev/schemas/v2/capabilities.schema.json',
        type: 'object',
        additionalProperties: true,
        properties: { auth: { type: 'object', additionalProperties: false, properties: { supported: { type: 'boolean' } } } },
      }),
      'spec/v2/facets/auth.schema.json': json({ properties: { supported: { type: 'boolean' } } }),
    };
    const found = run('schemas/closure', files);
    expect(where(found)).toEqual([
      'schemas/v2/capabilities.schema.json:4:27',
      'schemas/v2/capabilities.schema.json:10:9',
      'schemas/v2/open.schema.json:6:5',
      'schemas/v2/open.schema.json:16:9',
      'spec/v2/facets/auth.schema.json:3:5',
    ]);
    expect(found.map((d) => d.message)).toEqual([
      'schemas/v2/capabilities.schema.json is a closed root, but its root has additionalProperties true',
      'the `auth` capability record carries a `supported` property; v2 advertises a family by the presence of its record',
      'the object schema at /properties/loose says neither additionalProperties nor unevaluatedProperties, so whether it is closed is left to the default (open)',
      'patternProperties key `^x-` is not the vendor-extension grammar (extensionsKeyPattern of spec/v2/declaration.json or the org pattern of spec/v2/declaration.schema.json)',
      'the `auth` capability record carries a `supported` property; v2 advertises a family by the presence of its record',
    ]);
  });

  it('takes the paths, roots and extra patterns from its options', () => {
    const files = { ...good, 'schemas/v3/x.schema.json': json({ type: 'object', patternProperties: { '^x-': {} } }) };
    expect(run('schemas/closure', files)).toEqual([]);
    expect(where(runWithOptions('schemas/closure', files, { paths: ['schemas/v3/'], patterns: ['^x-'] }))).toEqual(['schemas/v3/x.schema.json:2:3']);
  });
});
