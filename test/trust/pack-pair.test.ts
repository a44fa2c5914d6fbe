/**
 * `pack` replaces a published pair (tarball and envelope) in --out as one step: killed at any of
 * its moves, it leaves a tarball that verifies with the key, the old pair or the new; its scratch
 * directory is gone after a signal and after a kill (the next pack removes it).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cli, cliEnv, spawnCli } from '../helpers.js';
import { keyPair } from '../release/helpers.js';
import { copyCorpus, edit, tempDir } from './helpers.js';

const HOSTILE = process.env.OPENWOP_SPEC_HOSTILE === '1';

describe.skipIf(!HOSTILE)('pack replaces the pair in --out as one step', { timeout: 600_000 }, () => {
  it('killed before each of its moves, the tarball in --out verifies with the key; no scratch is left once a pack completes', async () => {
    const root = copyCorpus();
    const out = tempDir();
    const key = keyPair();
    const first = await cli(['pack', '--root', root, '--out', out, '--signing-key', key.privateKey]);
    expect(first.status, first.stderr).toBe(0);
    const tarball = path.join(out, readdirSync(out).find((entry) => entry.endsWith('.tgz')) as string);
    const before = readFileSync(tarball);
    // A new corpus under the same version: the pair in --out must change, and never be half changed.
    edit(
      root,
      'spec/v2/core/capabilities.md',
      'A client has one place',
      'A sentence added for this release. A client has one place',
    );
    expect((await cli(['generate', '--root', root])).status).toBe(0);
    expect((await cli(['check', '--root', root, '--quiet'])).status).toBe(0);
    const kinds = new Set<string>();
    for (const step of [1, 2, 3]) {
      const killed = spawnCli(['pack', '--root', root, '--out', out, '--signing-key', key.privateKey], {
        env: cliEnv({ OPENWOP_SPEC_FAULT: `kill-at-write:${step}` }),
      });
      expect(killed.signal).toBe('SIGKILL');
      const verified = await cli(['verify', tarball, '--public-key', key.publicKey]);
      expect(verified.status, `${verified.stdout}${verified.stderr}`).toBe(0);
      kinds.add(readFileSync(tarball).equals(before) ? 'old' : 'new');
    }
    // Killed before the tarball's rename: the old pair; after it: the new one.
    expect([...kinds].sort()).toEqual(['new', 'old']);
    const last = await cli(['pack', '--root', root, '--out', out, '--signing-key', key.privateKey]);
    expect(last.status).toBe(0);
    expect((await cli(['verify', tarball, '--public-key', key.publicKey])).status).toBe(0);
    expect(readdirSync(out).filter((entry) => entry.startsWith('.'))).toEqual([]);
  });

  /** The processes `pid` started whose command line names npm (Linux: read from /proc). */
  const npmChildren = (pid: number): number[] =>
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .filter((entry) => {
        try {
          const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
          const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          return parent === pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('npm');
        } catch {
          return false;
        }
      })
      .map(Number);

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it.skipIf(process.platform !== 'linux')(
      `a pack ended by ${signal} while npm pack runs removes its scratch directory`,
      async () => {
        const root = copyCorpus();
        const out = tempDir();
        const child = spawn(process.execPath, [CLI, 'pack', '--root', root, '--out', out, '--unsigned'], {
          env: cliEnv(),
          stdio: 'ignore',
        });
        const ended = new Promise((resolve) => child.on('exit', resolve));
        let npm: number[] = [];
        for (let waited = 0; waited < 180_000 && npm.length === 0 && child.exitCode === null; waited += 10) {
          npm = npmChildren(child.pid as number);
          if (npm.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
        }
        expect(npm.length, 'npm pack was seen running under pack').toBeGreaterThan(0);
        child.kill(signal);
        await ended;
        expect(readdirSync(out).filter((entry) => entry.startsWith('.openwop-pack-'))).toEqual([]);
      },
      240_000,
    );
  }

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    it(`a pack ended by ${signal} leaves no scratch directory once it, or the next pack, is done`, async () => {
      const root = copyCorpus();
      const out = tempDir();
      const child = spawn(process.execPath, [CLI, 'pack', '--root', root, '--out', out, '--unsigned'], {
        env: cliEnv(),
        stdio: 'ignore',
      });
      const ended = new Promise((resolve) => child.on('exit', resolve));
      // Signalled once its scratch directory is there, while it packs.
      const scratch = () => readdirSync(out).filter((entry) => entry.startsWith('.openwop-pack-'));
      for (let waited = 0; waited < 120_000 && scratch().length === 0; waited += 20)
        await new Promise((resolve) => setTimeout(resolve, 20));
      expect(scratch()).toHaveLength(1);
      child.kill(signal);
      await ended;
      if (signal === 'SIGKILL') {
        // Nothing runs after SIGKILL: the scratch stays, and the next pack in this --out removes it.
        expect((await cli(['pack', '--root', root, '--out', out, '--unsigned'])).status).toBe(0);
      }
      expect(scratch()).toEqual([]);
    });
  }
});
