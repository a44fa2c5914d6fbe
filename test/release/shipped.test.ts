import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { jcs } from '../../core/output/digest.js';
import {
  canonicalJson,
  verifyArtifacts as verifyOwn,
  requireVerifiedArtifacts as requireOwn,
  verifyArtifacts as verifyOwnApi,
  type VerifyOptions as OwnOptions,
  type VerifyResult as OwnResult,
} from '../../core/release/shipped/verify.js';
import { stagePackage, writeStaged } from '../../core/release/stage.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import {
  requireVerifiedArtifacts as requireToolchain,
  verifyArtifacts as verifyToolchainApi,
} from '../../core/release/consumer.js';
import type {
  VerifyOptions as ToolchainOptions,
  VerifyResult as ToolchainResult,
} from '../../core/release/public-types.js';
import { REPO } from '../helpers.js';
import { stampedCopy, tempDir } from './helpers.js';

/** The verifier the package carries agrees with the toolchain's on every staged package. */
describe("the artifacts' own verifier", () => {
  let files: Map<string, Buffer>;
  const staged = (edit?: (root: string) => void): string => {
    const root = path.join(tempDir(), 'package');
    writeStaged(root, files);
    edit?.(root);
    return root;
  };
  const named = (problems: Array<{ kind: string; file: string }>) =>
    problems.map((problem) => `${problem.kind} ${problem.file}`).sort();

  beforeAll(async () => {
    files = (await stagePackage(loadCorpus(stampedCopy()), { version: '1.4.2', license: 'Apache-2.0' })).files;
  });

  it('writes RFC 8785 as the canonicalize library does, for the records and for awkward values', () => {
    for (const value of [
      JSON.parse(String(files.get('CORPUS-STAMP.json'))),
      { b: [1, 2.5, -0, 1e21, null, true], a: 'é\u2028"\\', '\u00e9': 1, z: {} },
      'x',
      0.1,
    ])
      expect(canonicalJson(value)).toBe(jcs(value));
  });

  it('passes the package as staged, with the digest the toolchain computes', () => {
    const root = staged();
    const own = verifyOwn(root, { digest: verifyArtifacts(root).digest ?? '' });
    expect(own).toMatchObject({ ok: true, problems: [], files: files.size - 2, digest: verifyArtifacts(root).digest });
    expect(verifyOwn(root, { digest: `sha256:${'0'.repeat(64)}` }).problems).toEqual([
      expect.objectContaining({ kind: 'digest', file: 'CORPUS-STAMP.json' }),
    ]);
  });

  it('names the same files as the toolchain after one byte changes in each kind of file, an extra file, a deletion and a link', () => {
    for (const file of [
      'spec/v2/errors.json',
      'lib/verify.js',
      'types/index.d.ts',
      'README.md',
      'schemas.json',
      'vocabulary.json',
      'package.json',
    ]) {
      const root = staged((dir) => {
        const bytes = readFileSync(path.join(dir, file));
        bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 1;
        writeFileSync(path.join(dir, file), bytes);
      });
      const own = verifyOwn(root);
      expect(own.ok).toBe(false);
      expect(named(own.problems)).toContain(`altered ${file}`);
      expect(named(own.problems)).toEqual(named(verifyArtifacts(root).problems));
    }
    const root = staged((dir) => {
      writeFileSync(path.join(dir, 'index.js'), 'process.exit(0)\n');
      rmSync(path.join(dir, 'types/schemas/v2/run.schema.d.ts'));
      symlinkSync('/etc/passwd', path.join(dir, 'spec/v2/link.json'));
    });
    expect(named(verifyOwn(root).problems)).toEqual([
      'missing types/schemas/v2/run.schema.d.ts',
      'unlisted index.js',
      'unlisted spec/v2/link.json',
    ]);
  });
});

/** `true` when two types are each assignable to the other. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

describe('one verify API across both packages', () => {
  it('declares the same signatures and shapes in @openwop/spec/verify and @openwop/spec-artifacts/verify', () => {
    // Checked by the compiler (npm test type-checks the tests): a drift fails the build, not only this test.
    const same: [
      Same<typeof verifyOwnApi, typeof verifyToolchainApi>,
      Same<typeof requireOwn, typeof requireToolchain>,
      Same<OwnResult, ToolchainResult>,
      Same<OwnOptions, ToolchainOptions>,
    ] = [true, true, true, true];
    expect(same).toEqual([true, true, true, true]);
  });

  it('refuses wrong arguments from JavaScript with a TypeError that says what was expected, in both packages', () => {
    const untyped = (fn: unknown) => fn as (...args: unknown[]) => unknown;
    for (const require of [requireOwn, requireToolchain]) {
      expect(() => untyped(require)('node_modules/@openwop/spec-artifacts')).toThrow(TypeError);
      expect(() => untyped(require)('node_modules/@openwop/spec-artifacts')).toThrow(
        /the digest you pinned \(sha256:<64 hex digits>\) is required, not undefined/,
      );
      expect(() => untyped(require)('x', { digest: 'sha256:0' })).toThrow(
        /the digest you pinned .* is required, not an object/,
      );
    }
    for (const verify of [verifyOwnApi, verifyToolchainApi]) {
      expect(() => untyped(verify)('x', 'sha256:0')).toThrow(
        /the options must be an object such as \{ digest: 'sha256:…' \}, not the string "sha256:0"/,
      );
      expect(() => untyped(verify)(42)).toThrow(
        /the target must be a path \(a non-empty string\) or undefined, not number 42/,
      );
      expect(() => untyped(verify)('x', { digest: 7 })).toThrow(/options\.digest must be a string, not number 7/);
    }
  });

  it("says the artifacts' verifier does not check signatures rather than passing a release it did not check", () => {
    const root = path.join(tempDir(), 'package');
    const result = verifyOwnApi(root, { publicKey: 'release.pub' });
    expect(result.ok).toBe(false);
    expect(result.problems).toContainEqual(
      expect.objectContaining({ kind: 'signature', message: expect.stringMatching(/checks the stamps only/) }),
    );
  });

  it('names its bin, openwop-spec-artifacts, in its help and errors', () => {
    const cli = path.join(REPO, 'dist', 'core', 'release', 'shipped', 'cli.js');
    const help = spawnSync(process.execPath, [cli, '--help'], { encoding: 'utf8' });
    expect(help.stdout).toBe('usage: openwop-spec-artifacts verify [DIR] [--digest sha256:<hex>] [--json]\n');
    const wrong = spawnSync(process.execPath, [cli, 'check'], { encoding: 'utf8' });
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toMatch(/^openwop-spec-artifacts: unknown verb "check"\n/);
  });
});
