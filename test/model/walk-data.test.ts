/** walkData: every value of a parsed document in document order with its path, skipping and stopping on the visitor's word. */
import { describe, expect, it } from 'vitest';
import { walkData, type PathSegment } from '../../core/model/index.js';

const VALUE = { a: { b: [1, { c: 'x' }] }, d: 'y' };

describe('walkData', () => {
  it('visits every value depth first in document order, with its path and the member it is written under', () => {
    const seen: Array<[PathSegment[], string | undefined]> = [];
    expect(walkData(VALUE, (_value, path, key) => void seen.push([path, key]))).toBe(true);
    expect(seen).toEqual([
      [[], undefined],
      [['a'], 'a'],
      [['a', 'b'], 'b'],
      [['a', 'b', 0], 'b'],
      [['a', 'b', 1], 'b'],
      [['a', 'b', 1, 'c'], 'c'],
      [['d'], 'd'],
    ]);
  });

  it("leaves a skipped value's members unvisited, and ends the walk on stop", () => {
    const skipped: PathSegment[][] = [];
    walkData(VALUE, (_value, path) => {
      skipped.push(path);
      return path[0] === 'a' ? 'skip' : undefined;
    });
    expect(skipped).toEqual([[], ['a'], ['d']]);

    const stopped: PathSegment[][] = [];
    const finished = walkData(VALUE, (value, path) => {
      stopped.push(path);
      return value === 1 ? 'stop' : undefined;
    });
    expect(finished).toBe(false);
    expect(stopped.at(-1)).toEqual(['a', 'b', 0]);
    expect(stopped).toHaveLength(4);
  });
});
