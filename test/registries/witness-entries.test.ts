import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { witnessCounts, witnessEntries } from '../../core/registries/evidence.js';
import { fixture, readTree } from '../helpers.js';

const layeredCorpus = (...layers: string[]) =>
  corpusFromFiles('/nonexistent-root', Object.assign({}, ...layers.map((layer) => readTree(fixture(layer)))));

describe('witness entries', () => {
  it('counts unwitnessable on requirements and invariants only, and seam-gated on all three; a deleted family carries none', () => {
    expect(witnessCounts(witnessEntries(layeredCorpus('evidence/witness-good')))).toEqual({
      seamGated: 2,
      unwitnessable: 2,
    });
    const entries = witnessEntries(layeredCorpus('evidence/witness-good', 'evidence/witness-defects'));
    expect(entries.map((e) => `${e.source}:${e.id}:${e.witness ?? '-'}`)).toEqual([
      'family:idempotency:seam-gatd',
      'family:heartbeat:unwitnessable',
      'family:forms:-',
      'family:mcp:seam-gated',
      'requirement:openwop.idempotency.replay-marker:witnessable-unaided',
      'requirement:openwop.idempotency.record-retention:blocked',
      'requirement:openwop.idempotency.keys-not-logged:unwitnessable',
      'requirement:openwop.idempotency.effect-claim:seam-gated',
      'invariant:subject-required-on-owner:unwitnessable',
      'invariant:provenance-attestation-digest-bound:unwitnessable',
    ]);
    expect(witnessCounts(entries)).toEqual({ seamGated: 2, unwitnessable: 3 });
  });

  it('reads the rationale of an invariant from non_testability_rationale', () => {
    const entry = witnessEntries(layeredCorpus('evidence/witness-good')).find(
      (e) => e.id === 'provenance-attestation-digest-bound',
    );
    expect(entry?.rationale).toBe('attestations never leave the build pipeline');
  });
});
