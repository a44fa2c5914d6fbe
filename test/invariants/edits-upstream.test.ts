/** The invariants over the catalogue of edits (edits.test.ts) on a copy of the upstream corpus, with its config; pack is left to this corpus's file. */
import { describe, it } from 'vitest';
import { UPSTREAM } from '../upstream-corpus.js';
import { describeCatalogue, describeRuns, upstreamBase } from './runs.js';

const base = upstreamBase(import.meta.url);

if (base) {
  describeCatalogue(base);
  describeRuns(base, { pack: false, which: 'all' });
} else {
  describe('upstream corpus', () => {
    it.skip(`skipped: ${UPSTREAM} is absent`, () => undefined);
  });
}
