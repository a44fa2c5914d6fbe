/**
 * The integrations as their hosts run them. The pre-commit hooks through the `pre-commit` tool on
 * a git repository with staged changes: the hook definitions are read from .pre-commit-hooks.yaml
 * and run as a local repository's hooks with the built CLI as their entry (what `language: node`
 * would install from the registry instead). The composite Action's check step run as the runner
 * runs it: its script, its inputs in the environment, $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { CLI, doc, REPO, writeFiles } from '../helpers.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-integrations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const PRE_COMMIT = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
if (!PRE_COMMIT)
  console.log(
    'skipped: the pre-commit hook test needs the pre-commit tool on PATH (pip install pre-commit, or apt-get install pre-commit)',
  );

const git = (cwd: string, ...args: string[]) =>
  spawnSync(
    'git',
    ['-c', 'user.email=test@example.org', '-c', 'user.name=test', '-c', 'commit.gpgsign=false', ...args],
    { cwd, encoding: 'utf8' },
  );

interface HookDefinition {
  id: string;
  entry: string;
  language: string;
  files?: string;
  pass_filenames?: boolean;
  always_run?: boolean;
  require_serial?: boolean;
}

describe('the pre-commit hooks', () => {
  const hooks = parse(readFileSync(path.join(REPO, '.pre-commit-hooks.yaml'), 'utf8')) as HookDefinition[];

  it('are defined for a node install of this package, running check', () => {
    expect(hooks.map((hook) => hook.id)).toEqual(['openwop-spec-check', 'openwop-spec-check-all']);
    for (const hook of hooks)
      expect(hook).toMatchObject({ language: 'node', entry: 'openwop-spec check', require_serial: true });
    expect(hooks[0]).toMatchObject({ pass_filenames: true });
    expect(hooks[1]).toMatchObject({ pass_filenames: false, always_run: true });
    const files = new RegExp(hooks[0]?.files ?? '');
    expect(
      ['spec/v2/core/runs.md', 'api/v2/openapi.yaml', 'CORPUS-STAMP.json'].filter((f) => files.test(f)),
    ).toHaveLength(3);
    expect(['README.md', 'scripts/check.ts', 'node_modules/x/spec/a.md'].filter((f) => files.test(f))).toEqual([]);
  });

  it.skipIf(!PRE_COMMIT)(
    'report on the staged files (and what links into them) and pass a clean commit, through the pre-commit tool',
    { timeout: 120_000 },
    () => {
      const repo = path.join(scratch, 'repo');
      writeFiles(repo, {
        'openwop-spec.config.json': JSON.stringify({ required: [] }),
        'spec/v2/core/a.md': doc('A', 'See [b.md](b.md#why-this-exists).'),
        'spec/v2/core/b.md': doc('B', 'Text.'),
        'spec/v2/core/c.md': doc('C', 'An old [broken link](a.md#gone), committed before the hook.'),
      });
      expect(git(repo, 'init', '-q').status).toBe(0);
      expect(git(repo, 'add', '-A').status).toBe(0);
      expect(git(repo, 'commit', '-q', '-m', 'corpus').status).toBe(0);
      // The hooks as a local repository declares them: the same definitions, run with the built CLI.
      const local = hooks.map((hook) => ({
        ...hook,
        name: hook.id,
        language: 'system',
        entry: `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} check`,
      }));
      writeFiles(repo, { '.pre-commit-config.yaml': stringify({ repos: [{ repo: 'local', hooks: local }] }) });
      const env = { ...process.env, PRE_COMMIT_HOME: path.join(scratch, 'pre-commit-home'), NO_COLOR: '1' };
      const run = (...args: string[]) =>
        spawnSync('pre-commit', ['run', '--color', 'never', ...args], { cwd: repo, encoding: 'utf8', env });

      // A staged edit that breaks a link: the staged-files hook fails on it and leaves c.md alone.
      writeFiles(repo, { 'spec/v2/core/b.md': doc('B', 'Text, and [a link](a.md#nowhere).') });
      git(repo, 'add', 'spec/v2/core/b.md', '.pre-commit-config.yaml');
      const staged = run('openwop-spec-check');
      expect(staged.status, staged.stdout + staged.stderr).toBe(1);
      expect(staged.stdout).toContain('spec/v2/core/b.md:7:');
      expect(staged.stdout).toContain('links/anchor');
      expect(staged.stdout).not.toContain('spec/v2/core/c.md');
      // The whole-corpus hook sees the old finding too.
      const all = run('openwop-spec-check-all');
      expect(all.status).toBe(1);
      expect(all.stdout).toContain('spec/v2/core/c.md');

      // Fixed and staged again: the staged-files hook passes.
      writeFiles(repo, { 'spec/v2/core/b.md': doc('B', 'Text, and [a link](a.md#why-this-exists).') });
      git(repo, 'add', 'spec/v2/core/b.md');
      const clean = run('openwop-spec-check');
      expect(clean.status, clean.stdout + clean.stderr).toBe(0);
      expect(clean.stdout).toMatch(/openwop-spec-check\.+Passed/);
    },
  );
});

describe('the GitHub Action', () => {
  const action = parse(readFileSync(path.join(REPO, 'action.yml'), 'utf8')) as {
    inputs: Record<string, { default?: string }>;
    runs: {
      using: string;
      steps: Array<{
        id?: string;
        uses?: string;
        run?: string;
        shell?: string;
        env?: Record<string, string>;
        if?: string;
      }>;
    };
  };

  it('is a composite action: node set up, cache, install, one check run, SARIF uploaded, the job failed last; no input is pasted into a script', () => {
    expect(action.runs.using).toBe('composite');
    const uses = action.runs.steps.flatMap((step) => (step.uses ? [step.uses.split('@')[0]] : []));
    expect(uses).toEqual(['actions/setup-node', 'actions/cache', 'github/codeql-action/upload-sarif']);
    const scripts = action.runs.steps.filter((s) => s.run);
    expect(scripts.length).toBeGreaterThan(0);
    for (const step of scripts) {
      expect(step.shell).toBe('bash');
      expect(step.run).not.toContain('${{');
    }
    expect(action.runs.steps.at(-1)?.if).toContain("steps.check.outputs.exit-code != '0'");
  });

  it('its check step writes annotations, the SARIF file and the job summary in one run, and records the exit code', () => {
    const step = action.runs.steps.find((s) => s.id === 'check');
    expect(step?.run).toBeDefined();
    const work = path.join(scratch, 'workspace');
    writeFiles(work, {
      'corpus/openwop-spec.config.json': JSON.stringify({ required: [] }),
      'corpus/spec/v2/core/a.md': doc('A', 'See [b.md](b.md#missing).'),
      'corpus/spec/v2/core/b.md': doc('B', 'Text.'),
      'bin/openwop-spec': `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)} "$@"\n`,
    });
    spawnSync('chmod', ['+x', path.join(work, 'bin/openwop-spec')]);
    const output = path.join(work, 'github-output');
    const summary = path.join(work, 'step-summary.md');
    writeFileSync(output, '');
    writeFileSync(summary, '');
    const result = spawnSync('bash', ['-e', '-c', step?.run as string], {
      cwd: work,
      encoding: 'utf8',
      env: {
        ...process.env,
        NO_COLOR: '1',
        GITHUB_OUTPUT: output,
        GITHUB_STEP_SUMMARY: summary,
        OPENWOP_SPEC: path.join(work, 'bin/openwop-spec'),
        INPUT_ROOT: 'corpus',
        INPUT_FILES: '',
        INPUT_ARGS: '--max-warnings -1',
        INPUT_SARIF: 'out/openwop-spec.sarif',
      },
    });
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^::error file=spec\/v2\/core\/a\.md,line=7,col=5,.*title=links\/anchor::/m);
    expect(result.stdout.trimEnd().split('\n').at(-1)).toMatch(
      /^::notice title=openwop-spec::1 problem \(1 error, 0 warnings\) in 2 files; failing: 1 error$/,
    );
    expect(readFileSync(output, 'utf8')).toBe('sarif=out/openwop-spec.sarif\nexit-code=1\n');
    expect(JSON.parse(readFileSync(path.join(work, 'out/openwop-spec.sarif'), 'utf8')).runs[0].results).toHaveLength(1);
    expect(readFileSync(summary, 'utf8')).toContain('| error | `spec/v2/core/a.md:7:5` |');
  });
});
