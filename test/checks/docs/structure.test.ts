import { testRule } from '../../rule-tester.js';

const RULE = 'docs/structure';
const X = 'spec/v2/core/x.md';
const C = 'spec/v2/core/c.md';
const D = 'spec/v2/core/d.md';

/** A core document with the status line `**Status: ${status}**` and `body` under "Why this exists". */
const old = (status: string, body: string): string => `# X\n\n> **Status: ${status}**\n\n## Why this exists\n\n${body}\n`;

/** The families a Normative home may name: the base corpus's `alpha`, and two more. */
const DECLARATION = '{\n  "families": [\n    { "key": "alpha", "anchor": "core" },\n    { "key": "forms", "anchor": "core" },\n    { "key": "idempotency", "anchor": "core" }\n  ]\n}\n';

/** One document with every defect of title, status, sections and Sources footer, and one with no status and a malformed source. */
const DEFECTIVE = [
  'Intro before the title.',
  '',
  '# C',
  '',
  '> **Status: Stable · RFC 0168.**',
  '> **Normative home:** `nosuch`.',
  '',
  '## Background',
  '',
  '# Second title',
  '',
  '*Sources: RFC 0177, RFC 0137, RFC 0137.*',
  '',
  'Trailing paragraph.',
  '',
].join('\n');
const NO_STATUS = '# D\n\nNot a status line.\n\n## Why this exists\n\n*Sources: RFC 12.*\n';

const REGION = 'Intro.\n\n<!-- generated: t from x; do not edit -->\n| A |\n| --- |\n| b |\n<!-- /generated: t -->';
const GENERATED_STATUS = '# X\n\n> **Status: Stable · RFC 0165.** Generated from `api/v2/openapi.yaml`; do not edit.\n\n## Why this exists\n\nText.\n\n*Sources: RFC 0165, RFC 0171.*\n';
const HAND_STATUS = '# X\n\n> **Status: Stable · RFC 0165.** Kept by hand, reviewed each release.\n\n## Why this exists\n\nText.\n\n*Sources: RFC 0165, RFC 0171.*\n';

