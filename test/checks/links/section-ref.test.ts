import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../checks/index.js';
import { corpusFromFiles } from '../../../core/model/corpus.js';
import { runChecks } from '../../../core/run/engine.js';
import { doc, fixture, run, where } from '../../helpers.js';
import { caseFiles, testRule } from '../../rule-tester.js';
import { A, cites } from './helpers.js';

const UNRESOLVED = 'Alpha cites [b.md §"Imaginary"](b.md#some-heading), so does b.md §7 here, and [b.md §"Some heading"](b.md) lacks its anchor.';

testRule('links/section-ref', {
  valid: [{ name: 'the base corpus, whose citations all resolve' }],
  invalid: [
    {
      name: 'fires where each unresolved citation is written, and on a link that stops at the document, which its fix completes',
      ...cites(UNRESOLVED),
      errors: [
        { messageId: 'no-section', file: A, line: 8, column: 19, data: { target: 'spec/v2/core/b.md', citation: '§"Imaginary"' } },
        { messageId: 'no-section', file: A, line: 8, column: 66, data: { target: 'spec/v2/core/b.md', citation: '§7' } },
        { messageId: 'link-to-document', file: A, line: 8, column: 85, data: { citation: '§"Some heading"', fragment: '', heading: 'some-heading' } },
      ],
      output: { [A]: caseFiles(cites(UNRESOLVED.replace('(b.md) lacks', '(b.md#some-heading) lacks')))[A] as string },
    },
  ],
});

