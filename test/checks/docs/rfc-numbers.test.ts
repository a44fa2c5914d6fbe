import { doc } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const RUNS = 'spec/v2/core/runs.md';
const STATUS_LINE = ['# Runs', '', '> **Status: Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0137.**', '', '## Why this exists', '', 'A run MUST carry its id.', ''].join('\n');

const DEFECTS = [
  '# Runs',
  '',
  '> **Status: Stable.**',
  '',
  '## Why this exists (RFC 0169)',
  '',
  'As RFC 0144 says, a run MUST carry its id.',
  '',
  '| Field | Meaning |',
  '| --- | --- |',
  '| eventId | see RFC 0150 |',
  '',
  '*Sources: RFC 0144.*',
  '',
].join('\n');

const OWNERS = [
  '# Capabilities',
  '',
  '> **Status: Stable.**',
  '',
  '## Why this exists',
  '',
  '### § canvas',
  '',
  'Witness `claims-check`; owner RFC 0193; facets `kinds`.',
  '',
  '| Field | Value |',
  '| --- | --- |',
  '| **owning RFC** | RFC 0144 |',
  '| **advertised as** | `extensions.<org>.canvas` (RFC 0169 §A.4) |',
  '',
  'Installs follow the host policy ([RFC 0043](https://example.org/RFCS/0043-policy.md)), as RFC 0096 stages them.',
  '',
  '*Sources: RFC 0043, RFC 0144, RFC 0193.*',
  '',
].join('\n');

testRule('docs/rfc-numbers', {
  valid: [
    { name: 'the base corpus: RFC numbers in the Sources footer only' },
    { name: 'an IETF RFC is a standard, cited where it is used', files: { [RUNS]: doc('Runs', 'JCS is RFC 8785, a standard cited where it is used.\n\n```text\nRFC 0137 in a code block\n```') } },
    { name: 'a core document\'s status line is docs/structure\'s', files: { [RUNS]: STATUS_LINE } },
    { name: 'generated text is its generator\'s', files: { 'spec/v2/generated/codes.md': '# Codes\n\n> **Status: Stable.** Generated from `spec/v2/errors.json`; do not edit.\n\nSee RFC 0171.\n', [RUNS]: doc('Runs', '<!-- generated: t from x; do not edit -->\nRFC 0171\n<!-- /generated: t -->') } },
    { name: 'prose outside the configured paths is not read', files: { 'spec/v1/old.md': DEFECTS } },
  ],
  invalid: [
    {
      name: 'an RFC number in a heading, running text and a table cell',
      files: { [RUNS]: DEFECTS },
      errors: [
        { messageId: 'rfc-in-prose', file: RUNS, line: 5, column: 21, endLine: 5, endColumn: 29, data: { text: 'RFC 0169', where: 'a heading' } },
        { messageId: 'rfc-in-prose', file: RUNS, line: 7, column: 4, data: { text: 'RFC 0144', where: 'running text' } },
        { messageId: 'rfc-in-prose', file: RUNS, line: 11, column: 17, data: { text: 'RFC 0150', where: 'a table cell' } },
      ],
    },
    {
      name: 'an extension\'s status banner is read',
      files: { 'spec/v2/ext/canvas/README.md': ['# `canvas` — extension', '', '> **Status: Draft.** Extension document (RFC 0169 §B.3).', '', 'A host MAY draw.', ''].join('\n') },
      errors: [{ messageId: 'rfc-in-prose', file: 'spec/v2/ext/canvas/README.md', line: 3, column: 42, data: { text: 'RFC 0169', where: 'the status banner' } }],
    },
    {
      name: 'a restated family owner and a linked RFC are left alone; the numbers beside them are not',
      files: { 'spec/v2/core/capabilities.md': OWNERS },
      errors: [
        { messageId: 'rfc-in-prose', file: 'spec/v2/core/capabilities.md', line: 14, column: 50, data: { text: 'RFC 0169', where: 'a table cell' } },
        { messageId: 'rfc-in-prose', file: 'spec/v2/core/capabilities.md', line: 16, column: 91, data: { text: 'RFC 0096', where: 'running text' } },
      ],
    },
    {
      name: 'the pattern of the project\'s RFC numbers is an option',
      files: { [RUNS]: doc('Runs', 'As PEP 0008 says, a run MUST carry its id.') },
      config: { rules: { 'docs/rfc-numbers': ['error', { rfcPattern: '\\bPEP \\d{4}\\b' }] } },
      errors: [{ messageId: 'rfc-in-prose', file: RUNS, line: 7, column: 4, data: { text: 'PEP 0008', where: 'running text' } }],
    },
  ],
});
