import { doc } from '../../helpers.js';
import { caseFiles, testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

const RULE = 'links/section-ref';
const X = 'spec/v2/core/x.md';
const Y = 'spec/v2/core/y.md';
const B = 'spec/v2/core/b.md';

const UNRESOLVED =
  'Alpha cites [b.md §"Imaginary"](b.md#some-heading), so does b.md §7 here, and [b.md §"Some heading"](b.md) lacks its anchor.';

/** A document whose headings the citations of `x.md` name: words, numbers, a sign-labelled one, a code one. */
const Y_HEADINGS = doc('Y', '## Types\n\n## 1. Paths\n\n### § supportedEnvelopes\n\n## `memory`');

/** The same places in prose, a heading, a table cell and code, each citing `y.md` by `cite(n)`. */
const EVERYWHERE = (cite: (place: string) => string): string =>
  doc(
    'X',
    [
      `Prose: ${cite('prose')}.`,
      '',
      `### Heading citing ${cite('heading')}`,
      '',
      '| Column | Cell |',
      '| --- | --- |',
      `| a | ${cite('cell')} |`,
      '',
      `In code: \`${cite('code')}\`.`,
    ].join('\n'),
  );

const BROKEN_EVERYWHERE = EVERYWHERE(
  (place) =>
    ({
      prose: 'y.md §Nope and `y.md` §"Gone" and [y.md](y.md) §`limits`',
      heading: 'y.md §9',
      cell: '`y.md` §Missing',
      code: 'y.md §Absent',
    })[place] ?? '',
);
const GOOD_EVERYWHERE = EVERYWHERE(
  (place) =>
    ({
      prose: 'y.md §Types and `y.md` §"Types" and [y.md](y.md) §`memory`, y.md §supportedEnvelopes',
      heading: 'y.md §1',
      cell: '`y.md` §Types',
      code: 'y.md §1',
    })[place] ?? '',
);

const REPLAY = doc('Replay', '## Suppression\n\nA replay MUST NOT re-deliver.');
const threat = (companions: string): string =>
  `# Threat model\n\n> **Scope:** ${companions}\n\n**Rule.** \`replay.md\` §"Host fan-out" holds.\n`;

const EVENTS = doc('Events', '## Types');
const JSON_CITES = [
  '{',
  '  "$comment": "See events.md §Types and events.md §Nope.",',
  '  "rows": [{ "source": "spec/v2/core/events.md §\\"Gone\\" (\\u00a7)", "description": "\\u2014 `events.md` §Missing" }]',
  '}',
].join('\n');
const YAML_CITES = [
  'paths:',
  '  /x:',
  '    description: Per events.md §Nope here.',
  '    note: |',
  '      first line',
  '      then `events.md` §Gone too',
  '',
].join('\n');

const OUTSIDE = {
  [X]: doc('X', 'See `spec/v1/old.md` §Gone and `RFCS/0057-*` §D.'),
  'spec/v2/errors.json': '{ "rows": [{ "source": "spec/v1/old.md §\\"Error shape\\"" }] }',
};

/** Citations of documents under spec/v1/ in every form: relative, rooted, linked, bare and named elsewhere, bare in a file citing v1. */
const EXTERNAL_FORMS = {
  [X]: doc(
    'X',
    'See ../../v1/old.md §Gone, /spec/v1/old.md §Gone and [old.md §Gone](../../v1/old.md#gone).\n\nThe v1 text is `spec/v1/replay.md`; its replay.md §Fork stays.',
  ),
  [Y]: doc('Y', 'The v1 texts: spec/v1/agents.md. See memory.md §Goals.'),
  'spec/v2/core/z.md': doc('Z', 'See memory.md §Goals and tools.md §Catalog.'),
  'spec/v2/core/old.md': doc('Old', 'Nothing here.'),
};

const external = (prefixes: string[]) => ({ rules: { [RULE]: ['error', { external: prefixes }] } });
/** A quoted or numbered citation names its heading whole; a short one (§Word, §`name`) the heading it is or begins. */
const SHORT_CITATION = /^§(?!"|\d|[A-Z](?:\.\d+)+[a-z]?$|[A-Z]$)/;
const noSection = (file: string, line: number, column: number, target: string, citation: string) => ({
  messageId: SHORT_CITATION.test(citation) ? 'no-section-led-by' : 'no-section',
  file,
  line,
  column,
  data: { target, citation },
});
const notInCorpus = (file: string, line: number, column: number, target: string, citation: string) => ({
  messageId: 'not-in-corpus',
  file,
  line,
  column,
  data: { target, citation },
  severity: 'warning' as const,
});
/** The same, where the config sets the rule's options and with them its severity, which applies to every finding. */
const notInCorpusConfigured = (file: string, line: number, column: number, target: string, citation: string) => ({
  messageId: 'not-in-corpus',
  file,
  line,
  column,
  data: { target, citation },
});

testRule(RULE, {
  valid: [
    { name: 'the base corpus, whose citations all resolve' },
    {
      name: 'resolves quoted, numbered, appendix, word and same-document citations, and a range after a link; external standards are not judged',
      files: {
        [X]: doc(
          'X',
          [
            '[y.md §"Layer 1: Idempotency-Key"](y.md#layer-1-idempotency-key), [y.md §1.4](y.md#14-response-version-header),',
            '[y.md §6](y.md#6-errors), [y.md §B.2](y.md#b2-extra), [y.md §Snapshot](y.md#snapshot), [§"Why this exists"](#why-this-exists).',
            'Ranges follow their document: [y.md](y.md) §1.4 and §6; RFC 9110 §8.8.3 and BCP 47 §2 are external standards.',
          ].join('\n'),
        ),
        [Y]: doc(
          'Y',
          '## Layer 1: `Idempotency-Key`\n\n## Snapshot\n\n## 1. Negotiation\n\n### 1.4 Response version header\n\n## 6. Errors\n\n## B.2 Extra',
        ),
      },
    },
    {
      name: 'does not guess a bare name into spec/v2/ from an unversioned file that cites v1 documents',
      files: {
        'spec/v2/core/replay.md': REPLAY,
        'SECURITY/threat-model-replay.md': threat('`spec/v1/replay.md` and `spec/v1/webhooks.md`'),
      },
    },
    {
      name: 'is quiet in prose, a heading, a table cell and code when each citation resolves',
      files: { [X]: GOOD_EVERYWHERE, [Y]: Y_HEADINGS },
    },
    {
      name: 'leaves alone what is not a citation of a corpus section: other standards, lettered RFC sections, families, labels, sign-headed headings',
      files: {
        [X]: [
          '# X',
          '',
          '> **Status: Stable · v2.0.12 (2026-09-10) · RFC 0176 (§A–§B, §D–§E), 0171 §A, 0170 §A.3.**',
          '',
          '## Why this exists',
          '',
          '### § selfLabel',
          '',
          'A2A §3.4.3; Martin Fowler, *Event Sourcing* §"External Updates"; SemVer §11.',
          'Lettered sections of the RFC this document implements: (§B.1), §D.2; a family: §host.*.',
          '[`spec/v1/host.md`](https://example.com/spec/v1/host.md#hostchat) (§host.chat).',
          'The growth rule, §0, is named corpus-wide by its heading; so is § a2a, here.',
          '',
          '### § a2a',
          '',
        ].join('\n'),
        'spec/v2/core/overview.md': doc('Overview', '## §0 Closed-enum growth rule'),
      },
    },
    {
      name: 'a bare §1.2 in a block that names an RFC cites the RFC',
      files: { [X]: doc('X', '## Scope\n\nRFC 9110 sets the limits; §1.2 applies.') },
    },
    {
      name: 'a bare §1.2 in a block that links another document cites that one',
      files: { [X]: doc('X', '## Scope\n\nThe limits of [y.md](y.md) apply, §1.2 in particular.') },
    },
    {
      name: 'a bare §1.2 resolves to its own document numbered so',
      files: { [X]: doc('X', '## 1. Scope\n\n### 1.2 Limits\n\nThe limits of §1.2 apply.') },
    },
    {
      name: 'reads YAML strings, quiet when each citation resolves',
      files: {
        'spec/v2/core/events.md': EVENTS,
        'api/v2/x.yaml': YAML_CITES.replace('§Nope', '§Types').replace('§Gone', '§Types'),
      },
    },
  ],
  invalid: [
    {
      name: 'fires where each unresolved citation is written, and on a link that stops at the document, which its fix completes',
      ...cites(UNRESOLVED),
      errors: [
        noSection(A, 8, 19, B, '§"Imaginary"'),
        noSection(A, 8, 66, B, '§7'),
        {
          messageId: 'link-to-document',
          file: A,
          line: 8,
          column: 85,
          data: { citation: '§"Some heading"', fragment: '', heading: 'some-heading' },
        },
      ],
      output: { [A]: caseFiles(cites(UNRESOLVED.replace('(b.md) lacks', '(b.md#some-heading) lacks')))[A] as string },
    },
    {
      name: 'judges a bare name of a corpus document in a file that cites no v1 document',
      files: { 'spec/v2/core/replay.md': REPLAY, 'SECURITY/threat-model-replay.md': threat('the fork surface') },
      errors: [noSection('SECURITY/threat-model-replay.md', 5, 23, 'spec/v2/core/replay.md', '§"Host fan-out"')],
      output: null,
    },
    {
      name: 'names the heading a wrong fragment should have been, and its fix points the link there',
      files: { [X]: doc('X', 'See [y.md §"Two"](y.md#one).'), [Y]: doc('Y', '## One\n\n## Two') },
      errors: [
        {
          messageId: 'link-to-other-heading',
          file: X,
          line: 7,
          column: 11,
          data: { citation: '§"Two"', fragment: 'one', heading: 'two' },
        },
      ],
      output: { [X]: doc('X', 'See [y.md §"Two"](y.md#two).') },
    },
    {
      name: 'rewrites a citation of a renamed heading, and its link, to the heading it most likely means now',
      files: {
        [X]: doc('X', 'See [y.md §"Replay outcome"](y.md#replay-outcome).'),
        [Y]: doc('Y', '## Replay outcomes\n\n## Other'),
      },
      errors: [noSection(X, 7, 11, Y, '§"Replay outcome"')],
      output: { [X]: doc('X', 'See [y.md §"Replay outcomes"](y.md#replay-outcomes).') },
    },
    {
      name: 'rewrites a citation of a renamed heading in a JSON string',
      files: {
        [Y]: doc('Y', '## Replay outcomes\n\n## Other'),
        'spec/v2/cites.json': '{ "source": "spec/v2/core/y.md §\\"Replay outcome\\"" }\n',
      },
      errors: [noSection('spec/v2/cites.json', 1, 32, Y, '§"Replay outcome"')],
      output: { 'spec/v2/cites.json': '{ "source": "spec/v2/core/y.md §\\"Replay outcomes\\"" }\n' },
    },
    {
      name: 'reads prose, headings, table cells and code spans, each at its own column',
      files: { [X]: BROKEN_EVERYWHERE, [Y]: Y_HEADINGS },
      errors: [
        noSection(X, 7, 13, Y, '§Nope'),
        noSection(X, 7, 30, Y, '§"Gone"'),
        noSection(X, 7, 55, Y, '§`limits`'),
        noSection(X, 9, 25, Y, '§9'),
        noSection(X, 13, 14, Y, '§Missing'),
        noSection(X, 15, 16, Y, '§Absent'),
      ],
      output: null,
    },
    {
      name: 'reads a code span that shows a heading line as the heading it shows, not as a citation',
      files: {
        [X]: doc(
          'X',
          [
            '## Records',
            '',
            'Each record is a `### § key` heading; `## §0 Rule` labels a rule, `§Nope` in code is still cited.',
            '',
            '| Form | Example |',
            '| --- | --- |',
            '| heading | `#### § other` |',
          ].join('\n'),
        ),
      },
      errors: [noSection(X, 9, 68, 'this document', '§Nope')],
      output: null,
    },
    {
      name: 'holds an unqualified citation to the document it is written in, when that document is numbered so',
      files: { [X]: doc('X', '## 1. One\n\nSee §2 and §1; the RFC’s §B.2 is not ours.') },
      errors: [noSection(X, 9, 5, 'this document', '§2')],
      output: null,
    },
    {
      name: 'holds a bare §1.2 to its own document even when that one has no numbered headings',
      files: { [X]: doc('X', '## Scope\n\nThe limits of §1.2 apply.') },
      errors: [noSection(X, 9, 15, 'this document', '§1.2')],
      output: null,
    },
    {
      name: 'reads JSON strings (descriptions, source, $comment) at the citation, escapes counted',
      files: { 'spec/v2/core/events.md': EVENTS, 'spec/v2/cites.json': JSON_CITES },
      errors: [
        noSection('spec/v2/cites.json', 2, 51, 'spec/v2/core/events.md', '§Nope'),
        noSection('spec/v2/cites.json', 3, 48, 'spec/v2/core/events.md', '§"Gone"'),
        noSection('spec/v2/cites.json', 3, 104, 'spec/v2/core/events.md', '§Missing'),
      ],
      output: null,
    },
    {
      name: 'reads YAML strings: one-line ones at the citation, a literal block at its line',
      files: { 'spec/v2/core/events.md': EVENTS, 'api/v2/x.yaml': YAML_CITES },
      errors: [
        noSection('api/v2/x.yaml', 3, 32, 'spec/v2/core/events.md', '§Nope'),
        noSection('api/v2/x.yaml', 6, 24, 'spec/v2/core/events.md', '§Gone'),
      ],
      output: null,
    },
    {
      name: 'says a cited document outside the corpus cannot be checked, in markdown and in JSON',
      files: OUTSIDE,
      errors: [
        notInCorpus(X, 7, 22, 'spec/v1/old.md', '§Gone'),
        notInCorpus(X, 7, 46, 'RFCS/0057-*', '§D'),
        notInCorpus('spec/v2/errors.json', 1, 40, 'spec/v1/old.md', '§"Error shape"'),
      ],
      output: null,
    },
    {
      name: 'checks a cited document once the corpus includes it',
      files: { ...OUTSIDE, 'spec/v1/old.md': '# Old\n\n## Gone\n\n## Error shape\n' },
      errors: [notInCorpus(X, 7, 46, 'RFCS/0057-*', '§D')],
      output: null,
    },
    {
      name: 'says nothing of citations into the path prefixes its "external" option names, and still of the others',
      files: OUTSIDE,
      config: external(['spec/v1/']),
      errors: [notInCorpusConfigured(X, 7, 46, 'RFCS/0057-*', '§D')],
      output: null,
    },
    {
      name: 'leaves a document under an "external" prefix alone in every form a citation names it, and reports a bare name of no corpus document elsewhere',
      files: EXTERNAL_FORMS,
      config: external(['spec/v1/']),
      errors: [
        notInCorpusConfigured('spec/v2/core/z.md', 7, 15, 'memory.md', '§Goals'),
        notInCorpusConfigured('spec/v2/core/z.md', 7, 35, 'tools.md', '§Catalog'),
      ],
      output: null,
    },
    {
      name: 'without the "external" option reports each of those forms as a document outside the corpus',
      files: EXTERNAL_FORMS,
      errors: [
        notInCorpus(X, 7, 21, '../../v1/old.md', '§Gone'),
        notInCorpus(X, 7, 44, 'spec/v1/old.md', '§Gone'),
        notInCorpus(X, 9, 51, 'replay.md', '§Fork'),
        notInCorpus(Y, 7, 48, 'memory.md', '§Goals'),
        notInCorpus('spec/v2/core/z.md', 7, 15, 'memory.md', '§Goals'),
        notInCorpus('spec/v2/core/z.md', 7, 35, 'tools.md', '§Catalog'),
      ],
      output: null,
    },
  ],
});
