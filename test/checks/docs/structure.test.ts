import { describe, expect, it } from 'vitest';
import { fixture, run, where } from '../../helpers.js';

describe('docs/structure', () => {
  it('fires on each house-style defect, at its line', () => {
    const found = run('docs/structure', fixture('defects/structure'));
    expect(where(found)).toEqual([
      'spec/v2/core/a.md:1:1',
      'spec/v2/core/a.md:5:1',
      'spec/v2/core/a.md:5:22',
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
});
