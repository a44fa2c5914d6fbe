/**
 * Every finding of `check` on the upstream corpus (../shared/upstream/corpus, read in place, never
 * copied) against its classification in test/upstream/findings.json: each finding reported must be
 * classified true or debatable there, each one classified so must still be reported, and none
 * classified false (a false finding once reported, since fixed), debatable-absent or duplicate (a
 * second finding of a defect another finding reports) may come back.
 * A new finding therefore fails until someone reads it and classifies it; a lost true one fails too.
 * docs/upstream-findings.md is the readable summary of that file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, REPO, reported } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

// Relative to the repository, as the CLI below runs from it.
const ROOT = path.relative(REPO, UPSTREAM);
const CONFIG = 'test/upstream/openwop-spec.config.json';
const present = upstreamPresent(import.meta.url);

interface Classified {
  rule: string;
  at: string;
  class: 'true' | 'debatable' | 'false' | 'debatable-absent' | 'duplicate';
  reason: string;
  message: string;
}

const classified = (
  JSON.parse(readFileSync(path.join(REPO, 'test/upstream/findings.json'), 'utf8')) as { findings: Classified[] }
).findings;
const ruleAt = (rule: string, at: string) => `${rule} ${at}`;

/** How many times each key occurs: one place may carry several findings of a rule. */
function tally(keys: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return counts;
}

describe.skipIf(!present)(
  'upstream corpus: every finding as classified in test/upstream/findings.json',
  { timeout: 120_000 },
  () => {
    let found: Diagnostic[] = [];
    beforeAll(async () => {
      const result = await cli(['check', '--root', ROOT, '--config', CONFIG, '--no-cache', '--format', 'json']);
      found = reported(result.stdout);
    }, 120_000);

    const kept = classified.filter((entry) => entry.class === 'true' || entry.class === 'debatable');
    const gone = classified.filter(
      (entry) => entry.class === 'false' || entry.class === 'debatable-absent' || entry.class === 'duplicate',
    );

    it('classifies each entry with a reason', () => {
      expect(kept.length).toBeGreaterThan(700);
      expect(gone.length).toBeGreaterThan(0);
      expect(classified.filter((entry) => entry.reason.trim() === '')).toEqual([]);
    });

    it('reports no finding the file does not classify true or debatable (a new one is read and classified there first)', () => {
      expect(found.length).toBeGreaterThan(0);
      const allowed = tally(kept.map((entry) => ruleAt(entry.rule, entry.at)));
      const extra: string[] = [];
      for (const [k, count] of tally(found.map((d) => ruleAt(d.rule, `${d.file}:${d.line}:${d.column}`)))) {
        if (count > (allowed.get(k) ?? 0))
          extra.push(
            `${k} (${count - (allowed.get(k) ?? 0)} more): ${found.find((d) => ruleAt(d.rule, `${d.file}:${d.line}:${d.column}`) === k)?.message}`,
          );
      }
      expect(extra).toEqual([]);
    });

    it('still reports every finding classified true or debatable', () => {
      const reportedKeys = tally(found.map((d) => ruleAt(d.rule, `${d.file}:${d.line}:${d.column}`)));
      const lost = [...tally(kept.map((entry) => ruleAt(entry.rule, entry.at)))]
        .filter(([k, count]) => (reportedKeys.get(k) ?? 0) < count)
        .map(([k]) => k);
      expect(lost).toEqual([]);
    });

    it('reports none of the false findings it once made, and none the corpus does not state the rule for', () => {
      // An empty report (a run that failed) would leave none of them reported, and pass.
      expect(found.length).toBeGreaterThan(0);
      const places = new Set(found.map((d) => ruleAt(d.rule, `${d.file}:${d.line}:${d.column}`)));
      // A place that also carries a kept finding of the same rule is judged by the count above.
      const keptKeys = new Set(kept.map((entry) => ruleAt(entry.rule, entry.at)));
      expect(
        gone
          .filter((entry) => places.has(ruleAt(entry.rule, entry.at)) && !keptKeys.has(ruleAt(entry.rule, entry.at)))
          .map((entry) => `${ruleAt(entry.rule, entry.at)}: ${entry.reason}`),
      ).toEqual([]);
    });

    it('keeps the false share of what it reports at or under 3%', () => {
      const falseKeys = new Set(
        gone.filter((entry) => entry.class === 'false').map((entry) => ruleAt(entry.rule, entry.at)),
      );
      const falseReported = found.filter((d) =>
        falseKeys.has(ruleAt(d.rule, `${d.file}:${d.line}:${d.column}`)),
      ).length;
      expect(found.length).toBeGreaterThan(0);
      expect(falseReported / found.length).toBeLessThanOrEqual(0.03);
    });
  },
);
