/**
 * One run, every verb: `check --fix`, `--fix-dry-run`, `check FILE`, `pack`'s refusal and the stamp
 * agree, because they are the one pipeline of core/run. The cases are the ones that once did not.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/index.js';
import { compareStrings, type Diagnostic } from '../../core/output/index.js';
import { runChecks, UNDECLARED_FIX } from '../../core/run/engine.js';
import { defineCheck } from '../../core/run/index.js';
import { defineGenerator } from '../../core/run/define.js';
import { planGeneration } from '../../core/run/generation.js';
import { CATALOG } from '../../scripts/catalog.js';
import { checkFindings, cli, copyFixture, REPO, reported } from '../helpers.js';
import { changed, copyCorpus, edit, snapshotFiles } from '../trust/helpers.js';

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
    const root = copyCorpus();
    addRetriableCode(root, 'quota_window_exceeded');
    const before = snapshotFiles(root);

    const dry = await cli(['check', '--root', root, '--fix-dry-run']);
    expect(dry.status).toBe(0);
    const patched = [...dry.stdout.matchAll(/^\+\+\+ b\/(.+)$/gm)].map((m) => m[1] ?? '').sort(compareStrings);
    // The envelope schema, the codes tables of errors.md and the stamp all follow from the row.
    expect(patched).toEqual(
      expect.arrayContaining(['CORPUS-STAMP.json', 'schemas/v2/error-envelope.schema.json', 'spec/v2/core/errors.md']),
    );
    expect(changed(before, snapshotFiles(root))).toEqual([]);

    const fixed = await cli(['check', '--root', root, '--fix', '--format', 'json']);
    expect(fixed.status).toBe(0);
    const after = snapshotFiles(root);
    expect(changed(before, after)).toEqual(patched);

    const again = await cli(['check', '--root', root]);
    expect(again.status).toBe(0);
    expect((await cli(['stamp', '--check', '--root', root])).status).toBe(0);
    expect((await cli(['generate', '--check', '--root', root])).status).toBe(0);

    const second = await cli(['check', '--root', root, '--fix']);
    expect(second.status).toBe(0);
    expect(changed(after, snapshotFiles(root))).toEqual([]);
    expect((await cli(['check', '--root', root, '--fix-dry-run'])).stdout).toBe('');
  });
});

describe('check FILE is the full run filtered', { timeout: 240_000 }, () => {
  it('fails on a document whose heading an OpenAPI description links to, once the heading is renamed', async () => {
    const root = copyCorpus();
    edit(root, 'spec/v2/core/interrupt.md', '\n## Resume tokens\n', '\n## Resumption tokens\n');
    const full = await checkFindings(root);
    const fromYaml = full.filter((d) => d.rule === 'links/anchor' && d.file === 'api/v2/openapi.yaml');
    expect(fromYaml.length).toBeGreaterThan(0);

    const result = await cli([
      'check',
      '--root',
      root,
      '--format',
      'json',
      path.join(root, 'spec/v2/core/interrupt.md'),
    ]);
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

describe('check FILE follows citations by document name', { timeout: 240_000 }, () => {
  it('a requirement citing events.md §"Payloads" is judged with events.md', async () => {
    const root = copyCorpus();
    edit(root, 'spec/v2/core/events.md', '\n## Payloads\n', '\n## Payload shapes\n');
    const inRequirements = (found: Diagnostic[]) =>
      found.filter(
        (d) =>
          d.file === 'conformance/requirements.json' && d.rule === 'requirements/ids' && d.messageId === 'no-section',
      );
    const full = inRequirements(await checkFindings(root));
    expect(full.length).toBeGreaterThan(0);
    expect(inRequirements(await checkFindings(root, path.join(root, 'spec/v2/core/events.md')))).toEqual(full);
  });
});

describe('pack refuses exactly when check fails', { timeout: 240_000 }, () => {
  it('with a rule the config turns off, pack lists what check lists and no more', async () => {
    const root = copyFixture('defects/structure');
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      JSON.stringify({ required: ['spec/v2/declaration.json'], rules: { 'docs/structure': 'off' } }),
    );
    writeFileSync(
      path.join(root, 'package.json'),
      JSON.stringify({ name: '@openwop/spec-artifacts', version: '2.0.0', license: 'Apache-2.0' }),
    );
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
        report({
          file: 'spec/v2/x.md',
          line: 1,
          column: 1,
          messageId: 'x',
          message: 'x',
          fix: { start: 0, end: 1, text: '#' },
        });
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

  it("words a finding from the gate's messages by its id and data, and reports an id the map lacks as a bug", () => {
    const gate = defineCheck({
      id: 'test/worded',
      summary: 'words',
      severity: 'error',
      messages: { 'no-thing': '{{file}} has no {{thing}}' },
      run(_corpus, report) {
        report({ file: 'spec/v2/x.md', messageId: 'no-thing', data: { file: 'spec/v2/x.md', thing: 'title' } });
        report({ file: 'spec/v2/x.md', messageId: 'unworded', data: {} });
      },
    });
    const found = runChecks(corpusFromFiles('/nonexistent-root', files), [gate]);
    expect(found.map((d) => [d.messageId, d.message])).toEqual([
      ['unworded', 'gate test/worded reported message id "unworded", which its messages do not word'],
      ['no-thing', 'spec/v2/x.md has no title'],
    ]);
  });

  it("words a generator's own findings from its messages, and reports an id the map lacks as a bug", () => {
    const generator = defineGenerator({
      id: 'worded',
      summary: 'words',
      inputs: ['spec/v2/x.md'],
      messages: { 'no-source': '{{file}} has no {{thing}}' },
      generate(_corpus, report) {
        report({ file: 'spec/v2/x.md', messageId: 'no-source', data: { file: 'spec/v2/x.md', thing: 'source' } });
        report({ file: 'spec/v2/x.md', messageId: 'unworded', data: {} });
        return [];
      },
    });
    const found = planGeneration(corpusFromFiles('/nonexistent-root', files), [generator]).diagnostics;
    expect(found.map((d) => [d.rule, d.messageId, d.message])).toEqual([
      ['generate/worded', 'no-source', 'spec/v2/x.md has no source'],
      [
        'generate/worded',
        'unworded',
        'generator worded reported message id "unworded", which its messages do not word',
      ],
    ]);
  });

  it('every gate that declares fixable has a test that exercises a fix', () => {
    const fixable = CATALOG.checks.filter((check) => check.fixable);
    expect(fixable.length).toBeGreaterThan(0);
    for (const check of fixable) {
      const test = readFileSync(path.join(import.meta.dirname, '..', 'checks', `${check.id}.test.ts`), 'utf8');
      // A rule tester case states the exact text its fixes write as `output: { file: text }`.
      expect(test, `${check.id} declares fixable`).toMatch(/\.fix\b|applyFixes|--fix|\boutput: \{/);
    }
  });
});

describe('every rule id a finding can carry is listed, documented and configurable', { timeout: 120_000 }, () => {
  it('each generator has its generate/<id> rule, and fix/converges is there too', async () => {
    const listed = (
      JSON.parse((await cli(['rules', '--format', 'json'])).stdout) as {
        rules: Array<{ id: string; fixable: boolean }>;
      }
    ).rules;
    const ids = new Set(listed.map((rule) => rule.id));
    expect(CATALOG.generators.length).toBeGreaterThan(0);
    for (const generator of CATALOG.generators) expect(ids.has(`generate/${generator.id}`), generator.id).toBe(true);
    expect(ids.has('fix/converges')).toBe(true);
    const doc = readFileSync(path.join(REPO, 'docs/rules.md'), 'utf8');
    for (const id of ids) expect(doc, id).toContain(`### ${id}`);
    // fixable is what the gates declare.
    for (const check of CATALOG.checks)
      expect(listed.find((rule) => rule.id === check.id)?.fixable, check.id).toBe(check.fixable === true);
  });

  it('a generator rule can be turned off in the config, and its findings go', async () => {
    const root = copyCorpus();
    // The codemap's rows are not an array: the event-types generator cannot read it.
    edit(root, 'spec/v2/event-codemap.json', '"rows": [', '"rows": {"broken": [');
    edit(root, 'spec/v2/event-codemap.json', '\n  ]\n}', '\n  ]}\n}');
    const on = await checkFindings(root);
    expect(on.some((d) => d.rule === 'generate/event-types')).toBe(true);
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      JSON.stringify({ rules: { 'generate/event-types': 'off' } }),
    );
    const off = await cli(['check', '--root', root, '--format', 'json']);
    expect(off.stderr).not.toMatch(/names no rule/);
    expect(reported(off.stdout).some((d) => d.rule === 'generate/event-types')).toBe(false);
  });
});

describe('findings are data', { timeout: 120_000 }, () => {
  it('every finding of a run carries a message id, over corpora with defects of every family', async () => {
    const all: Array<{ rule: string; messageId?: string }> = [];
    for (const name of readdirSync(path.join(REPO, 'test/fixtures/defects')))
      all.push(
        ...reported(
          (await cli(['check', '--root', path.join(REPO, 'test/fixtures/defects', name), '--format', 'json'])).stdout,
        ),
      );
    expect(new Set(all.map((d) => d.rule)).size).toBeGreaterThan(5);
    expect(all.filter((d) => !d.messageId).map((d) => d.rule)).toEqual([]);
  });
});

describe('verbs are thin callers of the one run', () => {
  it('no verb imports another', () => {
    const main = readFileSync(path.join(REPO, 'scripts/main.ts'), 'utf8');
    // The verb table's entries (`check: () => import('./check.js')`); main also loads shared modules lazily.
    const verbs = [...main.matchAll(/^\s*[a-z-]+: \(\) => import\('\.\/([a-z-]+)\.js'\)/gm)].map((m) => m[1] as string);
    expect(verbs.length).toBeGreaterThan(5);
    for (const verb of verbs) {
      const source = readFileSync(path.join(REPO, 'scripts', `${verb}.ts`), 'utf8');
      const imported = [...source.matchAll(/from '\.\/([a-z-]+)\.js'/g)].map((m) => m[1] as string);
      expect(
        imported.filter((name) => verbs.includes(name)),
        verb,
      ).toEqual([]);
    }
  });
});
