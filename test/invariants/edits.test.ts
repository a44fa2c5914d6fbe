/**
 * The invariants of one run (invariants.ts) held over the catalogue of real edits (edits.ts), on a
 * copy of this corpus and of the upstream one: `npm test` runs a bounded sample, `npm run
 * test:edits` every edit alone on each corpus and many seeded pairs and triples
 * (OPENWOP_EDITS_SEED and OPENWOP_EDITS_COUNT choose them). A failure names the seed and the edits,
 * which replay it exactly.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, REPO } from '../helpers.js';
import { EDITS } from './edits.js';
import { copyBase, describeSequence, holdInvariants, sequences, type Base, type Sequence } from './invariants.js';
import { UPSTREAM as UPSTREAM_ROOT, upstreamPresent } from '../upstream-corpus.js';

const LONG = process.env.OPENWOP_EDITS === 'long';
const SEED = Number(process.env.OPENWOP_EDITS_SEED ?? 20261202);
const COUNT = Number(process.env.OPENWOP_EDITS_COUNT ?? 40);

const HERE: Base = {
  name: 'this corpus',
  root: REPO,
  entries: ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'CORPUS-STAMP.json', 'package.json', 'openwop-spec.config.json'],
  stamp: 'CORPUS-STAMP.json',
};

const UPSTREAM: Base | undefined = upstreamPresent(import.meta.url)
  ? { name: 'upstream', root: UPSTREAM_ROOT, entries: readdirSync(UPSTREAM_ROOT), config: path.join(REPO, 'test/upstream/openwop-spec.config.json'), stamp: 'spec-artifacts/CORPUS-STAMP.json' }
  : undefined;

/** Every edit alone, then seeded pairs and triples; the bounded sample takes a few of them. */
function plan(base: Base, count: number, singles: boolean): Sequence[] {
  const alone = singles ? EDITS.map((edit, i) => ({ base, seed: SEED + i, edits: [edit] })) : [];
  return [...alone, ...sequences(base, SEED, count, [2, 3])];
}

const HERE_SEQUENCES = LONG ? plan(HERE, COUNT, true) : [...sequences(HERE, SEED, 1, [1]), ...sequences(HERE, SEED + 1, 1, [2, 3])];
const UPSTREAM_SEQUENCES = UPSTREAM ? (LONG ? plan(UPSTREAM, Math.ceil(COUNT / 4), true) : sequences(UPSTREAM, SEED, 1, [1, 2])) : [];

async function fullCheck(base: Base): Promise<Diagnostic[]> {
  const root = copyBase(base);
  try {
    const result = await cli(['check', '--root', root, '--format', 'json']);
    return (JSON.parse(result.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the catalogue of edits', () => {
  it('has at least 15 edits, each with its own id', () => {
    expect(EDITS.length).toBeGreaterThanOrEqual(15);
    expect(new Set(EDITS.map((edit) => edit.id)).size).toBe(EDITS.length);
  });
});

describe.each([
  { base: HERE, list: HERE_SEQUENCES, pack: true },
  ...(UPSTREAM ? [{ base: UPSTREAM, list: UPSTREAM_SEQUENCES, pack: false }] : []),
])('one run, every verb, after real edits: $base.name', ({ base, list, pack }) => {
  let before: Diagnostic[] = [];
  beforeAll(async () => {
    before = await fullCheck(base);
  }, 120_000);

  it.each(list.map((sequence) => ({ sequence, label: describeSequence(sequence) })))('$label', async ({ sequence, label }) => {
    const broken = await holdInvariants(sequence, before, { pack, thorough: LONG });
    // The seed and the edits replay the failure: OPENWOP_EDITS_SEED and the ids above.
    expect(broken, `${label}\n${sequence.edits.map((edit) => `  ${edit.id}: ${edit.does}`).join('\n')}`).toEqual([]);
  }, 600_000);
});

if (!UPSTREAM) {
  describe('upstream corpus', () => {
    it.skip(`skipped: ${UPSTREAM_ROOT} is absent`, () => undefined);
  });
}
