import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { findPreviousRelease, previousRelease } from '../../core/release/previous-release.js';
import { versionTagsAbsent } from '../../core/release/git.js';
import { tempTree } from '../helpers.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function directory(files: Record<string, string>): string {
  const root = tempTree(files, 'openwop-previous-');
  roots.push(root);
  return root;
}

describe('a previous release for --previous-release', () => {
  it('is read from an installed package as well as from a checkout, naming what it lacks', () => {
    const requirements = '{"requirements": []}\n';
    const installed = directory({
      'package.json': '{"name": "@openwop/spec-artifacts", "version": "2.0.0"}',
      'conformance/requirements.json': requirements,
      'README.md': '# r\n',
    });
    const checkout = directory({
      'package.json': '{"name": "@openwop/spec", "version": "2.0.0"}',
      'conformance/requirements.json': requirements,
      'test/ignored.json': '{}',
    });
    for (const release of [installed, checkout]) {
      const found = previousRelease(release, release, ['conformance/requirements.json', 'SECURITY/invariants.yaml']);
      expect(found.ok).toBe(true);
      if (!found.ok) continue;
      expect(found.corpus.data('conformance/requirements.json')?.value).toEqual({ requirements: [] });
      expect(found.missing).toEqual(['SECURITY/invariants.yaml']);
    }
  });

  it('says in one sentence when the release is neither a path nor git:<ref>, and never hands git an option', () => {
    const root = directory({});
    expect(previousRelease(root, '--upload-pack=x', ['conformance/requirements.json'])).toEqual({
      ok: false,
      message: '--previous-release "--upload-pack=x" is not a directory or .tgz (a git ref is written git:<ref>)',
    });
    const refused = previousRelease(root, 'git:--upload-pack=x', ['conformance/requirements.json']);
    expect(refused.ok).toBe(false);
    expect(refused.ok ? '' : refused.message).toContain('name a git ref after "git:"');
  });

  it('is found from spec/v2/release.json, else the newest version tag other than the one being prepared, else not at all', () => {
    const root = directory({ 'spec/v2/release.json': '{"version": "2.1.0", "corpusTag": null}\n' });
    expect(findPreviousRelease(root)).toBeUndefined();
    const git = (...args: string[]) =>
      spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args], {
        cwd: root,
        encoding: 'utf8',
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    expect(findPreviousRelease(root)).toBeUndefined();
    git('tag', 'v2.0.0');
    git('tag', 'v2.0.10');
    git('tag', 'v2.1.0');
    git('tag', 'not-a-version');
    expect(findPreviousRelease(root)).toBe('git:v2.0.10');
    writeFileSync(path.join(root, 'spec/v2/release.json'), '{"version": "2.1.0", "corpusTag": "v2.0.0"}\n');
    expect(findPreviousRelease(root)).toBe('git:v2.0.0');
  });

  it('costs no git process only where the refs on disk show no version tag: loose, packed, nested or seen from a worktree', () => {
    const root = directory({ 'spec/v2/release.json': '{"version": "2.1.0", "corpusTag": null}\n' });
    const git = (...args: string[]) => {
      const result = spawnSync(
        'git',
        ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args],
        { cwd: root, encoding: 'utf8' },
      );
      if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
    };
    // Outside any repository it cannot tell, and git is asked.
    expect(versionTagsAbsent(root)).toBe(false);
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'one');
    git('tag', 'not-a-version');
    git('tag', 'vnext');
    expect(versionTagsAbsent(root)).toBe(true);
    expect(versionTagsAbsent(path.join(root, 'spec', 'v2'))).toBe(true);
    expect(findPreviousRelease(root)).toBeUndefined();
    // A tag whose name has a slash is a directory of refs/tags; packed, it is a line of packed-refs.
    git('tag', 'v2/rc');
    expect(versionTagsAbsent(root)).toBe(false);
    expect(findPreviousRelease(root)).toBe('git:v2/rc');
    git('tag', '-d', 'v2/rc');
    git('tag', 'v2.0.0');
    git('pack-refs', '--all');
    expect(readdirSync(path.join(root, '.git', 'refs', 'tags'))).toEqual([]);
    expect(versionTagsAbsent(root)).toBe(false);
    expect(findPreviousRelease(root)).toBe('git:v2.0.0');
    // A worktree reads the tags of its main repository.
    const worktree = `${root}-worktree`;
    roots.push(worktree);
    git('worktree', 'add', '-q', worktree);
    expect(versionTagsAbsent(worktree)).toBe(false);
    expect(findPreviousRelease(worktree)).toBe('git:v2.0.0');
    git('tag', '-d', 'v2.0.0');
    expect(versionTagsAbsent(worktree)).toBe(true);
    expect(findPreviousRelease(worktree)).toBeUndefined();
  });
});