testRule(RULE, {
  valid: [
    { name: 'the base corpus: house style, and a Normative home taken as it is while no declaration registry exists' },
    { name: 'checks only core documents', files: { 'docs/notes.md': 'no title at all\n' } },
    { name: 'accepts a Normative home that names a family of the declaration', files: { 'spec/v2/declaration.json': DECLARATION } },
    { name: 'leaves a migrated status line alone', files: { [X]: old('Stable.', 'Text.\n\n*Sources: RFC 0001.*') } },
    { name: 'accepts a footer of the form "RFCs 0002, 0007, 0022"', files: { [X]: old('Stable.', 'Text.\n\n*Sources: RFCs 0002, 0007, 0022.*') } },
    { name: 'accepts a footer of the form "RFCs 0101", one number', files: { [X]: old('Stable.', 'Text.\n\n*Sources: RFCs 0101.*') } },
    // What each fix below writes is itself in house style.
    { name: 'the status fix and the merge into a footer of the form "RFCs …", fixed', files: { [X]: old('Stable.', 'Text.\n\n*Sources: RFCs 0002, 0137, 0177.*') } },
    { name: 'the merge into a house-form footer, fixed', files: { [X]: old('Draft.', 'Text.\n\n*Sources: RFC 0043, RFC 0096, RFC 0170.*') } },
    { name: 'the footer added as the last line, fixed', files: { [X]: old('Stable.', 'Last paragraph.\n\n*Sources: RFC 0170, RFC 0171, RFC 0176.*') } },
    { name: 'the footer added after a generated region, fixed', files: { [X]: old('Stable.', `${REGION}\n\n*Sources: RFC 0008.*`) } },
  ],
  invalid: [
    {
      name: 'fires on each house-style defect at its line, and fixes the old status line and the footer it cites',
      files: { 'spec/v2/declaration.json': DECLARATION, [C]: DEFECTIVE, [D]: NO_STATUS },
      errors: [
        { messageId: 'no-title', file: C, line: 1, column: 1 },
        { messageId: 'old-status-with-rfcs', file: C, line: 5, column: 3, data: { found: '**Status: Stable · RFC 0168.**', status: 'Stable' } },
        { messageId: 'unknown-family', file: C, line: 6, column: 23, data: { family: 'nosuch' } },
        { messageId: 'first-section', file: C, line: 8, column: 1, data: { heading: 'Background' } },
        { messageId: 'second-title', file: C, line: 10, column: 1, data: { heading: 'Second title' } },
        // Findings at one place come in the order of their words.
        { messageId: 'sources-twice', file: C, line: 12, column: 1, data: { rfc: 'RFC 0137' } },
        { messageId: 'sources-not-last', file: C, line: 12, column: 1 },
        { messageId: 'sources-order', file: C, line: 12, column: 1, data: { before: 'RFC 0177', after: 'RFC 0137' } },
        { messageId: 'no-status', file: D, line: 3, column: 1 },
        { messageId: 'sources-item', file: D, line: 7, column: 1, data: { item: 'RFC 12' } },
      ],
      output: { [C]: DEFECTIVE.replace('**Status: Stable · RFC 0168.**', '**Status: Stable.**').replace('*Sources: RFC 0177, RFC 0137, RFC 0137.*', '*Sources: RFC 0137, RFC 0168, RFC 0177.*') },
    },
    {
      name: 'reports the pre-2.42.8 status line once (the footer that lacks its RFCs is the same migration), and fixes it by merging its RFCs into a footer of the form "RFCs 0002, 0007", ascending, without duplicates',
      files: { [X]: old('Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0002.', 'Text.\n\n*Sources: RFCs 0002, 0137.*') },
      errors: [
        { messageId: 'old-status-with-rfcs', file: X, line: 3, column: 3, data: { found: '**Status: Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0...', status: 'Stable' } },
      ],
      output: { [X]: old('Stable.', 'Text.\n\n*Sources: RFCs 0002, 0137, 0177.*') },
    },
    {
      name: 'merges into a house-form footer in its own form',
      files: { [X]: old('Draft · RFC 0170, 0043.', 'Text.\n\n*Sources: RFC 0043, RFC 0096.*') },
      errors: [
        { messageId: 'old-status-with-rfcs', file: X, line: 3, column: 3, data: { found: '**Status: Draft · RFC 0170, 0043.**', status: 'Draft' } },
      ],
      output: { [X]: old('Draft.', 'Text.\n\n*Sources: RFC 0043, RFC 0096, RFC 0170.*') },
    },
    {
      name: 'adds the footer as the last line when there is none, reading RFC lists with sections and bare numbers',
      files: { [X]: old('Stable · v2.0.12 (2026-09-10) · RFC 0176 (§A–§B, §D–§E), 0171 §A, 0170 §A.3.', 'Last paragraph.') },
      errors: [
        { messageId: 'old-status-with-rfcs', file: X, line: 3, column: 3 },
      ],
      output: { [X]: old('Stable.', 'Last paragraph.\n\n*Sources: RFC 0170, RFC 0171, RFC 0176.*') },
    },
    {
      name: 'adds the footer after a generated region that ends the document, not inside it',
      files: { [X]: old('Stable · RFC 0008.', REGION) },
      errors: [
        { messageId: 'old-status-with-rfcs', file: X, line: 3, column: 3 },
      ],
      output: { [X]: old('Stable.', `${REGION}\n\n*Sources: RFC 0008.*`) },
    },
    {
      name: "in a generated document, says to change its generator's status line and carries no fix",
      files: { [X]: GENERATED_STATUS },
      errors: [
        {
          messageId: 'old-status-with-rfcs',
          file: X,
          line: 3,
          column: 3,
          hint: 'this document is generated: change the status line its generator writes, then regenerate it',
        },
      ],
      output: null,
    },
    {
      name: 'only fixes the status line when the footer already lists every RFC, and keeps text after the status',
      files: { [X]: HAND_STATUS },
      errors: [{ messageId: 'old-status-with-rfcs', file: X, line: 3, column: 3 }],
      output: { [X]: HAND_STATUS.replace('**Status: Stable · RFC 0165.**', '**Status: Stable.**') },
    },
    {
      name: 'fixes an old status line that cites no RFC to the status word alone',
      files: { [X]: old('Draft · v2.0.3 (2026-01-02).', 'Text.') },
      errors: [{ messageId: 'old-status', file: X, line: 3, column: 3, data: { found: '**Status: Draft · v2.0.3 (2026-01-02).**', status: 'Draft' } }],
      output: { [X]: old('Draft.', 'Text.') },
    },
    {
      name: 'still holds a footer of the form "RFCs …" to ascending four-digit numbers',
      files: { [X]: old('Stable.', 'Text.\n\n*Sources: RFCs 0007, 0002, 12.*') },
      errors: [
        { messageId: 'sources-item', file: X, line: 9, column: 1, data: { item: '12' } },
        { messageId: 'sources-order', file: X, line: 9, column: 1, data: { before: 'RFC 0007', after: 'RFC 0002' } },
      ],
      output: null,
    },
    {
      name: 'holds the status line to its form, a Sources line to italics, and the status block free of RFC numbers',
      files: { [X]: '# X\n\n> Status: stable\n> Per RFC 0042.\n\n## Why this exists\n\nText.\n\nSources: RFC 0001.\n' },
      errors: [
        { messageId: 'status-form', file: X, line: 3, column: 1, data: { found: 'Status: stable' } },
        { messageId: 'rfc-in-status', file: X, line: 4, column: 7, data: { rfc: 'RFC 0042' } },
        { messageId: 'sources-not-italic', file: X, line: 10, column: 1 },
      ],
      output: null,
    },
    {
      name: 'fires on a document with no "Why this exists" section',
      files: { [X]: '# X\n\n> **Status: Draft.**\n\nText.\n' },
      errors: [{ messageId: 'no-why', file: X, line: 1, column: 1 }],
      output: null,
    },
  ],
});
