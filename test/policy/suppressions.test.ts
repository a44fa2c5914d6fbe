/** Suppressions and fingerprints as functions: the expiry boundary with an injected clock, and what a fingerprint keeps. */
import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import type { Diagnostic } from '../../core/output/diagnostics.js';
import { fingerprint } from '../../core/run/fingerprint.js';
import { applySuppressions } from '../../core/run/suppressions.js';
import {
  compareWithBaseline,
  parseFindingsBaseline,
  renderFindingsBaseline,
} from '../../core/run/findings-baseline.js';
import { brokenAnchor, doc } from '../helpers.js';

const corpusWith = (until: string) =>
  corpusFromFiles('/nonexistent-root', {
    'spec/v2/core/a.md': doc(
      'A',
      `<!-- openwop-spec-disable-next-line links/anchor until ${until} -- waiting on RFC 0201 -->\nSee [b](b.md#x).`,
    ),
  });
const options = (today: string) => ({ today, ran: new Set(['links/anchor']), known: new Set(['links/anchor']) });

describe('suppression expiry', () => {
  it('holds through its expiry date (UTC) and fails from the next day, whatever the real date is', () => {
    const corpus = corpusWith('2026-12-31');
    const on = applySuppressions(corpus, [brokenAnchor(8, { column: 5 })], options('2026-12-31'));
    expect(on.map((d) => [d.rule, Boolean(d.suppression)])).toEqual([['links/anchor', true]]);
    const after = applySuppressions(corpus, [brokenAnchor(8, { column: 5 })], options('2027-01-01'));
    expect(after.map((d) => [d.rule, d.line, Boolean(d.suppression)])).toEqual([
      ['links/anchor', 8, false],
      ['suppressions/expired', 7, false],
    ]);
  });

  it('refuses a date that is not one', () => {
    const out = applySuppressions(corpusWith('2026-02-30x'), [brokenAnchor(8, { column: 5 })], options('2026-01-01'));
    expect(out.map((d) => d.rule)).toEqual(['links/anchor', 'suppressions/invalid']);
    expect(out[1]?.message).toBe('suppression expiry "2026-02-30x" is not a date (YYYY-MM-DD)');
  });

  it('does not judge a suppression of a rule that did not run', () => {
    const out = applySuppressions(corpusWith('2000-01-01'), [], { ...options('2026-01-01'), ran: new Set<string>() });
    expect(out).toEqual([]);
  });
});

describe('fingerprints', () => {
  const text = (body: string) => corpusFromFiles('/nonexistent-root', { 'spec/v2/core/a.md': doc('A', body) });
  const at = (line: number): Diagnostic => ({ ...brokenAnchor(line, { column: 5 }), endLine: line, endColumn: 20 });

  it('keep to the located text: the same finding moved down by an edit above has the same print; other text another', () => {
    const before = fingerprint(text('See [b](b.md#x).'), at(7));
    expect(fingerprint(text('New intro.\n\nSee [b](b.md#x).'), at(9))).toBe(before);
    expect(fingerprint(text('See [b](b.md#y).'), at(7))).not.toBe(before);
    expect(fingerprint(text('See [b](b.md#x).'), { ...at(7), rule: 'links/file' })).not.toBe(before);
  });

  it('a baseline counts equal findings, so a second copy of an accepted one is new', () => {
    const one = { ...brokenAnchor(3, { column: 5 }), fingerprint: 'f' };
    const baseline = parseFindingsBaseline(renderFindingsBaseline([one]), 'b.json');
    expect(compareWithBaseline([one, { ...one, line: 9 }], baseline).map((d) => d.baselineState)).toEqual([
      'unchanged',
      'new',
    ]);
    expect(compareWithBaseline([], baseline).map((d) => [d.baselineState, d.message])).toEqual([['absent', 'broken']]);
  });
});
