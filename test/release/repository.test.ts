/**
 * The release verbs on this repository's own corpus, as a release manager and a consumer use them.
 * These pass only while the repository's corpus passes `generate --check` and `check`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseStamp, SHIPPED_DIRECTORIES } from '../../core/release/stamp.js';
import { cli, REPO } from '../helpers.js';
import { edit, editJson, installPackages, keyPair, tempDir, typecheck } from './helpers.js';
import { typeExpectations } from './type-expectations.js';

describe('this repository as a release', () => {
  it('packs both packages; a fresh project installs them, checks a corpus copy, verifies, validates and type-checks as a consumer', async () => {
    const out = tempDir();
    const keys = keyPair();
    const env = { ...process.env, OPENWOP_SPEC_SIGNING_KEY_FILE: keys.privateKey };
    const pack = spawnSync('npm', ['run', '-s', 'spec', '--', 'pack', '--out', out], {
      cwd: REPO,
      encoding: 'utf8',
      env,
    });
    expect(pack.stderr).toMatch(/packed in/);
    expect(pack.status).toBe(0);
    const digest = parseStamp(readFileSync(path.join(REPO, 'CORPUS-STAMP.json'), 'utf8')).stamp?.digest ?? '';
    expect(pack.stdout).toContain(`digest:    ${digest}`);
    // The summary adds up: the named parts (README.md and package.json are two) make the total.
    const summary = /: (\d+) files \((.*)\)$/m.exec(pack.stdout);
    const parts = [...(summary?.[2] ?? '').matchAll(/(\d+) [a-z]/g)].reduce((sum, match) => sum + Number(match[1]), 0);
    expect(parts + 2).toBe(Number(summary?.[1]));
    const artifacts = /^tarball: +(.+)$/m.exec(pack.stdout)?.[1] ?? '';

    // The toolchain, packed as npm would publish it: the tool, never the corpus.
    const toolchainPack = spawnSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], {
      cwd: REPO,
      encoding: 'utf8',
    });
    expect(toolchainPack.status).toBe(0);
    const report = JSON.parse(toolchainPack.stdout)[0] as { filename: string; files: Array<{ path: string }> };
    expect(
      report.files
        .filter((file) => !file.path.startsWith('dist/'))
        .map((file) => file.path)
        .sort(),
    ).toEqual(['README.md', 'package.json']);
    expect(report.files.some((file) => file.path.endsWith('.map'))).toBe(false);
    const toolchain = path.join(out, report.filename);
    // No lifecycle script a consumer's npm would see: the build runs before packing (prepack), not on install.
    const manifest = JSON.parse(
      spawnSync('tar', ['-xzOf', toolchain, 'package/package.json'], { encoding: 'utf8' }).stdout,
    ) as { scripts?: Record<string, string> };
    expect(
      Object.keys(manifest.scripts ?? {}).filter((name) =>
        ['prepare', 'preinstall', 'install', 'postinstall'].includes(name),
      ),
    ).toEqual([]);

    const project = installPackages([toolchain, artifacts, 'ajv@8.20.0', 'ajv-formats@3.0.1']);
    const installed = path.join(project, 'node_modules', '@openwop', 'spec-artifacts');
    const run = (command: string, args: string[]) => spawnSync(command, args, { cwd: project, encoding: 'utf8' });

    // The toolchain's command on a copy of this corpus.
    const corpus = path.join(tempDir(), 'corpus');
    for (const entry of ['package.json', 'CORPUS-STAMP.json', 'docs', ...SHIPPED_DIRECTORIES])
      cpSync(path.join(REPO, entry), path.join(corpus, entry), { recursive: true });
    const check = run('npx', ['--no-install', 'openwop-spec', 'check', '--root', corpus]);
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);

    // The artifacts' own verifier, by npx and by its bin, then after one byte changes.
    const own = run('npx', ['--no-install', '@openwop/spec-artifacts', 'verify', '--digest', digest]);
    expect(own.stdout).toMatch(/^verified @openwop\/spec-artifacts@\S+: \d+ files match/);
    // Counted as pack counts them: the stamps' files and the two stamps.
    expect(own.stdout).toContain(
      `in the 2 stamps (CORPUS-STAMP.json, PACKAGE-STAMP.json), ${summary?.[1]} files in all`,
    );
    expect(own.status).toBe(0);
    expect(
      run(path.join(project, 'node_modules', '.bin', 'openwop-spec-artifacts'), [
        'verify',
        '--digest',
        `sha256:${'0'.repeat(64)}`,
      ]).status,
    ).toBe(1);
    // The release key: the toolchain checks who signed the installed copy.
    const signed = await cli([
      'verify',
      installed,
      '--digest',
      digest,
      '--public-key',
      keys.publicKey,
      '--signature',
      `${artifacts}.dsse.json`,
    ]);
    expect(signed.stdout).toMatch(/signed by key sha256:[0-9a-f]{64}\n$/);
    expect(signed.status).toBe(0);

    // Five lines of validation, by the helper and by a plain ajv set up as the README says.
    cpSync(path.join(REPO, 'test', 'fixtures', 'consumer', 'validate.mjs'), path.join(project, 'validate.mjs'));
    const validated = run(process.execPath, ['validate.mjs']);
    expect(validated.stderr).toBe('');
    const verdicts = { event: true, badEvent: false, envelope: true, badEnvelope: false };
    expect(JSON.parse(validated.stdout)).toEqual({ helper: verdicts, plain: verdicts });
    expect(readFileSync(path.join(installed, 'README.md'), 'utf8')).toContain(
      "ajv.addVocabulary(Object.keys(require('@openwop/spec-artifacts/vocabulary.json').properties));",
    );

    // Both packages' types under tsc --strict, with no @types/node or anything else ambient.
    const consumer = [
      "import { requireVerifiedArtifacts, verifyArtifacts, diffReleaseFiles, type VerifyResult, type DiffReport } from '@openwop/spec/verify';",
      "import type * as Artifacts from '@openwop/spec-artifacts';",
      "import type { RunEvent } from '@openwop/spec-artifacts';",
      "import { verifyArtifacts as verifyOwn } from '@openwop/spec-artifacts/verify';",
      "import { validator } from '@openwop/spec-artifacts/validator';",
      "const result: VerifyResult = verifyArtifacts('node_modules/@openwop/spec-artifacts', { publicKey: 'release.pub' });",
      "const pinned: VerifyResult = requireVerifiedArtifacts('node_modules/@openwop/spec-artifacts', 'sha256:0');",
      "const report: DiffReport = diffReleaseFiles('git:v1', 'git:v2');",
      'const own: boolean = verifyOwn().ok;',
      "const validate = validator<RunEvent>('run-event');",
      'export type Everything = typeof Artifacts;',
      'export { result, pinned, report, own, validate };',
      '',
    ].join('\n');
    const compiled = typecheck(project, consumer);
    expect(compiled.output).toBe('');
    expect(compiled.status).toBe(0);
    expect(
      typecheck(
        project,
        "import type { VerifyResult } from '@openwop/spec/verify';\nexport const r: VerifyResult = { ok: 'yes' };\n",
      ).status,
    ).not.toBe(0);
    // The types are as strict as the schemas, in the installed tarball too.
    const expectations = typeExpectations(project);
    expect(expectations.filter((entry) => entry.file.startsWith('types-must-fail/')).length).toBeGreaterThanOrEqual(7);
    for (const entry of expectations)
      expect({ file: entry.file, errors: entry.reported }).toEqual({ file: entry.file, errors: entry.expected });

    edit(installed, 'spec/v2/errors.json', (text) => text.replace('"rows"', '"rowz"'));
    const tampered = run('npx', ['--no-install', '@openwop/spec-artifacts', 'verify', '--digest', digest]);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/^ {2}spec\/v2\/errors\.json {2}altered/m);
    expect((await cli(['verify', installed, '--digest', digest])).stdout).toMatch(
      /^ {2}spec\/v2\/errors\.json {2}altered/m,
    );
  }, 240_000);

  it('diffs two commits of this repository that only refactor schemas: no breaking change', async () => {
    // 0247448 moved the payload binding groups into $defs of their own and pointed the webhook
    // delivery at run-event.schema.json's binding instead of its own copy.
    const result = await cli(['diff', 'git:0247448^', 'git:0247448', '--root', REPO, '--format', 'json']);
    expect(result.status).toBe(0);
    const diff = JSON.parse(result.stdout);
    expect(diff.counts).toMatchObject({ breaking: 0, additive: 0 });
    expect(diff.changes.map((change: { rule: string; file: string }) => `${change.rule} ${change.file}`)).toEqual([
      'file/changed schemas/v2/cloudevent.schema.json',
      'file/changed schemas/v2/run-event.schema.json',
      'schema/definition-removed schemas/v2/webhook-delivery.schema.json',
    ]);
    // The same version over two different corpora is two releases under one name.
    const semver = await cli(['diff', 'git:0247448^', 'git:0247448', '--root', REPO, '--check-semver']);
    expect(semver.status).toBe(1);
    expect(semver.stdout).toMatch(
      /2\.42\.8 is the version of both releases, but they differ \(sha256:[0-9a-f]{64} and sha256:[0-9a-f]{64}\)/,
    );
  }, 60_000);

  it('diffs against a copy with one error code removed: one breaking change, and a patch bump fails --check-semver', async () => {
    const copy = tempDir();
    for (const entry of ['package.json', ...SHIPPED_DIRECTORIES])
      cpSync(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
    let removed = '';
    editJson(copy, 'spec/v2/errors.json', (registry) => (removed = registry.rows.splice(3, 1)[0].code));
    editJson(
      copy,
      'package.json',
      (manifest) => (manifest.version = manifest.version.replace(/\d+$/, (patch: string) => String(Number(patch) + 1))),
    );

    const result = await cli(['diff', REPO, copy, '--check-semver', '--format', 'json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.counts.breaking).toBe(1);
    expect(
      report.changes.filter(
        (change: { level: string; derivedFrom?: string[] }) => change.level === 'breaking' && !change.derivedFrom,
      ),
    ).toEqual([
      expect.objectContaining({
        rule: 'error/removed',
        file: 'spec/v2/errors.json',
        message: expect.stringContaining(`\`${removed}\``),
      }),
    ]);
    expect(report.semver).toMatchObject({ ok: false, bump: 'patch', required: 'major' });
  }, 60_000);
});
