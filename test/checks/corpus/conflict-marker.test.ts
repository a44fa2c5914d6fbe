import { describe, expect, it } from 'vitest';
import { fixture, run, where } from '../../helpers.js';

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
