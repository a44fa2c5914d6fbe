import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refCycles } from '../../../core/schemas/cycles.js';
import { cli } from '../../helpers.js';
import { check, evidenceCorpus, evidenceDirectory, findings } from '../../evidence/support.js';
import { corpusFromFiles } from '../../../core/model/corpus.js';
import { defaultConfig, type Config } from '../../../core/config/index.js';

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

describe('schemas/compile', { timeout: 60_000 }, () => {
  it('fires at a wrong or missing $id and $schema, each $ref that names nothing, and each strict-mode error', () => {
    expect(findings(check('schemas/compile', evidenceCorpus(DEFECTS)))).toEqual([
      'schemas/v2/bare.schema.json:1:1 the schema declares no $schema; corpus schemas are JSON Schema 2020-12',
      'schemas/v2/bare.schema.json:1:1 the schema has no $id; it should be https://openwop.dev/schemas/v2/bare.schema.json',
      'schemas/v2/draft7.schema.json:2:14 the schema declares $schema "http://json-schema.org/draft-07/schema#"; corpus schemas are JSON Schema 2020-12',
      'schemas/v2/refs.schema.json:8:20 $ref "missing.schema.json#/$defs/x" does not resolve: https://openwop.dev/schemas/v2/missing.schema.json is not a schema of this corpus',
      'schemas/v2/refs.schema.json:9:20 $ref "#/$defs/nope" does not resolve: schemas/v2/refs.schema.json has nothing at #/$defs/nope',
      'schemas/v2/strict.schema.json:8:5 does not compile as JSON Schema 2020-12 in strict mode: missing type "object" for keyword "properties" (strictTypes)',
      'schemas/v2/wrong-id.schema.json:3:10 $id is "https://openwop.dev/schemas/v2/other.schema.json", but a corpus schema\'s $id is https://openwop.dev/schemas/v2/wrong-id.schema.json, its path under https://openwop.dev/',
    ]);
  });

  it('reports a $ref cycle that consumes nothing, once, instead of recursing; recursion under items is fine', () => {
    const corpus = evidenceCorpus({ 'schemas/v2/cycle.schema.json': CYCLES });
    expect(findings(check('schemas/compile', corpus))).toEqual([
      'schemas/v2/cycle.schema.json:8:20 a $ref cycle that consumes no part of the instance: #/$defs/a -> #/$defs/b -> #/$defs/a; validation would recurse forever',
      'schemas/v2/cycle.schema.json:10:32 a $ref cycle that consumes no part of the instance: #/$defs/c/allOf/0 -> #/$defs/d/anyOf/1/not -> #/$defs/c/allOf/0; validation would recurse forever',
    ]);
    expect(refCycles(corpus, ['schemas/v2/cycle.schema.json'])).toHaveLength(2);
  });

  it('finds a cycle that runs through two files', () => {
    const corpus = evidenceCorpus({
      'schemas/v2/one.schema.json': schema('schemas/v2/one.schema.json', '  "allOf": [{ "$ref": "two.schema.json" }]'),
      'schemas/v2/two.schema.json': schema('schemas/v2/two.schema.json', '  "oneOf": [{ "$ref": "one.schema.json" }]'),
    });
    expect(findings(check('schemas/compile', corpus))).toEqual([
      'schemas/v2/one.schema.json:6:23 a $ref cycle that consumes no part of the instance: #/allOf/0 -> schemas/v2/two.schema.json#/oneOf/0 -> #/allOf/0; validation would recurse forever',
    ]);
  });

  it('reports two schemas that claim one $id', () => {
    const corpus = evidenceCorpus({
      'schemas/v2/a.schema.json': schema('schemas/v2/a.schema.json', '  "type": "string"'),
      'schemas/v2/b.schema.json': schema('schemas/v2/a.schema.json', '  "type": "string"'),
    });
    expect(findings(check('schemas/compile', corpus))).toEqual([
      'schemas/v2/b.schema.json:3:10 $id is "https://openwop.dev/schemas/v2/a.schema.json", but a corpus schema\'s $id is https://openwop.dev/schemas/v2/b.schema.json, its path under https://openwop.dev/',
      'schemas/v2/b.schema.json:3:10 the schema cannot be registered: $id https://openwop.dev/schemas/v2/a.schema.json is also the $id of schemas/v2/a.schema.json',
    ]);
  });

  it('is quiet on the schemas of the repository', () => {
    const corpus = evidenceCorpus(
      Object.fromEntries(
        ['schemas/v2/subject.schema.json', 'schemas/v2/subject-link.schema.json', 'schemas/v2/run-snapshot.schema.json', 'schemas/v2/certification-bundle.schema.json', 'spec/v2/facets/auth.schema.json', 'schemas/v2/workflow-definition.schema.json', 'schemas/v2/form-content-pack-manifest.schema.json'].map((file) => [
          file,
          readFileSync(path.resolve(import.meta.dirname, '../../..', file), 'utf8'),
        ]),
      ),
    );
    expect(check('schemas/compile', corpus)).toEqual([]);
  });

  it('corrects a wrong $id with --fix', async () => {
    const root = evidenceDirectory({ 'schemas/v2/wrong-id.schema.json': DEFECTS['schemas/v2/wrong-id.schema.json'] ?? '' });
    expect((await cli(['check', '--root', root, '--rule', 'schemas/compile'])).status).toBe(1);
    expect((await cli(['check', '--root', root, '--rule', 'schemas/compile', '--fix'])).status).toBe(0);
    expect(readFileSync(path.join(root, 'schemas/v2/wrong-id.schema.json'), 'utf8')).toContain('"$id": "https://openwop.dev/schemas/v2/wrong-id.schema.json"');
  });
});

