import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { LINKS } from './helpers.js';

describe('links/anchor', () => {
  it('fires on a missing heading, a case slip, a missing same-file anchor and a wrong JSON pointer', () => {
    const found = run('links/anchor', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:4:18', 'spec/v2/core/a.md:4:65', 'spec/v2/core/a.md:5:67', 'spec/v2/core/a.md:6:66']);
    expect(found[1]?.hint).toBe('did you mean #real-heading?');
  });

  it('accepts explicit ids, duplicate-heading suffixes and GitHub line anchors', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', '<a id="pinned"></a>\n\n## Notes\n\n## Notes\n\n[a](#pinned) [b](#notes-1) [c](y.md#L10-L12) [d](y.md#why-this-exists)'),
      'spec/v2/core/y.md': doc('Y', 'text'),
    };
    expect(run('links/anchor', files)).toEqual([]);
    expect(run('links/anchor', fixture('good'))).toEqual([]);
  });
  it('reads the links written in the strings of JSON and YAML documents', () => {
    const json = '{ "description": "See [why](../spec/v2/core/y.md#why-this-exists) and [no](../spec/v2/core/y.md#nope)." }';
    const files = { 'spec/v2/core/y.md': doc('Y', 'text'), 'schemas/x.schema.json': json };
    const found = run('links/anchor', files);
    expect(where(found)).toEqual(['schemas/x.schema.json:1:71']);
    expect(found[0]?.message).toBe('spec/v2/core/y.md has no heading with anchor #nope');
    expect(run('links/anchor', { ...files, 'schemas/x.schema.json': json.replace('#nope', '#y') })).toEqual([]);
  });
});
