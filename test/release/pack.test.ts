import { cpSync, readFileSync, mkdirSync, statSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { packCorpus, type PackResult } from '../../core/release/pack.js';
import { readTar } from '../../core/release/tar.js';
import { npmPack } from '../../core/release/npm-pack.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import { cli } from '../helpers.js';
import { edit, installInEmptyProject, stamp, stampedCopy, tempDir, typecheck } from './helpers.js';

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
    const entries = readTar(bytes)
      .map((entry) => entry.path)
      .sort();
    expect(entries).toEqual([
      'package/CORPUS-STAMP.json',
      'package/PACKAGE-STAMP.json',
      'package/README.md',
      'package/SECURITY/invariants.yaml',
      'package/api/v2/asyncapi.yaml',
      'package/api/v2/openapi.yaml',
      'package/conformance/requirement-aliases.json',
      'package/conformance/requirements.json',
      'package/lib/cli.d.ts',
      'package/lib/cli.js',
      'package/lib/validator.d.ts',
      'package/lib/validator.js',
      'package/lib/verify.d.ts',
      'package/lib/verify.js',
      'package/package.json',
      'package/schemas.json',
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
      'package/vocabulary.json',
    ]);
    expect(first).toMatchObject({
      package: '@openwop/spec-artifacts',
      version: '1.4.2',
      files: 27,
      counts: { corpus: 11, types: 4, modules: 6, schemaIndex: 2, stamps: 2, manifest: 2 },
    });
    expect(Object.values(first.counts).reduce((sum, count) => sum + count, 0)).toBe(first.files);
    const stamp = readTar(bytes).find((entry) => entry.path === 'package/CORPUS-STAMP.json');
    expect(stamp?.data.equals(readFileSync(path.join(root, 'CORPUS-STAMP.json')))).toBe(true);
    const manifest = JSON.parse(
      readTar(bytes)
        .find((entry) => entry.path === 'package/package.json')
        ?.data.toString('utf8') ?? '{}',
    );
    expect(manifest).toMatchObject({
      name: '@openwop/spec-artifacts',
      version: '1.4.2',
      license: 'Apache-2.0',
      types: './types/index.d.ts',
    });
    expect(manifest.exports['./spec/*']).toBe('./spec/*');
    expect(manifest.exports['.']).toEqual({ types: './types/index.d.ts' });
    expect(manifest).toMatchObject({
      type: 'module',
      bin: { 'openwop-spec-artifacts': 'lib/cli.js' },
      peerDependenciesMeta: { ajv: { optional: true } },
    });
    expect(manifest.dependencies).toBeUndefined();
    const read = (name: string) =>
      JSON.parse(
        readTar(bytes)
          .find((entry) => entry.path === `package/${name}`)
          ?.data.toString('utf8') ?? '{}',
      );
    expect(read('schemas.json')).toEqual({
      'https://openwop.dev/schemas/v2/ids.schema.json': 'schemas/v2/ids.schema.json',
      'https://openwop.dev/schemas/v2/run.schema.json': 'schemas/v2/run.schema.json',
      'https://openwop.dev/spec/v2/errors.schema.json': 'spec/v2/errors.schema.json',
    });
    expect(read('vocabulary.json')).toMatchObject({
      $vocabulary: { 'https://openwop.dev/vocab/v2/annotations': false },
    });
    // The shipped modules import Node.js built-ins and their siblings only (the validator, ajv).
    for (const entry of readTar(bytes).filter((item) => /^package\/lib\/.*\.js$/.test(item.path))) {
      const imports = [...entry.data.toString('utf8').matchAll(/^import .* from '([^']+)';$/gm)].map(
        (match) => match[1],
      );
      for (const specifier of imports)
        expect(specifier).toMatch(entry.path.endsWith('validator.js') ? /^(node:|\.\/|ajv)/ : /^(node:|\.\/)/);
    }
  });

  it('verifies as packed, straight from the .tgz', () => {
    expect(verifyArtifacts(first.tarball, { digest: first.digest })).toMatchObject({
      ok: true,
      kind: 'package',
      files: 25,
      problems: [],
    });
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
    await expect(packCorpus(loadCorpus(stale), { version: '1.4.2', out: tempDir() })).rejects.toThrow(
      /CORPUS-STAMP\.json does not match the corpus/,
    );
    const out = tempDir();
    const result = await cli(['pack', '--root', stale, '--out', out, '--unsigned']);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/CORPUS-STAMP\.json:\d+:\d+ {2}error {4}stale generated content/);
    expect(result.stderr).toMatch(/^pack refused: `check` fails on this corpus/m);
  }, 60_000);

  it('installs offline into an empty project, verifies there, and its types compile under tsc --strict', async () => {
    const project = installInEmptyProject(first.tarball);
    const installed = path.join(project, 'node_modules', '@openwop', 'spec-artifacts');
    expect(await cli(['verify', installed, '--digest', first.digest])).toMatchObject({ status: 0 });

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
    expect(
      typecheck(
        project,
        "import type { Run } from '@openwop/spec-artifacts';\nexport const run: Run = { runId: 'r', state: 'sleeping' };\n",
      ).status,
    ).not.toBe(0);

    edit(installed, 'schemas/v2/run.schema.json', (text) => text.replace('"Run"', '"Rum"'));
    const tampered = await cli(['verify', installed]);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/schemas\/v2\/run\.schema\.json {2}altered/);
  }, 60_000);

  it('refuses a file npm would leave out, and leaves the older tarball in --out as it was', async () => {
    const copy = stampedCopy();
    const out = tempDir();
    const older = await packCorpus(loadCorpus(copy), { version: '1.4.2', out });
    const before = { bytes: readFileSync(older.tarball), mtime: statSync(older.tarball).mtimeMs };
    writeFileSync(path.join(copy, 'spec/v2/core/errors.md.orig'), 'a backup npm never packs\n');
    stamp(copy);
    await expect(packCorpus(loadCorpus(copy), { version: '1.4.2', out })).rejects.toThrow(
      /^npm left out spec\/v2\/core\/errors\.md\.orig \(npm ignores some file names by default; rename the file\)$/,
    );
    expect(readdirSync(out)).toEqual([path.basename(older.tarball)]);
    expect(readFileSync(older.tarball).equals(before.bytes)).toBe(true);
    expect(statSync(older.tarball).mtimeMs).toBe(before.mtime);
  }, 60_000);

  it("says npm's own cause when npm pack fails, not its last line", async () => {
    const staged = tempDir();
    writeFileSync(path.join(staged, 'package.json'), '{"name": "x", "version": "1.0.0"}\n');
    const missing = path.join(tempDir(), 'not', 'there');
    await expect(npmPack(staged, missing, ['package.json'])).rejects.toThrow(
      new RegExp(
        `^npm pack failed: ENOENT: no such file or directory, open '${missing.replace(/[/\\]/g, '\\$&')}/x-1\\.0\\.0\\.tgz'$`,
      ),
    );
    writeFileSync(path.join(staged, 'package.json'), '{"name": "x", "version": "1.0.0",}\n');
    await expect(npmPack(staged, tempDir(), ['package.json'])).rejects.toThrow(
      /^npm pack failed: Invalid package\.json: JSONParseError: .* \(EJSONPARSE\)$/,
    );
    mkdirSync(missing, { recursive: true });
  });
});
