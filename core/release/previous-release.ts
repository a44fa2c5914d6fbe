/**
 * Files of a previous release, for the gates that compare against one (`check --previous-release`):
 * any release `diff` reads (a repository checkout, an installed package, a packed .tgz, or
 * `git:<ref>` of the repository the corpus is in). Without the option, the previous release is
 * found: the `corpusTag` of spec/v2/release.json when it names one, else the newest version tag
 * (`v1.2.3`) reachable from HEAD other than the version being prepared. When there is none, there
 * is nothing an id could have been removed from, and the comparison says nothing.
 */
import { existsSync } from 'node:fs';
import { readInside } from '../fs/index.js';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from '../model/index.js';
import { runGit } from './git.js';
import { loadReleaseFiles } from './source.js';
import { ReleaseSourceError } from './tree.js';

export type PreviousRelease =
  { ok: true; corpus: Corpus; label: string; missing: string[] } | { ok: false; message: string };

const RELEASE_FILE = 'spec/v2/release.json';

const cache = new Map<string, PreviousRelease>();

/**
 * The files `relatives` (files a release ships) of the release `spec` (a path, or `git:<ref>` of
 * the repository at `root`), as a corpus of their own; `missing` lists those the release lacks.
 */
export function previousRelease(root: string, spec: string, relatives: readonly string[]): PreviousRelease {
  const key = JSON.stringify([root, spec, relatives]);
  const cached = cache.get(key);
  if (cached) return cached;
  const result = read(root, spec, relatives);
  cache.set(key, result);
  return result;
}

/** Why `spec` cannot name a release, in one line, or undefined when it can be read. */
export function previousReleaseProblem(root: string, spec: string): string | undefined {
  const result = previousRelease(root, spec, []);
  return result.ok ? undefined : result.message;
}

/**
 * A previous release there is but that cannot be read here (a git checkout, git not runnable):
 * carried to the gates as a spec of its own, so that each says why it cannot compare instead of
 * passing as if there were no previous release.
 */
const UNREADABLE = 'unreadable:';

/** Why the previous release named by `spec` cannot be read, when `spec` says so; else undefined. */
export function whyUnreadable(spec: string): string | undefined {
  return spec.startsWith(UNREADABLE) ? spec.slice(UNREADABLE.length) : undefined;
}

function read(root: string, spec: string, relatives: readonly string[]): PreviousRelease {
  const why = whyUnreadable(spec);
  if (why !== undefined) return { ok: false, message: why };
  const isRef = spec.startsWith('git:');
  if (!isRef && !existsSync(path.resolve(root, spec))) {
    const looksLikeRef =
      /^[\w./@^~{}+-]+$/.test(spec) &&
      !spec.startsWith('-') &&
      runGit(root, ['rev-parse', '--verify', '--quiet', `${spec}^{commit}`]).status === 0;
    return {
      ok: false,
      message: `--previous-release ${JSON.stringify(spec)} is not a directory or .tgz${looksLikeRef ? `; a git ref is written git:${spec}` : ' (a git ref is written git:<ref>)'}`,
    };
  }
  let release;
  try {
    release = loadReleaseFiles(spec, root);
  } catch (error) {
    if (error instanceof ReleaseSourceError)
      return { ok: false, message: `--previous-release ${spec}: ${error.message}` };
    throw error;
  }
  const files: Record<string, Buffer> = {};
  const missing: string[] = [];
  for (const relative of relatives) {
    const bytes = release.files.get(relative);
    if (bytes) files[relative] = bytes;
    else missing.push(relative);
  }
  return {
    ok: true,
    corpus: corpusFromFiles(release.root, files),
    label: isRef ? `git ref ${spec.slice(4)}` : `the release in ${spec}`,
    missing,
  };
}

/**
 * The previous release of the corpus at `root` as `git:<tag>`, or undefined when it has none
 * (no git, no tags: a first release). Shells out to git, so the verb calls it, not a gate.
 */
export function findPreviousRelease(root: string): string | undefined {
  let next: string | undefined;
  try {
    const value = JSON.parse(readInside(root, RELEASE_FILE, 2 ** 20).toString('utf8')) as {
      version?: unknown;
      corpusTag?: unknown;
    };
    if (typeof value.corpusTag === 'string' && value.corpusTag !== '') return `git:${value.corpusTag}`;
    if (typeof value.version === 'string') next = `v${value.version}`;
  } catch {
    // No release file, or one that does not parse (a gate says so): fall back to the tags.
  }
  const tags = runGit(root, ['tag', '--list', 'v[0-9]*', '--merged', 'HEAD', '--sort=-version:refname']);
  // In a git checkout, git that cannot run hides the tags: that is not "no previous release".
  if (tags.error)
    return insideGitCheckout(root)
      ? `${UNREADABLE}git cannot be run (${tags.error}), so the newest version tag of this checkout, the previous release, cannot be read`
      : undefined;
  // git that runs and fails there (a checkout it will not trust, "dubious ownership" under
  // another user in CI; a broken repository) hides them as well: said, never read as no release.
  if (tags.status !== 0)
    return insideGitCheckout(root) && !withoutCommits(root)
      ? `${UNREADABLE}git failed (${tags.message || `exit ${String(tags.status)}`}), so the newest version tag of this checkout, the previous release, cannot be read`
      : undefined;
  const newest = tags.stdout
    .toString('utf8')
    .split('\n')
    .map((t) => t.trim())
    .find((t) => t !== '' && t !== next);
  return newest ? `git:${newest}` : undefined;
}

/** Whether the checkout has no commit yet (then it has no tag, and no previous release): git answers 1, not a failure. */
function withoutCommits(root: string): boolean {
  return runGit(root, ['rev-parse', '--verify', '--quiet', 'HEAD']).status === 1;
}

/** Whether `root` or a directory above it holds a `.git` (a checkout, a worktree or a submodule). */
function insideGitCheckout(root: string): boolean {
  for (let directory = path.resolve(root); ; directory = path.dirname(directory)) {
    if (existsSync(path.join(directory, '.git'))) return true;
    if (path.dirname(directory) === directory) return false;
  }
}
