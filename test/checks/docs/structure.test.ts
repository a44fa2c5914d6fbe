import { describe, expect, it } from 'vitest';
import { applyFixes } from '../../../core/run/index.js';
import type { Diagnostic } from '../../../core/output/index.js';
import { fixture, run, where } from '../../helpers.js';

const PATH = 'spec/v2/core/x.md';

/** The findings on the document, and the document once docs/structure's fixes stop changing it (as the fix loop applies them, pass after pass). */
function fixed(text: string): { text: string; found: Diagnostic[] } {
  const found = run('docs/structure', { [PATH]: text });
  let after = text;
  for (let pass = 0; pass < 5; pass++) {
    const fixes = run('docs/structure', { [PATH]: after }).flatMap((d) => (d.fix ? [d.fix] : []));
    if (fixes.length === 0) break;
    after = applyFixes(after, fixes).text;
  }
  return { text: after, found };
}

const old = (status: string, body: string) => `# X\n\n> **Status: ${status}**\n\n## Why this exists\n\n${body}\n`;

describe('docs/structure', () => {
  it('fires on each house-style defect, at its line', () => {
    const found = run('docs/structure', fixture('defects/structure'));
    expect(where(found)).toEqual([
      'spec/v2/core/a.md:1:1',
      'spec/v2/core/a.md:5:3',
      'spec/v2/core/a.md:6:23',
      'spec/v2/core/a.md:8:1',
      'spec/v2/core/a.md:10:1',
      'spec/v2/core/a.md:12:1',
      'spec/v2/core/a.md:12:1',
      'spec/v2/core/a.md:12:1',
      'spec/v2/core/b.md:3:1',
      'spec/v2/core/b.md:7:1',
    ]);
    expect(found.map((d) => d.message).join('\n')).toMatch(/Normative home names `nosuch`/);
  });

  it('is quiet on documents in house style, and checks only core documents', () => {
    expect(run('docs/structure', fixture('good'))).toEqual([]);
    expect(run('docs/structure', { 'docs/notes.md': 'no title at all\n' })).toEqual([]);
  });

  it('accepts any Normative home while no declaration registry exists', () => {
    const files = { 'spec/v2/core/x.md': '# X\n\n> **Status: Draft.**\n> **Normative home:** `anything`.\n\n## Why this exists\n\nText.\n\n*Sources: RFC 0001, RFC 0002.*\n' };
    expect(run('docs/structure', files)).toEqual([]);
  });

  describe('the pre-2.42.8 status line', () => {
    it('reports the old line once, and fixes it by merging its RFCs into a footer of the form "RFCs 0002, 0007", ascending, without duplicates, then rewriting it', () => {
      const text = old('Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0002.', 'Text.\n\n*Sources: RFCs 0002, 0137.*');
      const { text: after, found } = fixed(text);
      // One defect, one finding: the footer that lacks the line's RFCs is part of the same migration.
      expect(where(found)).toEqual([`${PATH}:3:3`]);
      expect(found[0]?.messageId).toBe('old-status');
      expect(found[0]?.message).toMatch(/is the form before 2\.42\.8; it is "\*\*Status: Stable\.\*\*", with its RFCs in the \*Sources: …\* footer/);
      // Its first fix merges the footer and leaves the status line, so no RFC is lost between passes.
      const once = applyFixes(text, found.flatMap((d) => (d.fix ? [d.fix] : []))).text;
      expect(once).toBe(text.replace('*Sources: RFCs 0002, 0137.*', '*Sources: RFCs 0002, 0137, 0177.*'));
      expect(after).toBe('# X\n\n> **Status: Stable.**\n\n## Why this exists\n\nText.\n\n*Sources: RFCs 0002, 0137, 0177.*\n');
      expect(run('docs/structure', { [PATH]: after })).toEqual([]);
    });

    it('merges into a house-form footer in its own form', () => {
      const { text: after } = fixed(old('Draft · RFC 0170, 0043.', 'Text.\n\n*Sources: RFC 0043, RFC 0096.*'));
      expect(after).toContain('> **Status: Draft.**\n');
      expect(after).toContain('*Sources: RFC 0043, RFC 0096, RFC 0170.*\n');
      expect(run('docs/structure', { [PATH]: after })).toEqual([]);
    });

    it('adds the footer as the last line when there is none, reading RFC lists with sections and bare numbers', () => {
      const { text: after, found } = fixed(old('Stable · v2.0.12 (2026-09-10) · RFC 0176 (§A–§B, §D–§E), 0171 §A, 0170 §A.3.', 'Last paragraph.'));
      expect(where(found)).toEqual([`${PATH}:3:3`]);
      expect(after).toBe('# X\n\n> **Status: Stable.**\n\n## Why this exists\n\nLast paragraph.\n\n*Sources: RFC 0170, RFC 0171, RFC 0176.*\n');
      expect(run('docs/structure', { [PATH]: after })).toEqual([]);
    });

    it('adds the footer after a generated region that ends the document, not inside it', () => {
      const region = 'Intro.\n\n<!-- generated: t from x; do not edit -->\n| A |\n| --- |\n| b |\n<!-- /generated: t -->';
      const { text: after } = fixed(old('Stable · RFC 0008.', region));
      expect(after.endsWith('<!-- /generated: t -->\n\n*Sources: RFC 0008.*\n')).toBe(true);
    });

    it('only fixes the status line when the footer already lists every RFC, and keeps text after the status', () => {
      const text = '# X\n\n> **Status: Stable · RFC 0165.** Generated from `api/v2/openapi.yaml`; do not edit.\n\n## Why this exists\n\nText.\n\n*Sources: RFC 0165, RFC 0171.*\n';
      const { text: after, found } = fixed(text);
      expect(where(found)).toEqual([`${PATH}:3:3`]);
      expect(after).toBe(text.replace('**Status: Stable · RFC 0165.**', '**Status: Stable.**'));
    });

    it('leaves a migrated status line alone', () => {
      expect(run('docs/structure', { [PATH]: old('Stable.', 'Text.\n\n*Sources: RFC 0001.*') })).toEqual([]);
    });
  });

  describe('the Sources footer', () => {
    it('accepts "RFCs 0002, 0007, 0022" as well as "RFC 0002, RFC 0007"', () => {
      expect(run('docs/structure', { [PATH]: old('Stable.', 'Text.\n\n*Sources: RFCs 0002, 0007, 0022.*') })).toEqual([]);
      expect(run('docs/structure', { [PATH]: old('Stable.', 'Text.\n\n*Sources: RFCs 0101.*') })).toEqual([]);
    });

    it('still holds that form to ascending four-digit numbers', () => {
      const found = run('docs/structure', { [PATH]: old('Stable.', 'Text.\n\n*Sources: RFCs 0007, 0002, 12.*') });
      expect(found.map((d) => d.message)).toEqual([
        '"12" in the Sources line is not of the form "RFC NNNN"',
        'the Sources line is not in ascending order: RFC 0007 comes before RFC 0002',
      ]);
      expect(where(found)).toEqual([`${PATH}:9:1`, `${PATH}:9:1`]);
    });
  });
});
