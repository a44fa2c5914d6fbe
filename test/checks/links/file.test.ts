import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

testRule('links/file', {
  valid: [{ name: 'the base corpus: links to files that exist' }],
  invalid: [
    {
      name: 'fires on a missing target, a link out of the root, and a definition to nowhere',
      ...cites(
        'See [the missing doc](missing.md) and [outside](../../../../outside.md), and [a reference][nowhere].\n\n[nowhere]: gone.md\n',
      ),
      errors: [
        {
          messageId: 'missing-target',
          file: A,
          line: 8,
          column: 5,
          data: { kind: 'link', url: 'missing.md', target: 'spec/v2/core/missing.md' },
        },
        {
          messageId: 'escapes-root',
          file: A,
          line: 8,
          column: 39,
          data: { kind: 'link', url: '../../../../outside.md' },
        },
        {
          messageId: 'missing-target',
          file: A,
          line: 10,
          column: 1,
          data: { kind: 'definition', url: 'gone.md', target: 'spec/v2/core/gone.md' },
        },
      ],
    },
  ],
});

describe('links/file', () => {
  it('is quiet on existing files, directories, external URLs and same-file fragments', () => {
    expect(run('links/file', fixture('good'))).toEqual([]);
    const files = {
      'spec/v2/core/x.md': doc(
        'X',
        '[dir](../core/) [web](https://example.com/a.md) [mail](mailto:a@b.c) [top](#x) [self](x.md)',
      ),
    };
    expect(run('links/file', files)).toEqual([]);
  });
  it('reads the links written in the strings of JSON and YAML documents, relative to the document', () => {
    const yaml =
      'paths:\n  /x:\n    description: See [packs](../../spec/v2/core/packs.md) and [gone](../../spec/v2/core/gone.md).\n';
    const files = { 'spec/v2/core/packs.md': doc('Packs', 'text'), 'api/v2/x.yaml': yaml };
    expect(where(run('links/file', files))).toEqual(['api/v2/x.yaml:3:63']);
    expect(run('links/file', { ...files, 'api/v2/x.yaml': yaml.replace('gone.md', 'packs.md') })).toEqual([]);
  });
});
