import { doc } from '../../helpers.js';
import { caseFiles, testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

const BARE = 'Alpha depends on b.md, and see spec/v2/core/b.md too.';

const HEADERS = 'spec/v2/core/headers.md';
/** A document of one table row naming i18n.md, its status line followed by `status`. */
const headers = (status: string): string =>
  `# Headers\n\n> **Status: Stable.**${status}\n\n| \`Accept-Language\` | 1 | locale selection (i18n.md). |\n`;
const I18N = { 'spec/v2/core/i18n.md': doc('I18n', 'x') };

testRule('links/bare-doc-reference', {
  valid: [
    { name: 'the base corpus: documents named by links, and in code' },
    {
      name: 'is quiet on code, links, headings, unknown documents and non-corpus names',
      files: {
        'spec/v2/core/x.md': doc(
          'X',
          '`y.md` and [y.md](y.md) and [see](y.md), README.md, spec/v1/old.md, notes.mdx, ```y.md```.\n\n```text\ny.md\n```\n\n## About y.md',
        ),
        'spec/v2/core/y.md': doc('Y', 'y'),
      },
    },
    {
      name: 'leaves a document generated whole to its generator: its names come from the source',
      files: {
        [HEADERS]: headers(' Generated from `api/v2/openapi.yaml` by `scripts/derive-v2-api.py`; do not edit.'),
        ...I18N,
      },
    },
  ],
  invalid: [
    {
      name: 'fires on a corpus document named in prose, as a file name or a path, and links it from the citing file',
      ...cites(BARE),
      errors: [
        { messageId: 'bare-reference', file: A, line: 8, column: 18, data: { name: 'b.md', url: 'b.md' } },
        { messageId: 'bare-reference', file: A, line: 8, column: 32, data: { name: 'spec/v2/core/b.md', url: 'b.md' } },
      ],
      output: {
        [A]: caseFiles(cites('Alpha depends on [b.md](b.md), and see [spec/v2/core/b.md](b.md) too.'))[A] as string,
      },
    },
    {
      name: 'links from the citing file, wherever the target lives',
      files: { 'docs/guide.md': '# G\n\nSee packs.md.\n', 'spec/v2/core/packs.md': doc('Packs', 'x') },
      errors: [
        {
          messageId: 'bare-reference',
          file: 'docs/guide.md',
          line: 3,
          column: 5,
          data: { name: 'packs.md', url: '../spec/v2/core/packs.md' },
        },
      ],
      output: { 'docs/guide.md': '# G\n\nSee [packs.md](../spec/v2/core/packs.md).\n' },
    },
    {
      name: 'reads a table cell of a document not generated',
      files: { [HEADERS]: headers(''), ...I18N },
      errors: [
        { messageId: 'bare-reference', file: HEADERS, line: 5, column: 45, data: { name: 'i18n.md', url: 'i18n.md' } },
      ],
      output: { [HEADERS]: headers('').replace('(i18n.md)', '([i18n.md](i18n.md))') },
    },
  ],
});
