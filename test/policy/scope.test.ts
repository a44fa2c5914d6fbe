/**
 * `check FILE…` with a registry as the argument: the report widens to the documents that name the
 * registry's entries (an error code beside its status, an event type), since renaming an entry
 * breaks them, and stays off documents that name none.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/diagnostics.js';
import { checkFindings } from '../helpers.js';
import { copyCorpus, edit } from '../trust/helpers.js';

const rulesAt = (findings: readonly Diagnostic[]): string[] => findings.map((d) => `${d.rule} ${d.file}:${d.line}`);
const anyAt = (findings: readonly string[], place: string): boolean => findings.some((f) => f.startsWith(`${place}:`));

/** A finding no registry has anything to do with, in a document that names no code and no event type. */
function unrelatedProblem(root: string): string {
  // i18n.md would not do: it says a host may "emit `node.completed`", which names an event type.
  edit(root, 'spec/v2/core/host-services.md', '## Why this exists\n', '## Why this exists\n\nAs packs.md says.\n');
  return 'links/bare-doc-reference spec/v2/core/host-services.md';
}

describe('check REGISTRY widens to the documents naming its entries', { timeout: 240_000 }, () => {
  it('errors.json: a document citing a code (409 run_terminal) is checked, and breaks when the code is renamed', async () => {
    const root = copyCorpus();
    const unrelated = unrelatedProblem(root);
    edit(root, 'spec/v2/errors.json', '"code": "run_terminal"', '"code": "run_is_terminal"');
    const cited = 'errors/used-codes-registered spec/v2/core/runs.md:51';
    const all = rulesAt(await checkFindings(root));
    expect(all).toContain(cited);
    expect(anyAt(all, unrelated)).toBe(true);

    const scoped = rulesAt(await checkFindings(root, path.join(root, 'spec/v2/errors.json')));
    expect(scoped).toContain(cited);
    // The API document's mention of the code, too.
    expect(scoped.some((f) => f.startsWith('errors/used-codes-registered api/v2/openapi.yaml:'))).toBe(true);
    expect(anyAt(scoped, unrelated)).toBe(false);
    // A document that names no code is not widened to.
    expect(anyAt(rulesAt(await checkFindings(root, path.join(root, 'spec/v2/core/runs.md'))), unrelated)).toBe(false);
  });

  it('event-codemap.json: a document naming an event type is checked, and breaks when the type is renamed', async () => {
    const root = copyCorpus();
    const unrelated = unrelatedProblem(root);
    edit(root, 'spec/v2/event-codemap.json', '"v2": "run.paused"', '"v2": "run.halted"');
    const named = (await checkFindings(root)).filter(
      (d) => d.file === 'spec/v2/core/runs.md' && d.message.includes('run.paused'),
    );
    expect(named.length).toBeGreaterThan(0);

    const scoped = rulesAt(await checkFindings(root, path.join(root, 'spec/v2/event-codemap.json')));
    for (const finding of rulesAt(named)) expect(scoped).toContain(finding);
    expect(anyAt(scoped, unrelated)).toBe(false);
  });

  it("a file a generator reads as part of a folder (a facet) widens to that generator's outputs", async () => {
    const root = copyCorpus();
    // The generated schema $refs the facet; an edit by hand makes it stale whatever the facet says.
    edit(
      root,
      'schemas/v2/capabilities.schema.json',
      '"$ref": "../../spec/v2/facets/auth.schema.json"',
      '"$ref": "../../spec/v2/facets/auth.json"',
    );
    const scoped = await checkFindings(root, path.join(root, 'spec/v2/facets/auth.schema.json'));
    expect(scoped.some((d) => d.rule === 'generated/drift' && d.file === 'schemas/v2/capabilities.schema.json')).toBe(
      true,
    );
  });
});
