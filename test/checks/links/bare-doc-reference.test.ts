import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { caseFiles, testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

const BARE = 'Alpha depends on b.md, and see spec/v2/core/b.md too.';

testRule('links/bare-doc-reference', {
  valid: [{ name: 'the base corpus: documents named by links, and in code' }],
  invalid: [
    {
      name: 'fires on a corpus document named in prose, as a file name or a path, and links it from the citing file',
      ...cites(BARE),
      errors: [
        { messageId: 'bare-reference', file: A, line: 8, column: 18, data: { name: 'b.md', url: 'b.md' } },
        { messageId: 'bare-reference', file: A, line: 8, column: 32, data: { name: 'spec/v2/core/b.md', url: 'b.md' } },
      ],
      output: { [A]: caseFiles(cites('Alpha depends on [b.md](b.md), and see [spec/v2/core/b.md](b.md) too.'))[A] as string },
    },
  ],
});

describe('links/bare-doc-reference', () => {

  it('links from the citing file, wherever the target lives', () => {
    const files = { 'docs/guide.md': '# G\n\nSee packs.md.\n', 'spec/v2/core/packs.md': doc('Packs', 'x') };
    const [finding] = run('links/bare-doc-reference', files);
    expect(finding?.fix?.text).toBe('[packs.md](../spec/v2/core/packs.md)');
  });

  it('is quiet on code, links, headings, unknown documents and non-corpus names', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', '`y.md` and [y.md](y.md) and [see](y.md), README.md, spec/v1/old.md, notes.mdx, ```y.md```.\n\n```text\ny.md\n```'),
      'spec/v2/core/y.md': doc('Y', 'y'),
    };
    expect(run('links/bare-doc-reference', files)).toEqual([]);
    expect(run('links/bare-doc-reference', fixture('good'))).toEqual([]);
  });

  it('leaves a document generated whole to its generator: its names come from the source (upstream\'s headers.md)', () => {
    const generated = (status: string) => `# Headers\n\n> **Status: Stable.**${status}\n\n| \`Accept-Language\` | 1 | locale selection (i18n.md). |\n`;
    const files = (status: string) => ({ 'spec/v2/core/headers.md': generated(status), 'spec/v2/core/i18n.md': doc('I18n', 'x') });
    expect(run('links/bare-doc-reference', files(' Generated from `api/v2/openapi.yaml` by `scripts/derive-v2-api.py`; do not edit.'))).toEqual([]);
    expect(where(run('links/bare-doc-reference', files('')))).toEqual(['spec/v2/core/headers.md:5:45']);
  });
});
