/**
 * `npm pack` of a staged directory. npm fixes every entry's mtime and owner, so the tarball is a
 * function of the staged bytes, paths and modes; what npm reports it packed is compared with what
 * was staged, so a file npm's default ignores would drop (`*.orig`, `.npmrc`, ...) stops the pack.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { compareStrings } from '../output/index.js';

export class NpmPackError extends Error {}

export interface PackedTarball {
  /** Absolute path of the .tgz. */
  tarball: string;
  size: number;
  unpackedSize: number;
  integrity: string;
  entries: number;
}

interface NpmPackJson {
  filename: string;
  size: number;
  unpackedSize: number;
  integrity: string;
  entryCount: number;
  files: Array<{ path: string }>;
}

/** The npm processes this process started and that have not ended. */
const running = new Set<ChildProcess>();

/**
 * Ends every npm pack still running, with its process group (npm and what it spawned): called
 * before pack removes its scratch directory on a signal or an error, so that nothing writes into
 * the directory as it goes or outlives the pack. SIGKILL: the pack is over, nothing of npm's work is kept.
 */
export function stopNpm(): void {
  for (const child of running) {
    running.delete(child);
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) continue;
    try {
      if (process.platform === 'win32') child.kill('SIGKILL');
      else process.kill(-child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Runs `npm pack` asynchronously: while it runs, the event loop does too, so a SIGINT or SIGTERM
 * reaches the handlers that remove the pack's scratch directory (a synchronous spawn would hold
 * the signal until npm ended, and a kill then would leave the directory behind).
 */
export async function npmPack(
  stagedDirectory: string,
  outDirectory: string,
  staged: readonly string[],
): Promise<PackedTarball> {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = await new Promise<{ status: number | null; stdout: string; stderr: string; error?: Error }>(
    (resolve) => {
      const child = spawn(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', outDirectory], {
        cwd: stagedDirectory,
        shell: process.platform === 'win32',
        // Its own process group, so that stopNpm ends npm and whatever npm started, together.
        detached: process.platform !== 'win32',
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          npm_config_dry_run: 'false',
          npm_config_update_notifier: 'false',
          npm_config_fund: 'false',
        },
      });
      running.add(child);
      child.once('exit', () => running.delete(child));
      const stdout: Buffer[] = [];
      const stderr: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk));
      const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString('utf8');
      child.once('error', (error) => resolve({ status: null, stdout: text(stdout), stderr: text(stderr), error }));
      child.once('close', (status) => resolve({ status, stdout: text(stdout), stderr: text(stderr) }));
    },
  );
  if (result.error) throw new NpmPackError(`cannot run npm: ${result.error.message}`);
  if (result.status !== 0)
    throw new NpmPackError(
      `npm pack failed: ${npmCause(result.stderr, result.stdout) || `exit ${String(result.status)}`}`,
    );
  let report: NpmPackJson | undefined;
  try {
    report = (JSON.parse(result.stdout) as NpmPackJson[])[0];
  } catch {
    report = undefined;
  }
  if (!report) throw new NpmPackError('npm pack printed no report of what it packed');

  const packed = report.files.map((file) => file.path).sort(compareStrings);
  const expected = [...staged].sort(compareStrings);
  const dropped = expected.filter((file) => !packed.includes(file));
  const extra = packed.filter((file) => !expected.includes(file));
  if (dropped.length > 0 || extra.length > 0) {
    throw new NpmPackError(
      [
        dropped.length > 0 ? `npm left out ${dropped.join(', ')}` : '',
        extra.length > 0 ? `npm added ${extra.join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; ') + ' (npm ignores some file names by default; rename the file)',
    );
  }
  return {
    tarball: path.resolve(outDirectory, report.filename),
    size: report.size,
    unpackedSize: report.unpackedSize,
    integrity: report.integrity,
    entries: report.entryCount,
  };
}

/**
 * What went wrong, from npm's report: its last line only says where the log is. With --json npm
 * may print the error as JSON (`summary`, `code`); otherwise the cause is the line carrying the
 * error code (`EACCES: permission denied, open '…'`), else the first line of the error block.
 */
function npmCause(stderr: string, stdout = ''): string {
  try {
    const report = JSON.parse(stdout) as { error?: { code?: unknown; summary?: unknown } };
    const summary = typeof report.error?.summary === 'string' ? report.error.summary : '';
    const code = typeof report.error?.code === 'string' ? report.error.code : '';
    if (summary) return code && !summary.includes(code) ? `${summary} (${code})` : summary;
  } catch {
    // not JSON: read the error block
  }
  const lines = stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => /^npm (error|ERR!)/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!) ?/, ''));
  const code = lines.find((line) => line.startsWith('code '))?.slice(5);
  if (code) {
    const carrying = lines.map((line) => new RegExp(`\\b${code}: .*`).exec(line)?.[0]).find(Boolean);
    if (carrying) return carrying;
  }
  const message = lines.find(
    (line) =>
      line !== '' &&
      !/^(code|syscall|path|errno|dest) /.test(line) &&
      !/complete log of this run|^Log files were not written/.test(line),
  );
  if (message) return code && !message.includes(code) ? `${message} (${code})` : message;
  return (
    stderr
      .trim()
      .split('\n')
      .filter((line) => !/^npm (notice|warn)/.test(line))
      .pop() ?? ''
  );
}
