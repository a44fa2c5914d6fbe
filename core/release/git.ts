/**
 * Running git, the one program the toolchain runs, and only when asked to read a release from a
 * ref (`check --baseline <ref>`, `diff git:<ref>`). A ref is always one argument after the others.
 */
import { spawnSync } from 'node:child_process';

export interface GitResult {
  /** null when git did not run or was killed. */
  status: number | null;
  stdout: Buffer;
  /** git's first line on stderr, if any. */
  message: string;
  /** Why git could not be run at all (ENOENT: it is not installed), if it could not. */
  error: string | undefined;
}

export function runGit(cwd: string, args: readonly string[]): GitResult {
  const result = spawnSync('git', args, { cwd, encoding: 'buffer', maxBuffer: 1 << 30 });
  const error = result.error ? ((result.error as NodeJS.ErrnoException).code ?? result.error.message) : undefined;
  return {
    status: result.status,
    stdout: result.stdout ?? Buffer.alloc(0),
    message: (result.stderr?.toString('utf8').trim().split('\n')[0] ?? '').trim(),
    error,
  };
}
