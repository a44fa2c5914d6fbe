import { spawn } from 'node:child_process';
import { afterAll } from 'vitest';
import {
  CLI,
  cliEnv,
  copyCorpus,
  edit,
  removeTempDirs,
  reported,
  snapshotFiles,
  tempDir,
  tempTree,
} from '../helpers.js';

afterAll(removeTempDirs);

export { copyCorpus, edit, snapshotFiles, tempDir, tempTree };

/** The files that differ between two snapshots, or are in one only, sorted. */
export function changed(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((name) => !before.has(name) || !after.has(name) || !before.get(name)?.equals(after.get(name) as Buffer))
    .sort();
}

/** The findings of a JSON report as `rule file:line:column`. */
export function findingPlaces(stdout: string): string[] {
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
