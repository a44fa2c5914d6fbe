import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { runRule, testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

const BROKEN = cites(
  'Broken: [b.md](b.md#no-such-heading), a slip [b.md](b.md#Some-heading), [gone](#gone), a pointer [nope](../things.json#/nope), [one](../things.json#/things/0).',
);

testRule('links/anchor', {
  valid: [{ name: 'the base corpus: headings, a numbered heading, a same-file anchor and a table cell link' }],
  invalid: [
    {
      name: 'fires on a missing heading, a case slip, a missing same-file anchor and a wrong JSON pointer, not on a right one',
      ...BROKEN,
      errors: [
        {
          messageId: 'no-heading',
          file: A,
          line: 8,
          column: 9,
          data: { target: 'spec/v2/core/b.md', fragment: 'no-such-heading' },
        },
        {
          messageId: 'no-heading',
          file: A,
          line: 8,
          column: 46,
          data: { target: 'spec/v2/core/b.md', fragment: 'Some-heading' },
        },
        {
          messageId: 'no-heading',
          file: A,
          line: 8,
          column: 73,
          data: { target: 'spec/v2/core/a.md', fragment: 'gone' },
        },
        {
          messageId: 'no-pointer',
          file: A,
          line: 8,
          column: 98,
          data: { target: 'spec/v2/things.json', pointer: '/nope' },
        },
      ],
    },
  ],
});

describe('links/anchor', () => {
  it('names the heading a case slip meant', () => {
    expect(runRule('links/anchor', BROKEN).diagnostics[1]?.hint).toBe('did you mean #some-heading?');
  });

  it('accepts explicit ids, duplicate-heading suffixes and GitHub line anchors', () => {
    const files = {
      'spec/v2/core/x.md': doc(
        'X',
        '<a id="pinned"></a>\n\n## Notes\n\n## Notes\n\n[a](#pinned) [b](#notes-1) [c](y.md#L10-L12) [d](y.md#why-this-exists)',
      ),
      'spec/v2/core/y.md': doc('Y', 'text'),
    };
    expect(run('links/anchor', files)).toEqual([]);
    expect(run('links/anchor', fixture('good'))).toEqual([]);
  });
  it('reads the links written in the strings of JSON and YAML documents', () => {
    const json =
      '{ "description": "See [why](../spec/v2/core/y.md#why-this-exists) and [no](../spec/v2/core/y.md#nope)." }';
    const files = { 'spec/v2/core/y.md': doc('Y', 'text'), 'schemas/x.schema.json': json };
    const found = run('links/anchor', files);
    expect(where(found)).toEqual(['schemas/x.schema.json:1:71']);
    expect(found[0]?.message).toBe('spec/v2/core/y.md has no heading with anchor #nope');
    expect(run('links/anchor', { ...files, 'schemas/x.schema.json': json.replace('#nope', '#y') })).toEqual([]);
  });
});
