/** The evidence registries of the repository against the prose they come from. */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { invariantRows, REQUIREMENTS, requirementRecords } from '../../core/registries/evidence.js';
import { parseDocumentCitation, resolveCitation } from '../../core/markdown/sections.js';
import { REPO, run } from '../helpers.js';

const corpus = loadCorpus(REPO);

/** The backticked kebab-case names in the section under `heading` of a core document. */
function namesUnder(document: string, heading: string): string[] {
  const file = corpus.markdown(`spec/v2/core/${document}`);
  if (!file) return [];
  const at = file.headings.findIndex((h) => h.text === heading);
  const start = file.headings[at];
  const end = file.headings.slice(at + 1).find((h) => h.depth <= (start?.depth ?? 0));
  const lines = file.text.split('\n').slice(start?.line ?? 0, end ? end.line - 1 : undefined);
  return [...new Set([...lines.join('\n').matchAll(/`([a-z]+(?:-[a-z0-9]+){2,})`/g)].map((m) => m[1] ?? ''))];
}

describe('SECURITY/invariants.yaml', { timeout: 60_000 }, () => {
  it('registers every invariant identity.md §7 and security.md name', () => {
    const registered = (invariantRows(corpus) ?? []).map((row) => row.id);
    const named = namesUnder('identity.md', '7. Invariants');
    expect(named).toHaveLength(8);
    expect(registered).toEqual(expect.arrayContaining(named));
    expect(registered).toEqual(expect.arrayContaining(namesUnder('security.md', 'Identity invariants')));
  });
});

describe('conformance/requirements.json', { timeout: 60_000 }, () => {
  const records = requirementRecords(corpus.data(REQUIREMENTS)) ?? [];

  it('cites every section with a MUST in idempotency.md, errors.md, events.md and identity.md', () => {
    expect(records.length).toBeGreaterThan(0);
    const cited = new Set<string>();
    for (const record of records) {
      for (const citation of record.citations) {
        const parsed = parseDocumentCitation(citation.section);
        const file = parsed && corpus.markdown(`spec/v2/core/${parsed.document}`);
        const heading = parsed && file ? resolveCitation(file.headings, parsed.citation) : undefined;
        if (parsed && heading) cited.add(`${parsed.document}#${heading.slug}`);
      }
    }
    const uncited: string[] = [];
    let musts = 0;
    for (const document of ['idempotency.md', 'errors.md', 'events.md', 'identity.md']) {
      const file = corpus.markdown(`spec/v2/core/${document}`);
      if (!file) throw new Error(`no ${document}`);
      const lines = file.text.split('\n');
      file.headings.forEach((heading, index) => {
        const next = file.headings[index + 1];
        const body = lines.slice(heading.line, next ? next.line - 1 : undefined).join('\n');
        // "Why this exists" states the promise the later sections make precise.
        if (heading.depth <= 1 || heading.text === 'Why this exists' || !/\bMUST\b/.test(body)) return;
        musts++;
        if (!cited.has(`${document}#${heading.slug}`)) uncited.push(`${document} §"${heading.text}"`);
      });
    }
    // What the loops found, so that neither judged an empty list: citations resolved, MUST sections read.
    expect(cited.size).toBeGreaterThan(0);
    expect(musts).toBeGreaterThan(0);
    expect(uncited).toEqual([]);
  });

  it('gives every unwitnessable requirement a rationale and every other one a test', () => {
    const unwitnessable = records.filter((record) => record.witness === 'unwitnessable');
    const witnessed = records.filter((record) => record.witness !== 'unwitnessable');
    // Both kinds are there, so that each check below judges records.
    expect(unwitnessable.length).toBeGreaterThan(0);
    expect(witnessed.length).toBeGreaterThan(0);
    expect(unwitnessable.filter((record) => !record.rationale).map((record) => record.id)).toEqual([]);
    expect(witnessed.filter((record) => !(record.tests?.length ?? 0)).map((record) => record.id)).toEqual([]);
  });
});

describe('the repository corpus', { timeout: 60_000 }, () => {
  it('is clean on the identity and evidence rules (with no previous release, the removed-id comparison has nothing to say)', () => {
    const found = ['ids/bindings', 'witness/classes', 'requirements/ids', 'docs/examples', 'schemas/compile'].flatMap(
      (rule) => run(rule, corpus).map((d) => `${d.rule} ${d.messageId ?? ''} ${d.file}:${d.line}:${d.column}`),
    );
    expect(found).toEqual([]);
  });
});
