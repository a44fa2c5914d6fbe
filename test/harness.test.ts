/**
 * The in-process runner of the built CLI (test/helpers.ts `cli`), which most end-to-end cases use
 * instead of a process: it must give what the executable gives, and leave the worker as it was.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, cliEnv, fixture, REPO, spawnCli } from './helpers.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-harness-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the in-process CLI runner', { timeout: 60_000 }, () => {
  it('gives the status, stdout and stderr the executable gives', async () => {
    for (const args of [
      ['check', '--root', fixture('defects/links')],
      // The parse-defect files are a layer with no config of their own: the good corpus's config is the base.
      [
        'check',
        '--root',
        fixture('defects/parse'),
        '--config',
        fixture('good/openwop-spec.config.json'),
        '--format',
        'json',
      ],
      ['check', '--root', '/no/such/dir'],
      ['check', '--format', 'xml'],
      ['rules', '--format', 'json'],
    ]) {
      const { status, stdout, stderr } = spawnCli(args);
      expect(await cli(args), args.join(' ')).toEqual({ status, stdout, stderr, signal: null });
    }
  });

  it('runs in the directory and environment it is given, and leaves the worker as it found it', async () => {
    const before = {
      cwd: process.cwd(),
      env: { ...process.env },
      exitCode: process.exitCode,
      write: process.stdout.write,
      tty: process.stdout.isTTY,
    };
    // A hint names the command that works where the run is: `openwop-spec` outside this repository.
    const outside = await cli(['check', '--root', fixture('defects/links')], {
      cwd: scratch,
      env: cliEnv({ npm_lifecycle_event: undefined, npm_package_name: undefined, OPENWOP_SPEC_HARNESS: 'set' }),
    });
    expect(outside.status).toBe(1);
    const inside = await cli(['check', '--root', fixture('defects/links')], {
      cwd: REPO,
      env: cliEnv({ npm_lifecycle_event: undefined, npm_package_name: undefined }),
    });
    expect(outside.stdout).toMatch(/`openwop-spec check --fix`/);
    expect(inside.stdout).toMatch(/`npm run spec -- check --fix`/);
    expect({
      cwd: process.cwd(),
      env: { ...process.env },
      exitCode: process.exitCode,
      write: process.stdout.write,
      tty: process.stdout.isTTY,
    }).toEqual(before);
    expect(process.env.OPENWOP_SPEC_HARNESS).toBeUndefined();
  });

  it('refuses what acts on the whole process, which only spawnCli can run', async () => {
    await expect(cli(['generate'], { env: cliEnv({ OPENWOP_SPEC_FAULT: 'kill-at-write:1' }) })).rejects.toThrow(
      /OPENWOP_SPEC_FAULT acts on a whole process: run this case with spawnCli/,
    );
  });
});
