import { describe, expect, it } from 'vitest';
import { fixture, run, where } from '../../helpers.js';

describe('corpus/parse', () => {
  it('reports each file that does not parse at the parser position, and reads the rest', () => {
    const found = run('corpus/parse', fixture('defects/parse'));
    expect(where(found)).toEqual(['api/v2/openapi.yaml:4:3', 'schemas/v2/binary.json:1:1', 'spec/v2/duplicate-key.json:3:3', 'spec/v2/trailing-comma.json:3:20']);
    expect(found[2]?.message).toMatch(/^duplicate key "\w+": an object has this member twice/);
    expect(found[3]?.message).toMatch(/invalid JSON/);
  });

  it('is quiet on a corpus that parses', () => {
    expect(run('corpus/parse', fixture('good'))).toEqual([]);
  });
});
