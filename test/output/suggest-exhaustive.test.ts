/** "Did you mean" with its shortcuts for large collections gives what an exhaustive search gives: the earliest of the nearest within the limit. */
import { expect, it } from 'vitest';
import { closest } from '../../core/output/suggest.js';
function lev(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)] as number[]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length]![b.length]!;
}
it('matches an exhaustive search on a large random collection', () => {
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const word = (n: number) => Array.from({ length: n }, () => 'abcdefghij-'[Math.floor(rnd() * 11)]).join('');
  const list = Array.from({ length: 6000 }, () => word(6 + Math.floor(rnd() * 10)));
  for (let q = 0; q < 120; q++) {
    const base = list[Math.floor(rnd() * list.length)]!;
    const chars = [...base];
    for (let e = 0; e < 1 + Math.floor(rnd() * 3); e++)
      chars[Math.floor(rnd() * chars.length)] = 'xyz'[Math.floor(rnd() * 3)]!;
    const want = q % 3 === 0 ? word(8) : chars.join('');
    const limit = Math.max(2, Math.floor(want.length / 3));
    let best: string | undefined;
    let bd = limit + 1;
    for (const c of list) {
      const d = lev(want, c);
      if (d <= limit && d < bd) {
        bd = d;
        best = c;
      }
    }
    const got = closest(want, list);
    expect(got === undefined ? undefined : lev(want, got)).toBe(best === undefined ? undefined : bd);
    expect(got).toBe(best);
  }
});
