import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { CLI, cliEnv, edit, removeTempDirs, REPO, reported, tempDir, tempTree } from '../helpers.js';

afterAll(removeTempDirs);

export { edit, tempDir };

const CORPUS = ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'CORPUS-STAMP.json', 'package.json'];

/** A fresh copy of this repository's corpus (with package.json, which the stamp reads its version from); `cached` adds node_modules, which turns the caches on. */
export function corpusCopy(options: { cached?: boolean } = {}): string {
  const root = tempDir('openwop-trust-');
  for (const entry of CORPUS) cpSync(path.join(REPO, entry), path.join(root, entry), { recursive: true });
  if (options.cached) mkdirSync(path.join(root, 'node_modules'));
  return root;
}

/** An empty temporary root with `files` written into it. */
export function rootWith(files: Record<string, string | Buffer>): string {
  return tempTree(files, 'openwop-trust-');
}

/** Every file under root (node_modules aside) with its bytes. */
export function snapshot(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory()) walk(child);
      else files.set(child, readFileSync(path.join(root, child)));
    }
  };
  walk('');
  return files;
}

/** The files that differ between two snapshots, or are in one only, sorted. */
export function changed(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((name) => !before.has(name) || !after.has(name) || !before.get(name)?.equals(after.get(name) as Buffer))
    .sort();
}

/** The findings of a JSON report as `rule file:line:column`. */
export function findings(stdout: string): string[] {
  return reported(stdout).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}

/**
 * The built CLI in a process of its own, killed after `timeoutMs`: for a run that might wait
 * forever (a FIFO in a file's place), which must settle on its own.
 */
export function cliWithin(
  args: readonly string[],
  timeoutMs: number,
): Promise<{ status: number | null; stdout: string; stderr: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: cliEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({
        status,
        stdout: Buffer.concat(stdout).toString('utf8'),
        stderr: Buffer.concat(stderr).toString('utf8'),
        timedOut,
      });
    });
  });
}
