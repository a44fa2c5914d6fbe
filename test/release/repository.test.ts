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
import { edit, editJson, installInEmptyProject, tempDir, typecheck } from './helpers.js';

describe('this repository as a release', () => {
  it('packs with `npm run spec -- pack` into a tarball that installs, verifies, and type-checks under tsc --strict', () => {
    const out = tempDir();
    const pack = spawnSync('npm', ['run', '-s', 'spec', '--', 'pack', '--out', out], { cwd: REPO, encoding: 'utf8' });
    expect(pack.stderr).toMatch(/packed in/);
    expect(pack.status).toBe(0);
    const digest = parseStamp(readFileSync(path.join(REPO, 'CORPUS-STAMP.json'), 'utf8')).stamp?.digest ?? '';
    expect(pack.stdout).toContain(`digest:    ${digest}`);
    const tarball = /^tarball: +(.+)$/m.exec(pack.stdout)?.[1] ?? '';

    const project = installInEmptyProject(tarball);
    const installed = path.join(project, 'node_modules', '@openwop', 'spec-artifacts');
    const verified = cli(['verify', installed, '--digest', digest]);
    expect(verified.stdout).toMatch(/^verified @openwop\/spec-artifacts@/);
    expect(verified.status).toBe(0);

    // Every declaration file is reached through the index, so this compiles all of them.
    const compiled = typecheck(project, "import type * as Artifacts from '@openwop/spec-artifacts';\nexport type Everything = typeof Artifacts;\n");
    expect(compiled.output).toBe('');
    expect(compiled.status).toBe(0);

    edit(installed, 'spec/v2/errors.json', (text) => text.replace('"rows"', '"rowz"'));
    const tampered = cli(['verify', installed, '--digest', digest]);
    expect(tampered.status).toBe(1);
    expect(tampered.stdout).toMatch(/^ {2}spec\/v2\/errors\.json {2}altered/m);
  }, 180_000);

  it('diffs against a copy with one error code removed: one breaking change, and a patch bump fails --check-semver', () => {
    const copy = tempDir();
    for (const entry of ['package.json', ...SHIPPED_DIRECTORIES]) cpSync(path.join(REPO, entry), path.join(copy, entry), { recursive: true });
    let removed = '';
    editJson(copy, 'spec/v2/errors.json', (registry) => (removed = registry.rows.splice(3, 1)[0].code));
    editJson(copy, 'package.json', (manifest) => (manifest.version = manifest.version.replace(/\d+$/, (patch: string) => String(Number(patch) + 1))));

    const result = cli(['diff', REPO, copy, '--check-semver', '--format', 'json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout);
    expect(report.counts.breaking).toBe(1);
    expect(report.changes.filter((change: { level: string; derivedFrom?: string[] }) => change.level === 'breaking' && !change.derivedFrom)).toEqual([
      expect.objectContaining({ rule: 'error/removed', file: 'spec/v2/errors.json', message: expect.stringContaining(`\`${removed}\``) }),
    ]);
    expect(report.semver).toMatchObject({ ok: false, bump: 'patch', required: 'major' });
  }, 60_000);
});
