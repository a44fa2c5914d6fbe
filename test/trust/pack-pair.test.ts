/**
 * `pack` replaces a published pair (tarball and envelope) in --out as one step: killed at any of
 * its moves, it leaves a tarball that verifies with the key, the old pair or the new; its scratch
 * directory is gone after a signal and after a kill (the next pack removes it).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
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

/** Whether process `pid` has ended (gone, or a zombie no one has reaped yet). */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return true;
  }
}

describe.skipIf(process.platform !== 'linux')('a signal during npm pack ends npm too', { timeout: 240_000 }, () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while npm pack runs: pack ends at once, npm with it, and no scratch directory is left`, async () => {
      const root = copyCorpus();
      const out = tempDir();
      // An npm that never finishes: a pack that waits for it (a blocking spawn, or one that does
      // not end it) cannot end, and leaves it running.
      const bin = tempDir();
      const pidFile = path.join(tempDir(), 'npm.pid');
      writeFileSync(path.join(bin, 'npm'), '#!/bin/sh\necho $$ > "$FAKE_NPM_PID"\nexec sleep 600\n', { mode: 0o755 });
      const child = spawn(process.execPath, [CLI, 'pack', '--root', root, '--out', out, '--unsigned'], {
        env: cliEnv({ PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, FAKE_NPM_PID: pidFile }),
        stdio: 'ignore',
      });
      const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
      const npmPid = (): number | undefined => {
        try {
          const text = readFileSync(pidFile, 'utf8').trim();
          return text ? Number(text) : undefined;
        } catch {
          return undefined;
        }
      };
      for (let waited = 0; waited < 180_000 && npmPid() === undefined && child.exitCode === null; waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const npm = npmPid();
      expect(npm, 'npm pack was started').toBeDefined();
      child.kill(signal);
      const settled = await Promise.race([
        exited.then(() => true),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 15_000)),
      ]);
      if (!settled) child.kill('SIGKILL');
      // A moment for the kernel to deliver the kill; then whatever is left is cleared up, after noting it.
      for (let waited = 0; waited < 2_000 && npm !== undefined && !ended(npm); waited += 50)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const npmEnded = npm !== undefined && ended(npm);
      if (npm !== undefined && !npmEnded) process.kill(npm, 'SIGKILL');
      expect(settled, 'pack ended soon after the signal').toBe(true);
      expect(npmEnded, 'npm ended with the pack').toBe(true);
      expect(readdirSync(out).filter((entry) => entry.startsWith('.openwop-pack-'))).toEqual([]);
    });
  }
});
