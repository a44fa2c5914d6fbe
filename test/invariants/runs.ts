/**
 * The two bases the edits are made to, the sequences `npm test` and `npm run test:edits` run on
 * each, and the suite that holds the invariants over them. This corpus's single edits, its pairs
 * and triples, and the upstream sequences are three test files, so that two workers share them.
 */
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, CORPUS_ENTRIES, REPO } from '../helpers.js';
import { UPSTREAM as UPSTREAM_ROOT, upstreamPresent } from '../upstream-corpus.js';
import { editClaims, EDITS, Rng } from './edits.js';
import { copyBase, describeSequence, holdInvariants, sequences, type Base, type Sequence } from './invariants.js';

const LONG = process.env.OPENWOP_EDITS === 'long';
const SEED = Number(process.env.OPENWOP_EDITS_SEED ?? 20261202);
const COUNT = Number(process.env.OPENWOP_EDITS_COUNT ?? 40);

export const HERE: Base = {
  name: 'this corpus',
  root: REPO,
  entries: [...CORPUS_ENTRIES, 'openwop-spec.config.json'],
  stamp: 'CORPUS-STAMP.json',
};

export function upstreamBase(testFile: string): Base | undefined {
  return upstreamPresent(testFile)
    ? {
        name: 'upstream',
        root: UPSTREAM_ROOT,
        entries: readdirSync(UPSTREAM_ROOT),
        config: path.join(REPO, 'test/upstream/openwop-spec.config.json'),
        stamp: 'spec-artifacts/CORPUS-STAMP.json',
      }
    : undefined;
}

/**
 * The sequences of a base, as single edits and as pairs and triples. Under `test:edits`: every edit
 * the base claims alone, and many seeded pairs and triples. In `npm test`, a bounded sample: on this
 * corpus one single edit and one pair or triple; upstream one sequence of one or two edits.
 */
function sequencesOf(base: Base): { singles: Sequence[]; combined: Sequence[] } {
  if (LONG) {
    const singles = EDITS.filter((edit) => editClaims(edit, base.name)).map((edit, i) => ({
      base,
      seed: SEED + i,
      edits: [edit],
    }));
    return {
      singles,
      combined: sequences(base, SEED, base.name === 'upstream' ? Math.ceil(COUNT / 4) : COUNT, [2, 3]),
    };
  }
  if (base.name === 'upstream') return { singles: [], combined: sequences(base, SEED, 1, [1, 2]) };
  return { singles: sequences(base, SEED, 1, [1]), combined: sequences(base, SEED + 1, 1, [2, 3]) };
}

/** Each edit the base claims applies there alone, with the seed it is replayed with: a sequence of edits that find nothing would test nothing. */
export function describeCatalogue(base: Base): void {
  describe(`the catalogue of edits on ${base.name}`, () => {
    it.each(EDITS.filter((edit) => editClaims(edit, base.name)).map((edit) => ({ edit, id: edit.id })))(
      '$id applies',
      ({ edit }) => {
        const root = copyBase(base);
        try {
          const touched = edit.apply(root, new Rng(SEED));
          expect(touched, `${edit.id} found nothing to act on in ${base.name}`).toBeDefined();
          expect(touched?.length).toBeGreaterThan(0);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      },
    );
  });
}

/**
 * The invariants over the base's sequences. The base is copied and checked once, before them: its
 * findings tell the findings the edits made from those it had, and its parse cache (filled by that
 * check) is copied into each sequence's copy, which then parses only what the edits changed.
 */
export function describeRuns(base: Base, options: { pack: boolean; which: 'singles' | 'combined' | 'all' }): void {
  const { singles, combined } = sequencesOf(base);
  const list =
    options.which === 'singles' ? singles : options.which === 'combined' ? combined : [...singles, ...combined];
  describe(`one run, every verb, after real edits: ${base.name}`, () => {
    let before: Diagnostic[] = [];
    let warm = '';
    beforeAll(async () => {
      warm = copyBase(base);
      const result = await cli(['check', '--root', warm, '--format', 'json']);
      before = (JSON.parse(result.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    }, 120_000);
    afterAll(() => {
      if (warm) rmSync(warm, { recursive: true, force: true });
    });

    it.each(list.map((sequence) => ({ sequence, label: describeSequence(sequence) })))(
      '$label',
      async ({ sequence, label }) => {
        const broken = await holdInvariants(sequence, before, {
          pack: options.pack,
          thorough: LONG,
          cache: path.join(warm, 'node_modules'),
        });
        // The seed and the edits replay the failure: OPENWOP_EDITS_SEED and the ids above.
        expect(broken, `${label}\n${sequence.edits.map((edit) => `  ${edit.id}: ${edit.does}`).join('\n')}`).toEqual(
          [],
        );
      },
      600_000,
    );
  });
}