describe('links/section-ref', () => {
  it('resolves quoted, numbered, appendix, word and same-document citations', () => {
    const files = {
      'spec/v2/core/x.md': doc(
        'X',
        [
          '[y.md §"Layer 1: Idempotency-Key"](y.md#layer-1-idempotency-key), [y.md §1.4](y.md#14-response-version-header),',
          '[y.md §6](y.md#6-errors), [y.md §B.2](y.md#b2-extra), [y.md §Snapshot](y.md#snapshot), [§"Why this exists"](#why-this-exists).',
          'Ranges follow their document: [y.md](y.md) §1.4 and §6; RFC 9110 §8.8.3 and BCP 47 §2 are external standards.',
        ].join('\n'),
      ),
      'spec/v2/core/y.md': doc('Y', '## Layer 1: `Idempotency-Key`\n\n## Snapshot\n\n## 1. Negotiation\n\n### 1.4 Response version header\n\n## 6. Errors\n\n## B.2 Extra'),
    };
    expect(run('links/section-ref', files)).toEqual([]);
    expect(run('links/section-ref', fixture('good'))).toEqual([]);
  });

  it('does not guess a bare name into spec/v2/ from an unversioned file that cites v1 documents, and judges it where the file cites none', () => {
    const replay = doc('Replay', '## Suppression\n\nA replay MUST NOT re-deliver.');
    const threat = (companions: string) => `# Threat model\n\n> **Scope:** ${companions}\n\n**Rule.** \`replay.md\` §"Host fan-out" holds.\n`;
    const v1Scoped = { 'spec/v2/core/replay.md': replay, 'SECURITY/threat-model-replay.md': threat('`spec/v1/replay.md` and `spec/v1/webhooks.md`') };
    expect(run('links/section-ref', v1Scoped)).toEqual([]);
    const v2Only = { 'spec/v2/core/replay.md': replay, 'SECURITY/threat-model-replay.md': threat('the fork surface') };
    expect(run('links/section-ref', v2Only).map((d) => `${where([d])[0]} ${d.message}`)).toEqual(['SECURITY/threat-model-replay.md:5:23 spec/v2/core/replay.md has no section §"Host fan-out"']);
  });

  it('names the heading a wrong fragment should have been', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', 'See [y.md §"Two"](y.md#one).'),
      'spec/v2/core/y.md': doc('Y', '## One\n\n## Two'),
    };
    const [finding] = run('links/section-ref', files);
    expect(finding?.message).toBe('the link for §"Two" points at #one, but the cited heading is #two');
    expect(finding?.fix?.text).toBe('y.md#two');
  });

  describe('wherever a citation is written', () => {
    const y = doc('Y', '## Types\n\n## 1. Paths\n\n### § supportedEnvelopes\n\n## `memory`');

    it('reads prose, headings, table cells and code spans, each at its own column', () => {
      const files = {
        'spec/v2/core/x.md': doc(
          'X',
          [
            'Prose: y.md §Nope and `y.md` §"Gone" and [y.md](y.md) §`limits`.',
            '',
            '### Heading citing y.md §9',
            '',
            '| Column | Cell |',
            '| --- | --- |',
            '| a | `y.md` §Missing |',
            '',
            'In code: `y.md §Absent`.',
          ].join('\n'),
        ),
        'spec/v2/core/y.md': y,
      };
      const found = run('links/section-ref', files);
      expect(where(found)).toEqual([
        'spec/v2/core/x.md:7:13',
        'spec/v2/core/x.md:7:30',
        'spec/v2/core/x.md:7:55',
        'spec/v2/core/x.md:9:25',
        'spec/v2/core/x.md:13:14',
        'spec/v2/core/x.md:15:16',
      ]);
      expect(found.map((d) => d.message)).toEqual([
        'spec/v2/core/y.md has no section §Nope',
        'spec/v2/core/y.md has no section §"Gone"',
        'spec/v2/core/y.md has no section §`limits`',
        'spec/v2/core/y.md has no section §9',
        'spec/v2/core/y.md has no section §Missing',
        'spec/v2/core/y.md has no section §Absent',
      ]);
    });

    it('is quiet on the same places when each citation resolves', () => {
      const files = {
        'spec/v2/core/x.md': doc(
          'X',
          [
            'Prose: y.md §Types and `y.md` §"Types" and [y.md](y.md) §`memory`, y.md §supportedEnvelopes.',
            '',
            '### Heading citing y.md §1',
            '',
            '| Column | Cell |',
            '| --- | --- |',
            '| a | `y.md` §Types |',
            '',
            'In code: `y.md §1`.',
          ].join('\n'),
        ),
        'spec/v2/core/y.md': y,
      };
      expect(run('links/section-ref', files)).toEqual([]);
    });

    it('leaves alone what is not a citation of a corpus section', () => {
      const files = {
        'spec/v2/core/x.md': [
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
      };
      expect(run('links/section-ref', files)).toEqual([]);
    });

    it('reads a code span that shows a heading line as the heading it shows, not as a citation', () => {
      const files = {
        'spec/v2/core/x.md': doc('X', ['## Records', '', 'Each record is a `### § key` heading; `## §0 Rule` labels a rule, `§Nope` in code is still cited.', '', '| Form | Example |', '| --- | --- |', '| heading | `#### § other` |'].join('\n')),
      };
      const found = run('links/section-ref', files);
      expect(found.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual(['9:68 this document has no section §Nope']);
    });

    it('holds an unqualified citation to the document it is written in, when that document is numbered so', () => {
      const files = { 'spec/v2/core/x.md': doc('X', '## 1. One\n\nSee §2 and §1; the RFC’s §B.2 is not ours.') };
      const found = run('links/section-ref', files);
      expect(found.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual(['9:5 this document has no section §2']);
    });

    it('holds a bare §1.2 to its own document even when that one has no numbered headings, unless its block names another source', () => {
      const found = (body: string) => run('links/section-ref', { 'spec/v2/core/x.md': doc('X', body) }).map((d) => `${d.line}:${d.column} ${d.message}`);
      expect(found('## Scope\n\nThe limits of §1.2 apply.')).toEqual(['9:15 this document has no section §1.2']);
      expect(found('## Scope\n\nRFC 9110 sets the limits; §1.2 applies.')).toEqual([]);
      expect(found('## Scope\n\nThe limits of [y.md](y.md) apply, §1.2 in particular.')).toEqual([]);
      expect(found('## 1. Scope\n\n### 1.2 Limits\n\nThe limits of §1.2 apply.')).toEqual([]);
    });

    it('reads JSON strings (descriptions, source, $comment) at the citation, escapes counted', () => {
      const json = [
        '{',
        '  "$comment": "See events.md §Types and events.md §Nope.",',
        '  "rows": [{ "source": "spec/v2/core/events.md §\\"Gone\\" (\\u00a7)", "description": "\\u2014 `events.md` §Missing" }]',
        '}',
      ].join('\n');
      const found = run('links/section-ref', { 'spec/v2/core/events.md': doc('Events', '## Types'), 'spec/v2/things.json': json });
      expect(where(found)).toEqual(['spec/v2/things.json:2:51', 'spec/v2/things.json:3:48', 'spec/v2/things.json:3:104']);
      expect(found.map((d) => d.message)).toEqual([
        'spec/v2/core/events.md has no section §Nope',
        'spec/v2/core/events.md has no section §"Gone"',
        'spec/v2/core/events.md has no section §Missing',
      ]);
    });

    it('reads YAML strings: one-line ones at the citation, a literal block at its line', () => {
      const yaml = ['paths:', '  /x:', '    description: Per events.md §Nope here.', '    note: |', '      first line', '      then `events.md` §Gone too', ''].join('\n');
      const found = run('links/section-ref', { 'spec/v2/core/events.md': doc('Events', '## Types'), 'api/v2/x.yaml': yaml });
      expect(where(found)).toEqual(['api/v2/x.yaml:3:32', 'api/v2/x.yaml:6:24']);
      const clean = yaml.replace('§Nope', '§Types').replace('§Gone', '§Types');
      expect(run('links/section-ref', { 'spec/v2/core/events.md': doc('Events', '## Types'), 'api/v2/x.yaml': clean })).toEqual([]);
    });

    it('says a cited document outside the corpus cannot be checked, unless the corpus includes it', () => {
      const files = {
        'spec/v2/core/x.md': doc('X', 'See `spec/v1/old.md` §Gone and `RFCS/0057-*` §D.'),
        'spec/v2/errors.json': '{ "rows": [{ "source": "spec/v1/old.md §\\"Error shape\\"" }] }',
      };
      const found = run('links/section-ref', files);
      expect(found.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.message}`)).toEqual([
        'spec/v2/core/x.md:7:22 warning spec/v1/old.md is not a document of the corpus, so §Gone cannot be checked',
        'spec/v2/core/x.md:7:46 warning RFCS/0057-* is not a document of the corpus, so §D cannot be checked',
        'spec/v2/errors.json:1:40 warning spec/v1/old.md is not a document of the corpus, so §"Error shape" cannot be checked',
      ]);
      const included = { ...files, 'spec/v1/old.md': '# Old\n\n## Gone\n\n## Error shape\n' };
      expect(where(run('links/section-ref', included))).toEqual(['spec/v2/core/x.md:7:46']);
    });

    it('says nothing of citations into the path prefixes its "external" option names, and still of the others', () => {
      const files = {
        'spec/v2/core/x.md': doc('X', 'See `spec/v1/old.md` §Gone and `RFCS/0057-*` §D.'),
        'spec/v2/errors.json': '{ "rows": [{ "source": "spec/v1/old.md §\\"Error shape\\"" }] }',
      };
      const settings = new Map([['links/section-ref', { enabled: true, severity: 'error' as const, options: { external: ['spec/v1/'] }, configured: false }]]);
      const gate = CHECKS.filter((check) => check.id === 'links/section-ref');
      expect(where(runChecks(corpusFromFiles('/nonexistent-root', files), gate, { settings }))).toEqual(['spec/v2/core/x.md:7:46']);
    });

    it('leaves a document under an "external" prefix alone in every form a citation names it: a path relative to the citing file, a leading slash, a link, a bare name the corpus names under the prefix, or one written by a file that cites under it', () => {
      const settings = (external: string[]) => new Map([['links/section-ref', { enabled: true, severity: 'error' as const, options: { external }, configured: false }]]);
      const gate = CHECKS.filter((check) => check.id === 'links/section-ref');
      const files = {
        'spec/v2/core/x.md': doc('X', 'See ../../v1/old.md §Gone, /spec/v1/old.md §Gone and [old.md §Gone](../../v1/old.md#gone).\n\nThe v1 text is `spec/v1/replay.md`; its replay.md §Fork stays.'),
        'spec/v2/core/y.md': doc('Y', 'The v1 texts: spec/v1/agents.md. See memory.md §Goals.'),
        'spec/v2/core/z.md': doc('Z', 'See memory.md §Goals and tools.md §Catalog.'),
        'spec/v2/core/old.md': doc('Old', 'Nothing here.'),
      };
      const found = (external: string[]) => runChecks(corpusFromFiles('/nonexistent-root', files), gate, { settings: settings(external) }).map((d) => `${d.file}:${d.line} ${d.message.split(',')[0]}`);
      expect(found(['spec/v1/'])).toEqual(['spec/v2/core/z.md:7 memory.md is not a document of the corpus', 'spec/v2/core/z.md:7 tools.md is not a document of the corpus']);
      // Without the option each is reported where it is not a corpus document.
      expect(found([])).toEqual([
        'spec/v2/core/x.md:7 ../../v1/old.md is not a document of the corpus',
        'spec/v2/core/x.md:7 spec/v1/old.md is not a document of the corpus',
        'spec/v2/core/x.md:9 replay.md is not a document of the corpus',
        'spec/v2/core/y.md:7 memory.md is not a document of the corpus',
        'spec/v2/core/z.md:7 memory.md is not a document of the corpus',
        'spec/v2/core/z.md:7 tools.md is not a document of the corpus',
      ]);
    });
  });
});
