/**
 * Running git, the one program the toolchain runs, and only when asked to read a release from a
 * ref (`check --baseline <ref>`, `diff git:<ref>`). A ref is always one argument after the others.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathKind, readRegularFile, ReadRefused } from '../fs/index.js';

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

/**
 * Whether the repository holding `root` certainly has no tag named `v<digit>…` (what
 * `git tag --list 'v[0-9]*'` could list), read from its refs on disk so that a corpus with no
 * release yet costs no git process. Anything it cannot be sure of (no repository found, git told
 * where it is by the environment, refs in a reftable, a ref store it cannot read) answers false,
 * and git is asked as before.
 */
export function versionTagsAbsent(root: string): boolean {
  if (process.env.GIT_DIR !== undefined || process.env.GIT_COMMON_DIR !== undefined) return false;
  const common = commonGitDirectory(root);
  if (common === undefined || pathKind(path.join(common, 'reftable'), 'follow') !== 'missing') return false;
  try {
    // A tag `v1/x` is the directory `v1` here: the top level names every tag's first character.
    if (looseRefNames(path.join(common, 'refs', 'tags')).some((name) => VERSION_TAG.test(name))) return false;
    for (const line of optionalText(path.join(common, 'packed-refs')).split('\n')) {
      const name = line.split(' ')[1]?.trim();
      if (name?.startsWith('refs/tags/') && VERSION_TAG.test(name.slice('refs/tags/'.length))) return false;
    }
    return true;
  } catch {
    return false;
  }
}

/** Past this, a ref file is not read and git is asked. */
const MAX_REFS_BYTES = 64 * 2 ** 20;

/** What `v[0-9]*` matches: a `v` and an ASCII digit first. */
const VERSION_TAG = /^v[0-9]/;

/** The directory holding the refs of the repository `root` is in (a worktree's is its main repository's), if found. */
function commonGitDirectory(root: string): string | undefined {
  for (let directory = path.resolve(root); ; directory = path.dirname(directory)) {
    const dotGit = path.join(directory, '.git');
    const kind = pathKind(dotGit, 'follow');
    if (kind === 'missing') {
      if (path.dirname(directory) === directory) return undefined;
      continue;
    }
    try {
      let gitDirectory = dotGit;
      if (kind === 'file') {
        // A worktree or a submodule: `gitdir: <path>`, relative to the directory of the .git file.
        const pointer = /^gitdir: (.+)$/m.exec(readRegularFile(dotGit, MAX_REFS_BYTES).toString('utf8'));
        if (!pointer?.[1]) return undefined;
        gitDirectory = path.resolve(directory, pointer[1].trim());
      } else if (kind !== 'directory') return undefined;
      const commondir = optionalText(path.join(gitDirectory, 'commondir')).trim();
      return commondir === '' ? gitDirectory : path.resolve(gitDirectory, commondir);
    } catch {
      return undefined;
    }
  }
}

/** The text of a file of the git directory, empty when there is none; any other trouble throws. */
function optionalText(file: string): string {
  try {
    return readRegularFile(file, MAX_REFS_BYTES).toString('utf8');
  } catch (error) {
    if (error instanceof ReadRefused && error.code === 'ENOENT') return '';
    throw error;
  }
}

/** The entries of a refs directory, none when there is none; any other trouble throws. */
function looseRefNames(directory: string): string[] {
  try {
    return readdirSync(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
