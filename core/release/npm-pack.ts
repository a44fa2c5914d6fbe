/**
 * `npm pack` of a staged directory. npm fixes every entry's mtime and owner, so the tarball is a
 * function of the staged bytes, paths and modes; what npm reports it packed is compared with what
 * was staged, so a file npm's default ignores would drop (`*.orig`, `.npmrc`, ...) stops the pack.
 */
import { spawnSync } from 'node:child_process';
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

export function npmPack(stagedDirectory: string, outDirectory: string, staged: readonly string[]): PackedTarball {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', outDirectory], {
    cwd: stagedDirectory,
    encoding: 'utf8',
    shell: process.platform === 'win32',
    env: { ...process.env, npm_config_dry_run: 'false', npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  if (result.error) throw new NpmPackError(`cannot run npm: ${result.error.message}`);
  if (result.status !== 0) throw new NpmPackError(`npm pack failed: ${npmCause(result.stderr) || `exit ${String(result.status)}`}`);
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
      [dropped.length > 0 ? `npm left out ${dropped.join(', ')}` : '', extra.length > 0 ? `npm added ${extra.join(', ')}` : ''].filter(Boolean).join('; ') +
        ' (npm ignores some file names by default; rename the file)',
    );
  }
  return { tarball: path.resolve(outDirectory, report.filename), size: report.size, unpackedSize: report.unpackedSize, integrity: report.integrity, entries: report.entryCount };
}

/**
 * What went wrong, from npm's error block: its last line only says where the log is, so the
 * cause is the error's code and message (`EACCES: permission denied, open '…'`), with the path.
 */
export function npmCause(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => /^npm (error|ERR!)/.test(line))
    .map((line) => line.replace(/^npm (error|ERR!) ?/, ''));
  const field = (name: string) => lines.find((line) => line.startsWith(`${name} `))?.slice(name.length + 1);
  const code = field('code');
  const message = lines.find((line) => line !== '' && !/^(code|syscall|path|errno|dest) /.test(line) && !/complete log of this run|^Log files were not written/.test(line));
  const where = field('path');
  const parts = [message ?? code, code && message && !message.includes(code) ? `(${code})` : undefined, where && message && !message.includes(where) ? `at ${where}` : undefined];
  const cause = parts.filter(Boolean).join(' ');
  if (cause) return cause;
  return stderr.trim().split('\n').filter((line) => !/^npm (notice|warn)/.test(line)).pop() ?? '';
}
