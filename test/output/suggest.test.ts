import { describe, expect, it } from 'vitest';
import { closest } from '../../core/output/index.js';

describe('closest ("did you mean")', () => {
  it('finds the nearest of 200,000 candidates of the same length, where it stands last', () => {
    // Every candidate but the last is three edits from the name; the last is one.
    const candidates = Array.from({ length: 200_000 }, (_, i) => `zz${String(i).padStart(6, '0')}-limits`);
    candidates.push('limits-of-sectiom-0');
    expect(closest('limits-of-section-0', candidates)).toBe('limits-of-sectiom-0');
  });

  it('prefers the nearer of two and the earlier of equals, and suggests nothing beyond the limit', () => {
    expect(closest('anchr', ['anchorage', 'anchor', 'ancho'])).toBe('anchor');
    expect(closest('abcd', ['abce', 'abcf'])).toBe('abce');
    expect(closest('abcdef', ['uvwxyz'])).toBeUndefined();
  });

  it('counts a transposition as two edits, which the bound on characters alone cannot see', () => {
    expect(closest('abcdefgh', ['abcdefhg', 'abcdefgx'])).toBe('abcdefgx');
  });
});
