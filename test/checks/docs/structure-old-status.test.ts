/**
 * docs/structure on a status line of the form before 2.42.8: the line and the Sources footer that
 * lacks its RFCs are one migration, so one finding at the status line, fixed in two steps.
 */
import { testRule } from '../../rule-tester.js';

const DOC = 'spec/v2/core/x.md';
const doc = (status: string, footer?: string) => `# X\n\n> **Status: ${status}**\n\n## Why this exists\n\nText.\n${footer ? `\n${footer}\n` : ''}`;

testRule('docs/structure', {
  valid: [{ name: 'a migrated status line with its RFCs in the footer', files: { [DOC]: doc('Draft.', '*Sources: RFC 0168, RFC 0171.*') } }],
  invalid: [
    {
      name: 'an old status line and no footer: one finding, the footer added and then the line rewritten',
      files: { [DOC]: doc('Draft · v2.0.0-rc (2026-09-03) · RFC 0171 §B, 0168.') },
      errors: [{ messageId: 'old-status', file: DOC, line: 3, column: 3, data: { status: 'Draft' } }],
      output: { [DOC]: doc('Draft.', '*Sources: RFC 0168, RFC 0171.*') },
    },
    {
      name: 'an old status line whose footer lacks one of its RFCs: one finding, not two',
      files: { [DOC]: doc('Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0137.', '*Sources: RFC 0137.*') },
      errors: [{ messageId: 'old-status', file: DOC, line: 3, column: 3, data: { status: 'Stable' } }],
      output: { [DOC]: doc('Stable.', '*Sources: RFC 0137, RFC 0177.*') },
    },
  ],
});
