/**
 * Messages that lead to the fix, on a copy of this repository's corpus: each scenario ends in one
 * run with the cause first (a parse error, a stale stamp, a problem in generated text, a renamed
 * heading), and the clean repository is reported clean.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/diagnostics.js';
import { checkFindings, cli, reported } from '../helpers.js';
import { copyCorpus, edit } from '../trust/helpers.js';

/**
 * Warnings main carries today that no scenario is about: citations in errors.json of v1 documents
 * outside this corpus (links/section-ref). Left out, so that each scenario sees only its own.
 */
const unrelated = (d: Diagnostic): boolean => d.rule === 'links/section-ref' && d.messageId === 'not-in-corpus';

/** The findings of a check of `root` other than the unrelated ones. */
const ownFindings = async (root: string, ...args: string[]): Promise<Diagnostic[]> =>
  (await checkFindings(root, ...args)).filter((d) => !unrelated(d));

describe('the repository', { timeout: 120_000 }, () => {
  it('is reported clean: no error, no warning of its own, exit 0', async () => {
    const result = await cli(['check', '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(reported(result.stdout).filter((d) => !unrelated(d))).toEqual([]);
    expect(result.status).toBe(0);
  });
});

describe('messages that lead to the fix', { timeout: 180_000 }, () => {
  it('a YAML typo in openapi.yaml is listed first, without the findings that only follow from it, and with those that do not', async () => {
    const root = copyCorpus();
    edit(root, 'api/v2/openapi.yaml', '    name: Apache-2.0\n', '    name: Apache-2.0: [\n');
    // A problem of its own, which the typo has nothing to do with.
    edit(root, 'spec/v2/core/runs.md', '## Why this exists\n', '## Why this exists\n\nAs errors.md lists.\n');
    const found = await ownFindings(root);
    // No stale stamp, no $ref into it, no "region has no generator", no API finding in the seams
    // document, and no id binding called stale because the one document that has its field is the broken one.
    expect(found[0]).toMatchObject({ rule: 'corpus/parse', file: 'api/v2/openapi.yaml' });
    expect(found.map((d) => `${d.rule} ${d.file}`).sort()).toEqual([
      'corpus/parse api/v2/openapi.yaml',
      'corpus/parse api/v2/openapi.yaml',
      // The word count of the core documents, which the new sentence changed.
      'generated/drift spec/v2/core/overview.md',
      'links/bare-doc-reference spec/v2/core/runs.md',
    ]);
  });

  it('a JSON syntax error in the event codemap, a schema others $ref or a facet leaves nothing that follows from it', async () => {
    const root = copyCorpus();
    // Without the codemap every core event type would read as a vendor type of an unregistered org;
    // without ids.schema.json no schema that $refs it compiles, so no example could be checked; the
    // facet is read by a generator that takes its whole folder, whose output would look stale.
    edit(root, 'spec/v2/event-codemap.json', '{', '{,');
    edit(root, 'schemas/v2/ids.schema.json', '{', '{,');
    edit(root, 'spec/v2/facets/auth.schema.json', '{', '{,');
    const found = await ownFindings(root);
    expect(found.map((d) => `${d.rule} ${d.file}`).sort()).toEqual([
      'corpus/parse schemas/v2/ids.schema.json',
      'corpus/parse spec/v2/event-codemap.json',
      'corpus/parse spec/v2/facets/auth.schema.json',
    ]);
  });

  it('a JSON syntax error in a registry brings no "region has no generator" warnings', async () => {
    const root = copyCorpus();
    edit(root, 'spec/v2/errors.json', '{', '{,');
    const found = await ownFindings(root);
    expect(found[0]).toMatchObject({ rule: 'corpus/parse', file: 'spec/v2/errors.json' });
    expect(found.filter((d) => d.message.includes('has no generator'))).toEqual([]);
  });

  it('an edit makes the stamp stale: the finding says generate; check --fix fixes and regenerates, so the run ends clean', async () => {
    const root = copyCorpus();
    edit(root, 'spec/v2/core/runs.md', '## Why this exists\n', '## Why this exists\n\nAs errors.md lists.\n');
    const found = await ownFindings(root);
    const stamp = found.find((d) => d.file === 'CORPUS-STAMP.json');
    expect(stamp).toMatchObject({ rule: 'generated/drift' });
    expect(stamp?.message).toContain('corpus-stamp produces');
    expect(stamp?.hint).toMatch(
      /^CORPUS-STAMP\.json digests every corpus file, so any edit makes it stale: run `(openwop-spec|npm run spec --) generate`$/,
    );
    const fixed = await cli(['check', '--root', root, '--fix', '--format', 'json']);
    expect(fixed.stderr).toBe('fixed 1 problem in 1 file; regenerated 2 generated files\n');
    expect(reported(fixed.stdout).filter((d) => !unrelated(d))).toEqual([]);
    expect(fixed.status).toBe(0);
    expect(readFileSync(path.join(root, 'spec/v2/core/runs.md'), 'utf8')).toContain('As [errors.md](errors.md) lists.');
  });

  it('a problem inside generated text is reported at its source line, with the generated place as related location', async () => {
    const root = copyCorpus();
    const line =
      readFileSync(path.join(root, 'api/v2/openapi.yaml'), 'utf8')
        .split('\n')
        .findIndex((l) => l.includes('Selects the contract for this request')) + 1;
    edit(
      root,
      'api/v2/openapi.yaml',
      'Selects the contract for this request',
      'Selects (see versioning.md §"No such heading") the contract for this request',
    );
    expect((await cli(['generate', '--root', root])).status).toBe(0);
    const found = (await ownFindings(root)).filter((d) => d.rule === 'links/section-ref');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      file: 'api/v2/openapi.yaml',
      line,
      related: [{ file: 'spec/v2/core/headers.md' }],
    });
    const sarif = JSON.parse((await cli(['check', '--root', root, '--format', 'sarif'])).stdout);
    const result = sarif.runs[0].results.find((r: { ruleId: string }) => r.ruleId === 'links/section-ref');
    expect(result.relatedLocations[0].physicalLocation.artifactLocation.uri).toBe('spec/v2/core/headers.md');
  });

  it('after a heading rename, one run reports every citation of the old heading with the new one, and --fix rewrites them all', async () => {
    const root = copyCorpus();
    const doc = 'spec/v2/core/workflow-chain-packs.md';
    const old = 'Edge conditions';
    const renamed = 'Evaluating edge conditions';
    edit(root, doc, `## ${old}\n`, `## ${renamed}\n`);
    const citing = (await ownFindings(root)).filter((d) => d.rule === 'links/section-ref');
    // Cited from two other documents, each as a link whose anchor broke with the heading.
    expect(new Set(citing.map((d) => d.file)).size).toBeGreaterThanOrEqual(2);
    for (const d of citing) {
      expect(d.message).toContain(`no section §"${old}"`);
      expect(d.hint).toContain(`did you mean §"${renamed}"?`);
    }
    // Cited from a JSON Schema's description string too, which --fix rewrites in place.
    expect(citing.some((d) => d.file.endsWith('.schema.json'))).toBe(true);
    const fixed = await cli(['check', '--root', root, '--fix', '--format', 'json']);
    expect(fixed.status).toBe(0);
    expect(await ownFindings(root)).toEqual([]);
  });
});
