import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { packCorpus, type PackResult } from '../../core/release/pack.js';
import { readTar } from '../../core/release/tar.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import { cli } from '../helpers.js';
import { edit, installInEmptyProject, stampedCopy, tempDir, typecheck } from './helpers.js';

describe('pack', () => {
  let root: string;
  let first: PackResult;
  let bytes: Buffer;

  beforeAll(async () => {
    root = stampedCopy();
    first = await packCorpus(loadCorpus(root), { version: '1.4.2', license: 'Apache-2.0', out: tempDir() });
    bytes = readFileSync(first.tarball);
  }, 60_000);

  it('packs the corpus, both stamps, the types, a README and package.json, and nothing else', () => {
    const entries = readTar(bytes).map((entry) => entry.path).sort();
    expect(entries).toEqual([
      'package/CORPUS-STAMP.json',
      'package/PACKAGE-STAMP.json',
      'package/README.md',
      'package/SECURITY/invariants.yaml',
      'package/api/v2/asyncapi.yaml',
      'package/api/v2/openapi.yaml',
      'package/conformance/requirement-aliases.json',
      'package/conformance/requirements.json',
      'package/package.json',
      'package/schemas/v2/ids.schema.json',
      'package/schemas/v2/run.schema.json',
      'package/spec/v2/core/errors.md',
      'package/spec/v2/errors.json',
      'package/spec/v2/errors.schema.json',
      'package/spec/v2/event-codemap.json',
      'package/types/index.d.ts',
      'package/types/schemas/v2/ids.schema.d.ts',
      'package/types/schemas/v2/run.schema.d.ts',
      'package/types/spec/v2/errors.schema.d.ts',
    ]);
    expect(first).toMatchObject({ package: '@openwop/spec-artifacts', version: '1.4.2', files: 19, corpusFiles: 11, typeFiles: 4 });
    const stamp = readTar(bytes).find((entry) => entry.path === 'package/CORPUS-STAMP.json');
    expect(stamp?.data.equals(readFileSync(path.join(root, 'CORPUS-STAMP.json')))).toBe(true);
    const manifest = JSON.parse(readTar(bytes).find((entry) => entry.path === 'package/package.json')?.data.toString('utf8') ?? '{}');
    expect(manifest).toMatchObject({ name: '@openwop/spec-artifacts', version: '1.4.2', license: 'Apache-2.0', types: './types/index.d.ts' });
    expect(manifest.exports['./spec/*']).toBe('./spec/*');
    expect(manifest.exports['.']).toEqual({ types: './types/index.d.ts' });
  });

  it('verifies as packed, straight from the .tgz', () => {
    expect(verifyArtifacts(first.tarball, { digest: first.digest })).toMatchObject({ ok: true, kind: 'package', files: 17, problems: [] });
  });

  it('packs the same bytes twice, and from a copy in another directory', async () => {
    const again = await packCorpus(loadCorpus(root), { version: '1.4.2', license: 'Apache-2.0', out: tempDir() });
    expect(readFileSync(again.tarball).equals(bytes)).toBe(true);
    const elsewhere = path.join(tempDir(), 'some', 'other', 'checkout');
    cpSync(root, elsewhere, { recursive: true });
    const moved = await packCorpus(loadCorpus(elsewhere), { version: '1.4.2', license: 'Apache-2.0', out: tempDir() });
    expect(readFileSync(moved.tarball).equals(bytes)).toBe(true);
    expect(moved.integrity).toBe(first.integrity);
  }, 60_000);

  it('refuses a corpus whose stamp is stale, and the verb says why', async () => {
    const stale = stampedCopy();
    edit(stale, 'spec/v2/core/errors.md', (text) => text.replace('MAY retry', 'may retry'));
    await expect(packCorpus(loadCorpus(stale), { version: '1.4.2', out: tempDir() })).rejects.toThrow(/CORPUS-STAMP\.json does not match the corpus/);
    const out = tempDir();
    const result = cli(['pack', '--root', stale, '--out', out]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/CORPUS-STAMP\.json:\d+:1 {2}error {4}stale generated content/);
    expect(result.stderr).toMatch(/^pack refused: `generate --check` and `check` must pass first/m);
  }, 60_000);

  it('installs offline into an empty project, verifies there, and its types compile under tsc --strict', () => {
    const project = installInEmptyProject(first.tarball);
    const installed = path.join(project, 'node_modules', '@openwop', 'spec-artifacts');
    expect(cli(['verify', installed, '--digest', first.digest])).toMatchObject({ status: 0 });

    const compiled = typecheck(
      project,
      [
        "import type { Run, IdsSchema, Errors } from '@openwop/spec-artifacts';",
        "import type { Run as SameRun } from '@openwop/spec-artifacts/types/schemas/v2/run.schema';",
        "import registry from '@openwop/spec-artifacts/spec/v2/errors.json' with { type: 'json' };",
        "const id: IdsSchema.RunId = 'run_01';",
        "const run: Run = { runId: id, state: 'waiting' };",
        'const same: SameRun = run;',
        "const rows: Errors['rows'] = registry.rows;",
        'export { same, rows };',
        '',
      ].join('\n'),
    );
    expect(compiled.output).toBe('');
    expect(compiled.status).toBe(0);
    // The types are real: a wrong enum member does not compile.
    expect(typecheck(project, "import type { Run } from '@openwop/spec-artifacts';\nexport const run: Run = { runId: 'r', state: 'sleeping' };\n").status).not.toBe(0);

    edit(installed, 'schemas/v2/run.schema.json', (text) => text.replace('"Run"', '"Rum"'));
    const tampered = cli(['verify', installed]);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/schemas\/v2\/run\.schema\.json {2}altered/);
  }, 60_000);
});
