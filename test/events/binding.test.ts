import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { corpusSchemas } from '../../core/schemas/json-schema.js';
import { REPO } from '../helpers.js';

describe('the generated payload binding', () => {
  it('binds the payload of a type in every group, first and last, to its closed $defs entry', () => {
    const corpus = loadCorpus(REPO, { cache: false });
    const typeIndex = (
      corpus.data('schemas/v2/run-event-payloads.schema.json')!.value as { _typeIndex: Record<string, string> }
    )._typeIndex;
    const types = Object.keys(typeIndex).sort();
    expect(types.length).toBeGreaterThan(64);
    // The webhook delivery shares RunEventDoc's binding; the CloudEvent has its own, on `data`.
    for (const [schema, member] of [
      ['run-event', 'payload'],
      ['webhook-delivery', 'payload'],
      ['cloudevent', 'data'],
    ] as const) {
      const validate = corpusSchemas(corpus).validator(`schemas/v2/${schema}.schema.json`);
      for (const type of [types[0], types[63], types[64], types[types.length - 1]]) {
        const event = {
          eventId: 'evt_0123456789abcdef',
          runId: 't1/run_0123456789abcdef',
          type,
          [member]: { notAMember: true },
          timestamp: '2026-11-29T00:00:00Z',
          sequence: 0,
          schemaVersion: 1,
        };
        expect(validate(event), `${schema} ${type}`).toBe(false);
        expect(
          validate.errors?.some(
            (error) => error.instancePath.startsWith(`/${member}`) && error.params.additionalProperty === 'notAMember',
          ),
          `${schema} ${type}`,
        ).toBe(true);
      }
    }
  });
});