describe('schemas/compile on upstream\'s formats', { timeout: 60_000 }, () => {
  const upstreamLayout = (): Config => ({ ...defaultConfig(), layout: { schemaIds: [['schemas/v2/', 'https://openwop.dev/spec/v2/'], ['spec/v2/', 'https://openwop.dev/spec/v2/']], stamp: 'CORPUS-STAMP.json' } });
  const at = (base: string, file: string, body: string) => `{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$id": "${base}${file}",\n${body}\n}\n`;

  it('takes the $id base from layout.schemaIds, and resolves relative $refs against it', () => {
    const files = {
      'schemas/v2/ids.schema.json': at('https://openwop.dev/spec/v2/', 'ids.schema.json', '  "$defs": { "runId": { "type": "string" } }'),
      'schemas/v2/run.schema.json': at('https://openwop.dev/spec/v2/', 'run.schema.json', '  "type": "object",\n  "properties": { "runId": { "$ref": "ids.schema.json#/$defs/runId" } }'),
    };
    expect(findings(check('schemas/compile', corpusFromFiles('/u', files, upstreamLayout())))).toEqual([]);
    // Without the layout, the same $ids are this repository's wrong ones.
    expect(findings(check('schemas/compile', corpusFromFiles('/u', files))).filter((line) => line.includes('$id is'))).toEqual([
      'schemas/v2/ids.schema.json:3:10 $id is "https://openwop.dev/spec/v2/ids.schema.json", but a corpus schema\'s $id is https://openwop.dev/schemas/v2/ids.schema.json, its path under https://openwop.dev/',
      'schemas/v2/run.schema.json:3:10 $id is "https://openwop.dev/spec/v2/run.schema.json", but a corpus schema\'s $id is https://openwop.dev/schemas/v2/run.schema.json, its path under https://openwop.dev/',
    ]);
    const wrong = { ...files, 'schemas/v2/run.schema.json': at('https://openwop.dev/schemas/v2/', 'run.schema.json', '  "type": "object"') };
    expect(findings(check('schemas/compile', corpusFromFiles('/u', wrong, upstreamLayout())))).toEqual([
      'schemas/v2/run.schema.json:3:10 $id is "https://openwop.dev/schemas/v2/run.schema.json", but a corpus schema\'s $id is https://openwop.dev/spec/v2/run.schema.json, its path under the $id base that layout.schemaIds gives its folder',
    ]);
  });

  it('accepts a facet fragment (no $schema, no $id, composed under an object) in spec/v2/facets/, and nowhere else', () => {
    const fragment = '{\n  "$comment": "a facet",\n  "properties": { "modes": { "type": "array" } },\n  "required": ["modes"]\n}\n';
    expect(findings(check('schemas/compile', corpusFromFiles('/u', { 'spec/v2/facets/replay.schema.json': fragment })))).toEqual([]);
    expect(findings(check('schemas/compile', corpusFromFiles('/u', { 'schemas/v2/replay.schema.json': fragment })))).toEqual([
      'schemas/v2/replay.schema.json:1:1 does not compile as JSON Schema 2020-12 in strict mode: missing type "object" for keyword "required" (strictTypes)',
      'schemas/v2/replay.schema.json:1:1 the schema declares no $schema; corpus schemas are JSON Schema 2020-12',
      'schemas/v2/replay.schema.json:1:1 the schema has no $id; it should be https://openwop.dev/schemas/v2/replay.schema.json',
    ]);
    // A fragment's $refs are still resolved.
    const broken = '{\n  "properties": { "a": { "$ref": "#/$defs/none" } }\n}\n';
    expect(findings(check('schemas/compile', corpusFromFiles('/u', { 'spec/v2/facets/a.schema.json': broken })))).toEqual([
      'spec/v2/facets/a.schema.json:2:34 $ref "#/$defs/none" does not resolve: spec/v2/facets/a.schema.json has nothing at #/$defs/none',
    ]);
  });

  it('accepts `required` in `not` and `then` naming properties the enclosing schema declares', () => {
    const body = '  "type": "object",\n  "properties": { "version": { "type": "string" }, "channel": { "type": "string" }, "role": { "type": "string" }, "speakerId": { "type": "string" } },\n  "not": { "required": ["version", "channel"] },\n  "if": { "properties": { "role": { "const": "agent" } }, "required": ["role"] },\n  "then": { "required": ["speakerId"] }';
    expect(findings(check('schemas/compile', corpusFromFiles('/u', { 'schemas/v2/ref.schema.json': schema('schemas/v2/ref.schema.json', body) })))).toEqual([]);
  });
});
