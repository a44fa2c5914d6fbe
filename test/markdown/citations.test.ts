import { describe, expect, it } from 'vitest';
import { findCitations } from '../../core/markdown/sections.js';
import { resolveCitation, scopedCitations, type MarkdownHeading } from '../../core/markdown/index.js';

/** Each citation as `§value → scope`, the form the grammar is read in. */
function citationsOf(text: string): string[] {
  return scopedCitations(text).map((c) => {
    const scope =
      c.scope.kind === 'document'
        ? `${c.scope.via}:${c.scope.name}`
        : c.scope.kind === 'external'
          ? `external:${c.scope.what}`
          : 'unqualified';
    return `${c.form}:${c.value} → ${scope}${c.part ? ' (part)' : ''}`;
  });
}

describe('the section citation grammar', () => {
  it('reads each form: quoted, numbered (A.1a, 0a), dotted and wildcard words, code spans', () => {
    expect(
      findCitations('§"Edge conditions", §“Curly”, §1.4, §6, §B.2, §A.1a, §0a, §A.').map((c) => `${c.form}:${c.value}`),
    ).toEqual([
      'quoted:Edge conditions',
      'quoted:Curly',
      'numbered:1.4',
      'numbered:6',
      'numbered:B.2',
      'numbered:A.1a',
      'numbered:0a',
      'numbered:A',
    ]);
    expect(
      findCitations("(§host.chat), §host.*, §Fork. §Naming's §`memory` § supportedEnvelopes §UQ2").map(
        (c) => `${c.form}:${c.value}`,
      ),
    ).toEqual([
      'word:host.chat',
      'word:host.*',
      'word:Fork',
      'word:Naming',
      'code:memory',
      'word:supportedEnvelopes',
      'word:UQ2',
    ]);
  });

  it('gives every section of an RFC list its RFC, not only the first', () => {
    expect(citationsOf('RFC 0176 (§A–§B, §D–§E), 0171 §A, 0170 §A.3.')).toEqual([
      'numbered:A → external:RFC 0176',
      'numbered:B → external:RFC 0176',
      'numbered:D → external:RFC 0176',
      'numbered:E → external:RFC 0176',
      'numbered:A → external:0171',
      'numbered:A.3 → external:0170',
    ]);
    expect(citationsOf('RFC 0175 §B.1/§D/§E and RFC 0170 §B.2–§B.5; RFC 0169 §A.1a, §A.4')).toEqual([
      'numbered:B.1 → external:RFC 0175',
      'numbered:D → external:RFC 0175',
      'numbered:E → external:RFC 0175',
      'numbered:B.2 → external:RFC 0170',
      'numbered:B.5 → external:RFC 0170',
      'numbered:A.1a → external:RFC 0169',
      'numbered:A.4 → external:RFC 0169',
    ]);
  });

  it('reads named specifications and a work in emphasis as external, RFC 2119 keywords not', () => {
    expect(citationsOf('A2A §3.4.3, SemVer §11, RFC 9110 §8.8.3, BCP 47 §2')).toEqual([
      'numbered:3.4.3 → external:A2A',
      'numbered:11 → external:SemVer',
      'numbered:8.8.3 → external:RFC 9110',
      'numbered:2 → external:BCP 47',
    ]);
    expect(citationsOf('Martin Fowler, *Event Sourcing* §"External Updates"')).toEqual([
      'quoted:External Updates → external:*Event Sourcing*',
    ]);
    expect(citationsOf('a host MUST (§A.2)')).toEqual(['numbered:A.2 → unqualified']);
  });

  it('names the document written before a citation: a file name, a path, a code span, a link', () => {
    expect(citationsOf('events.md §Types and `spec/v2/core/replay.md` §"Fork", `RFCS/0057-*` §D')).toEqual([
      'word:Types → text:events.md',
      'quoted:Fork → text:spec/v2/core/replay.md',
      'numbered:D → text:RFCS/0057-*',
    ]);
    expect(
      citationsOf('see [interrupt.md](interrupt.md) §Callback; [v1](https://example.com/v1.md) (§host.chat)'),
    ).toEqual(['word:Callback → link:interrupt.md', 'word:host.chat → external:https://example.com/v1.md']);
  });

  it('does not take a directory, a source file or another repository for a document', () => {
    expect(citationsOf('not in `core/` (§D.1); `ext/notes` (§D.1); `repo:test/a.test.ts` §8')).toEqual([
      'numbered:D.1 → unqualified',
      'numbered:D.1 → unqualified',
      'numbered:8 → unqualified',
    ]);
  });

  it('carries a document through a list whose items are followed by their titles', () => {
    expect(citationsOf('`threat.md` §6 Residual risks, §7 Verification, §8 References')).toEqual([
      'numbered:6 → text:threat.md',
      'numbered:7 → text:threat.md',
      'numbered:8 → text:threat.md',
    ]);
    expect(citationsOf('`versioning.md` §5) and v1 operations keep their paths (§1.2)')).toEqual([
      'numbered:5 → text:versioning.md',
      'numbered:1.2 → unqualified',
    ]);
  });

  it('marks a citation written right after another as a part of it', () => {
    expect(citationsOf('`replay.md` §"Recipe" §A + §B')).toEqual([
      'quoted:Recipe → text:replay.md',
      'numbered:A → text:replay.md (part)',
      'numbered:B → text:replay.md (part)',
    ]);
  });

  it('resolves a word or code citation to a heading that carries the sign', () => {
    const heading = (text: string): MarkdownHeading => ({
      depth: 3,
      text,
      slug: '',
      number: undefined,
      line: 1,
      column: 1,
    });
    const headings = [heading('§ supportedEnvelopes'), heading('memory')];
    expect(resolveCitation(headings, { form: 'word', value: 'supportedEnvelopes' })).toBe(headings[0]);
    expect(resolveCitation(headings, { form: 'code', value: 'memory' })).toBe(headings[1]);
    expect(resolveCitation(headings, { form: 'code', value: 'limits' })).toBeUndefined();
  });
});
