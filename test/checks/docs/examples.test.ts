import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../core/model/corpus.js';
import { examplePlans, stripJsonComments } from '../../../core/model/examples.js';
import { REPO } from '../../helpers.js';
import { check, evidenceCorpus, findings } from '../../evidence/support.js';

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

const fence = '```';
const DEFECTS = [
  '# A', '', // 1-2
  '<!-- example: schemas/v2/thing.schema.json -->', // 3
  `${fence}json`, '{', '  "name": "ok",', '  "size": "big"', '}', fence, '', // 4-10
  '- an item:', '', // 11-12
  '  <!-- example: schemas/v2/thing.schema.json#/$defs/Part -->', // 13
  `  ${fence}json`, '  { "id": 1 }', `  ${fence}`, '', // 14-17
  '<!-- example: schemas/v2/thing.schema.json -->', // 18
  `${fence}jsonc`, '{ "name": "x", … }', fence, '', // 19-22
  '<!-- example: schemas/v2/thing.schema.json -->', // 23
  `${fence}jsonc`, '{', '  // the only required member', '  "name": "x // not a comment",', '  "extra": true,', '}', fence, '', // 24-31
  `${fence}json`, '{ "unannotated": true }', fence, '', // 32-35
  '<!-- example: schemas/v2/nope.schema.json -->', // 36
  `${fence}json`, '{}', fence, '', // 37-40
  '<!-- example: schemas/v2/thing.schema.json#/$defs/Nope -->', // 41
  `${fence}json`, '{}', fence, '', // 42-45
  '<!-- example: schemas/v2/thing.schema.json -->', // 46
  `${fence}yaml`, 'name: 3', fence, '', // 47-50
  '<!-- example: schemas/v2/thing.schema.json -->', // 51
  `${fence}json`, '{ "name": "x", }', fence, '', // 52-55
  '<!-- example: schemas/v2/thing.schema.json -->', // 56
  `${fence}text`, 'hello', fence, '', // 57-60
  '<!-- example: schemas/v2/thing.schema.json -->', '', // 61-62
  'A paragraph, not a fence.', // 63
  '',
].join('\n');

const GOOD = [
  '# A',
  '',
  '<!-- example: schemas/v2/thing.schema.json -->',
  `${fence}json`,
  '{ "name": "ok", "size": 3 }',
  fence,
  '',
  '<!-- example: schemas/v2/thing.schema.json#/$defs/Part -->',
  `${fence}jsonc`,
  '{ "id": "p1", /* a comment */ }',
  fence,
  '',
  '<!-- example: schemas/v2/thing.schema.json -->',
  `${fence}yaml`,
  'name: ok',
  fence,
  '',
  `${fence}jsonc`,
  '{ "sketch": … }',
  fence,
  '',
].join('\n');

describe('docs/examples', { timeout: 60_000 }, () => {
  it('reports each failure at the line inside the block, and each bad annotation at the annotation', () => {
    expect(findings(check('docs/examples', evidenceCorpus({ 'schemas/v2/thing.schema.json': SCHEMA, 'spec/v2/core/a.md': DEFECTS })))).toEqual([
      'spec/v2/core/a.md:7:3 the example does not match schemas/v2/thing.schema.json: /size: must be integer',
      'spec/v2/core/a.md:15:5 the example does not match schemas/v2/thing.schema.json#/$defs/Part: /id: must be string',
      'spec/v2/core/a.md:28:3 the example does not match schemas/v2/thing.schema.json: (root): property "extra" is not allowed',
      'spec/v2/core/a.md:32:1 (warning) a json example with no <!-- example: … --> annotation; nothing checks it against a schema',
      'spec/v2/core/a.md:36:1 the example names schemas/v2/nope.schema.json, which is not a schema of this corpus',
      'spec/v2/core/a.md:41:1 schemas/v2/thing.schema.json has nothing at #/$defs/Nope',
      'spec/v2/core/a.md:48:1 the example does not match schemas/v2/thing.schema.json: /name: must be string',
      'spec/v2/core/a.md:53:16 the example is not valid json: invalid JSON: Expected double-quoted property name',
      'spec/v2/core/a.md:56:1 the example annotation sits on a `text` block; only json, jsonc and yaml examples are validated',
      'spec/v2/core/a.md:61:1 an example annotation that no fenced block follows',
    ]);
  });

  it('skips an elided jsonc sketch, and says why', () => {
    const corpus = evidenceCorpus({ 'schemas/v2/thing.schema.json': SCHEMA, 'spec/v2/core/a.md': DEFECTS });
    const file = corpus.markdown('spec/v2/core/a.md');
    const skipped = file ? examplePlans(file).filter((plan) => plan.status === 'skipped') : [];
    expect(skipped.map((plan) => [plan.block.line, plan.status === 'skipped' ? plan.reason : ''])).toEqual([[19, 'it elides content with …, so it is not a complete instance']]);
  });

  it('is quiet on examples that match, in json, jsonc and yaml, and on an unannotated sketch', () => {
    expect(check('docs/examples', evidenceCorpus({ 'schemas/v2/thing.schema.json': SCHEMA, 'spec/v2/core/a.md': GOOD }))).toEqual([]);
  });

  it('warns of an unannotated json block only in a corpus that annotates its examples (upstream annotates none)', () => {
    const plain = ['# A', '', `${fence}json`, '{ "unannotated": true }', fence, ''].join('\n');
    expect(check('docs/examples', evidenceCorpus({ 'schemas/v2/thing.schema.json': SCHEMA, 'spec/v2/core/a.md': plain }))).toEqual([]);
    expect(findings(check('docs/examples', evidenceCorpus({ 'schemas/v2/thing.schema.json': SCHEMA, 'spec/v2/core/a.md': plain, 'spec/v2/core/b.md': GOOD })))).toEqual([
      'spec/v2/core/a.md:3:1 (warning) a json example with no <!-- example: … --> annotation; nothing checks it against a schema',
    ]);
  });

  it('keeps every position when it strips comments and trailing commas', () => {
    const source = '{\n  // note\n  "a": "x // y", /* b */\n  "c": [1, 2,],\n}';
    const stripped = stripJsonComments(source);
    expect(stripped.length).toBe(source.length);
    expect(JSON.parse(stripped)).toEqual({ a: 'x // y', c: [1, 2] });
    expect(stripped.split('\n').map((line) => line.length)).toEqual(source.split('\n').map((line) => line.length));
  });

  it('validates the examples the core documents carry', () => {
    const corpus = loadCorpus(REPO);
    const annotated = ['identity.md', 'capabilities.md', 'form-content-packs.md', 'workflow-chain-packs.md', 'security.md'].map((name) => {
      const file = corpus.markdown(`spec/v2/core/${name}`);
      return [name, file ? examplePlans(file).map((plan) => (plan.status === 'validate' ? `${plan.annotation.schema}#${plan.annotation.pointer}` : plan.status)) : []];
    });
    expect(annotated).toEqual([
      ['identity.md', ['spec/v2/facets/auth.schema.json#/$defs/lane', 'schemas/v2/subject-link.schema.json#']],
      ['capabilities.md', ['spec/v2/facets/auth.schema.json#']],
      ['form-content-packs.md', ['schemas/v2/form-content-pack-manifest.schema.json#/$defs/field']],
      ['workflow-chain-packs.md', ['schemas/v2/workflow-definition.schema.json#/$defs/EdgeCondition']],
      ['security.md', ['spec/v2/invariants.schema.json#']],
    ]);
    expect(check('docs/examples', corpus).filter((d) => d.severity === 'error')).toEqual([]);
  });
});
