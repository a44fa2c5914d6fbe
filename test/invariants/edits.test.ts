/**
 * The invariants of one run (invariants.ts) held over the catalogue of real edits (edits.ts), on a
 * copy of this corpus, single edits here (edits-combined.test.ts: pairs and triples;
 * edits-upstream.test.ts: on the upstream corpus; each file a worker can take): `npm test`
 * runs a bounded sample, `npm run test:edits` every edit alone on each corpus and many seeded
 * pairs and triples (OPENWOP_EDITS_SEED and OPENWOP_EDITS_COUNT choose them). A failure names the
 * seed and the edits, which replay it exactly.
 */
import { describe, expect, it } from 'vitest';
import { EDITS } from './edits.js';
import { describeCatalogue, describeRuns, HERE } from './runs.js';

describe('the catalogue of edits', () => {
  it('has at least 15 edits, each with its own id', () => {
    expect(EDITS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(EDITS.map((edit) => edit.id)).size).toBe(EDITS.length);
  });
});

describeCatalogue(HERE);
describeRuns(HERE, { pack: true, which: 'singles' });
