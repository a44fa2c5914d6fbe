/**
 * One run, every verb: `check --fix`, `--fix-dry-run`, `check FILE`, `pack`'s refusal and the stamp
 * agree, because they are the one pipeline of core/run. The cases are the ones that once did not.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/index.js';
import { runChecks, UNDECLARED_FIX, defineCheck } from '../../core/run/index.js';
import { CATALOG } from '../../scripts/catalog.js';
import { cli, copyFixture, reported } from '../helpers.js';
import { changed, corpusCopy, edit, snapshot } from '../trust/helpers.js';

const json = async (root: string, ...args: string[]) => reported((await cli(['check', '--root', root, '--format', 'json', ...args])).stdout);

/** A new error code: a copy of a retriable row of the registry under another name, as an author adds one. */
function addRetriableCode(root: string, code: string): void {
  const file = path.join(root, 'spec/v2/errors.json');
  const registry = JSON.parse(readFileSync(file, 'utf8')) as { rows: Array<Record<string, unknown>> };
  const retriable = registry.rows.find((row) => row.retriable === true);
  expect(retriable).toBeDefined();
  registry.rows.push({ ...retriable, code });
  writeFileSync(file, `${JSON.stringify(registry, null, 2)}\n`);
}

describe('check --fix after adding an error code', { timeout: 240_000 }, () => {
  it('ends clean, stamps the bytes it wrote, showed the same change in the dry run, and does nothing the second time', async () => {
    const root = corpusCopy();
    addRetriableCode(root, 'quota_window_exceeded');
    const before = snapshot(root);

    const dry = await cli(['check', '--root', root, '--fix-dry-run']);
    expect(dry.status).toBe(0);
    const patched = [...dry.stdout.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1]).sort();
    // The envelope schema, the codes tables of errors.md and the stamp all follow from the row.
    expect(patched).toEqual(expect.arrayContaining(['CORPUS-STAMP.json', 'schemas/v2/error-envelope.schema.json', 'spec/v2/core/errors.md']));
    expect(changed(before, snapshot(root))).toEqual([]);

    const fixed = await cli(['check', '--root', root, '--fix', '--format', 'json']);
    expect(fixed.status).toBe(0);
    const after = snapshot(root);
    expect(changed(before, after)).toEqual(patched);

    const again = await cli(['check', '--root', root]);
    expect(again.status).toBe(0);
    expect((await cli(['stamp', '--check', '--root', root])).status).toBe(0);
    expect((await cli(['generate', '--check', '--root', root])).status).toBe(0);

    const second = await cli(['check', '--root', root, '--fix']);
    expect(second.status).toBe(0);
    expect(changed(after, snapshot(root))).toEqual([]);
    expect((await cli(['check', '--root', root, '--fix-dry-run'])).stdout).toBe('');
  });
});

describe('check FILE is the full run filtered', { timeout: 240_000 }, () => {
  it('fails on a document whose heading an OpenAPI description links to, once the heading is renamed', async () => {
    const root = corpusCopy();
    edit(root, 'spec/v2/core/interrupt.md', '\n## Resume tokens\n', '\n## Resumption tokens\n');
    const full = await json(root);
    const fromYaml = full.filter((d) => d.rule === 'links/anchor' && d.file === 'api/v2/openapi.yaml');
    expect(fromYaml.length).toBeGreaterThan(0);

    const result = await cli(['check', '--root', root, '--format', 'json', path.join(root, 'spec/v2/core/interrupt.md')]);
    expect(result.status).toBe(1);
    const scoped = reported(result.stdout);
    for (const d of fromYaml) expect(scoped).toContainEqual(d);
    // Only what a full check says.
    for (const d of scoped) expect(full).toContainEqual(d);
    // The summary counts the files judged, not the corpus.
    const files = (stdout: string): number => (JSON.parse(stdout) as { summary: { files: number } }).summary.files;
    const judged = files(result.stdout);
    expect(judged).toBeGreaterThan(1);
    expect(judged).toBeLessThan(files((await cli(['check', '--root', root, '--format', 'json'])).stdout));
  });
});

describe('pack refuses exactly when check fails', { timeout: 240_000 }, () => {
  it('with a rule the config turns off, pack lists what check lists and no more', async () => {
    const root = copyFixture('defects/structure');
    writeFileSync(path.join(root, 'openwop-spec.config.json'), JSON.stringify({ required: ['spec/v2/declaration.json'], rules: { 'docs/structure': 'off' } }));
    writeFileSync(path.join(root, 'package.json'), JSON.stringify({ name: '@openwop/spec-artifacts', version: '2.0.0', license: 'Apache-2.0' }));
    const check = await cli(['check', '--root', root]);
    const pack = await cli(['pack', '--root', root, '--unsigned', '--out', root]);
    expect(check.status).toBe(1);
    expect(pack.status).toBe(1);
    expect(pack.stderr).toMatch(/pack refused: `check` fails/);
    // The same report, line for line.
    expect(pack.stdout).toBe(check.stdout);
    expect(pack.stdout).not.toMatch(/docs\/structure/);
  });
});

describe('the engine holds a gate to its fixable', () => {
  const files = { 'spec/v2/x.md': '# X\n' };
  const gate = (fixable: boolean) =>
    defineCheck({
      id: 'test/fixer',
      summary: 'fixes',
      severity: 'error',
      fixable,
      run(_corpus, report) {
        report({ file: 'spec/v2/x.md', line: 1, column: 1, messageId: 'x', message: 'x', fix: { start: 0, end: 1, text: '#' } });
      },
    });

  it('drops a fix from a gate that does not declare fixable, and reports it as a bug', () => {
    const found = runChecks(corpusFromFiles('/nonexistent-root', files), [gate(false)]);
    expect(found.map((d) => [d.rule, d.messageId, d.fix === undefined])).toEqual([
      ['test/fixer', UNDECLARED_FIX, true],
      ['test/fixer', 'x', true],
    ]);
  });

  it('keeps the fix of a gate that declares it', () => {
    const found = runChecks(corpusFromFiles('/nonexistent-root', files), [gate(true)]);
    expect(found.map((d) => [d.messageId, d.fix])).toEqual([['x', { start: 0, end: 1, text: '#' }]]);
  });

  it('every gate that declares fixable has a test that exercises a fix', () => {
    const fixable = CATALOG.checks.filter((check) => check.fixable);
    expect(fixable.length).toBeGreaterThan(0);
    for (const check of fixable) {
      const test = readFileSync(path.join(import.meta.dirname, '..', 'checks', `${check.id}.test.ts`), 'utf8');
      expect(test, `${check.id} declares fixable`).toMatch(/\.fix\b|applyFixes|--fix/);
    }
  });
});
