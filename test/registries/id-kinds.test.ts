import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { idFields, kindRef } from '../../core/registries/id-kinds.js';
import { fixture, readTree } from '../helpers.js';

describe('id fields and kinds', () => {
  it('finds id fields in schemas and API documents, not in examples or conditional refinements', () => {
    const corpus = corpusFromFiles('/nonexistent-root', readTree(fixture('evidence/ids-good')));
    expect(idFields(corpus).map((f) => `${f.file} ${f.kind} ${f.name}`)).toEqual([
      'api/v2/openapi.yaml property runId',
      'api/v2/openapi.yaml parameter runId',
      'schemas/v2/run.schema.json property parentRunId',
      'schemas/v2/run.schema.json property childRunId',
      'schemas/v2/run.schema.json property traceId',
      'schemas/v2/run.schema.json property ownerId',
      'schemas/v2/run.schema.json property causationId',
      'schemas/v2/run.schema.json property interruptIds',
    ]);
  });

  it('writes the $ref a hint proposes relative to the file', () => {
    expect(kindRef('schemas/v2/run.schema.json', 'runId')).toBe('ids.schema.json#/$defs/runId');
    expect(kindRef('api/v2/openapi.yaml', 'runId')).toBe('../../schemas/v2/ids.schema.json#/$defs/runId');
    expect(kindRef('spec/v2/facets/auth.schema.json', 'keyId')).toBe(
      '../../../schemas/v2/ids.schema.json#/$defs/keyId',
    );
  });
});
