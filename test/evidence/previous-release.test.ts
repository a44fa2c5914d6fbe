import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { findPreviousRelease, previousRelease } from '../../core/release/previous-release.js';
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
});
