/**
 * A gate that needs something the run cannot have (git, to read the previous release's tag) says
 * so as an error finding; it never passes as if there were nothing to compare with. Comparing with
 * nothing is a choice said out loud: `--previous-release none`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliEnv, FIXTURES, reported } from '../helpers.js';
import { tempDir } from './helpers.js';

/** The release fixture as a git checkout with a version tag: a previous release git can find. */
function taggedCheckout(): string {
  const root = tempDir();
  cpSync(path.join(FIXTURES, 'release', 'base'), root, { recursive: true });
  const git = (...args: string[]) => {
    const result = spawnSync('git', ['-c', 'user.email=t@example.org', '-c', 'user.name=t', ...args], {
      cwd: root,
      encoding: 'utf8',
    });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  };
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'release');
  git('tag', 'v1.0.0');
  return root;
}

describe('absent tools fail loudly', { timeout: 60_000 }, () => {
  it('compat/monotone with a tagged previous release and no git on PATH: an error finding that says why', async () => {
    const root = taggedCheckout();
    const result = await cli(['check', '--root', root, '--format', 'json', '--rule', 'compat/monotone'], {
      env: cliEnv({ PATH: path.join(root, 'no-tools-here') }),
    });
    const monotone = reported(result.stdout).filter((d) => d.rule === 'compat/monotone');
    expect(monotone).toHaveLength(1);
    expect(monotone[0]?.severity).toBe('error');
    expect(monotone[0]?.message).toMatch(/git cannot be run/);
    expect(result.status).toBe(1);
  });

  it('git that runs and fails in the checkout (dubious ownership): an error finding with what git said', async () => {
    const root = taggedCheckout();
    const bin = tempDir();
    writeFileSync(
      path.join(bin, 'git'),
      '#!/bin/sh\necho "fatal: detected dubious ownership in repository at \'$PWD\'" >&2\nexit 128\n',
      { mode: 0o755 },
    );
    const result = await cli(['check', '--root', root, '--format', 'json', '--rule', 'compat/monotone'], {
      env: cliEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` }),
    });
    const monotone = reported(result.stdout).filter((d) => d.rule === 'compat/monotone');
    expect(monotone).toHaveLength(1);
    expect(monotone[0]?.severity).toBe('error');
    expect(monotone[0]?.message).toContain('dubious ownership');
    expect(result.status).toBe(1);
  });

  it('a checkout with no commit yet has no previous release, and that is no error', async () => {
    const root = tempDir();
    cpSync(path.join(FIXTURES, 'release', 'base'), root, { recursive: true });
    expect(spawnSync('git', ['init', '-q'], { cwd: root }).status).toBe(0);
    const result = await cli(['check', '--root', root, '--format', 'json', '--rule', 'compat/monotone']);
    expect(reported(result.stdout).filter((d) => d.rule === 'compat/monotone')).toEqual([]);
  });

  it('--previous-release none compares with nothing and says so', async () => {
    const root = taggedCheckout();
    const result = await cli(
      ['check', '--root', root, '--format', 'json', '--rule', 'compat/monotone', '--previous-release', 'none'],
      { env: cliEnv({ PATH: path.join(root, 'no-tools-here') }) },
    );
    expect(reported(result.stdout).filter((d) => d.rule === 'compat/monotone')).toEqual([]);
    expect(result.stderr).toContain('no comparison');
  });
});
