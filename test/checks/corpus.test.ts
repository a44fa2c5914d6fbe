import { describe, expect, it } from 'vitest';
import { fixture, run, where } from '../helpers.js';

describe('corpus/parse', () => {
  it('reports each file that does not parse at the parser position, and reads the rest', () => {
    const found = run('corpus/parse', fixture('defects/parse'));
    expect(where(found)).toEqual(['api/v2/openapi.yaml:4:3', 'schemas/v2/binary.json:1:1', 'spec/v2/duplicate-key.json:3:3', 'spec/v2/trailing-comma.json:3:20']);
    expect(found[2]?.message).toMatch(/unique/);
    expect(found[3]?.message).toMatch(/invalid JSON/);
  });

  it('is quiet on a corpus that parses', () => {
    expect(run('corpus/parse', fixture('good'))).toEqual([]);
  });
});

describe('corpus/conflict-marker', () => {
  it('finds each marker line in markdown and YAML', () => {
    const found = run('corpus/conflict-marker', fixture('defects/conflict'));
    expect(where(found)).toEqual(['api/v2/openapi.yaml:2:1', 'spec/v2/core/a.md:4:1', 'spec/v2/core/a.md:6:1', 'spec/v2/core/a.md:8:1']);
  });

  it('does not mistake longer rules, quoted markers or markers mid-line for conflicts', () => {
    const files = { 'spec/x.md': '# T\n\n========\n\nA line with <<<<<<< inside.\n\n    ======= indented\n', 'spec/y.json': '{"a": "<<<<<<< not at line start"}\n' };
    expect(run('corpus/conflict-marker', files)).toEqual([]);
    expect(run('corpus/conflict-marker', fixture('good'))).toEqual([]);
  });
});
