/**
 * Files of a previous release, for the gates that compare against one (`check --baseline`): any
 * release `diff` reads (a repository checkout, an installed package, a packed .tgz), or a git ref
 * of the repository the corpus is in. This module words the `--baseline` problems; the reading is
 * core/release/source.ts's.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from '../model/index.js';
import { runGit } from './git.js';
import { loadReleaseFiles } from './source.js';
import { ReleaseSourceError } from './tree.js';

export type PreviousRelease =
  | { ok: true; corpus: Corpus; label: string; missing: string[] }
  | { ok: false; message: string };

const cache = new Map<string, PreviousRelease>();

/**
 * The files `relatives` (files a release ships) of the release `baseline` (a path, or a git ref of
 * the repository at `root`), as a corpus of their own; `missing` lists those the release lacks.
 */
export function previousRelease(root: string, baseline: string, relatives: readonly string[]): PreviousRelease {
  const key = JSON.stringify([root, baseline, relatives]);
  const cached = cache.get(key);
  if (cached) return cached;
  const result = read(root, baseline, relatives);
  cache.set(key, result);
  return result;
}

function read(root: string, baseline: string, relatives: readonly string[]): PreviousRelease {
  const location = path.resolve(baseline);
  const isPath = existsSync(location);
  if (!isPath) {
    // A ref is handed to git as one argument; refusing a leading `-` keeps it from reading as an option.
    if (baseline.startsWith('-') || !/^[\w./@^~{}:+-]+$/.test(baseline)) {
      return { ok: false, message: `--baseline ${JSON.stringify(baseline)} is neither a directory nor a git ref` };
    }
    const verify = runGit(root, ['rev-parse', '--verify', '--quiet', `${baseline}^{commit}`]);
    if (verify.error) return { ok: false, message: `--baseline ${baseline}: cannot run git (${verify.error})` };
    if (verify.status !== 0) return { ok: false, message: `--baseline ${baseline} is neither a directory nor a git ref of the repository at ${root}` };
  }
  let release;
  try {
    release = loadReleaseFiles(isPath ? location : `git:${baseline}`, root);
  } catch (error) {
    if (error instanceof ReleaseSourceError) return { ok: false, message: `--baseline ${baseline}: ${error.message}` };
    throw error;
  }
  const files: Record<string, Buffer> = {};
  const missing: string[] = [];
  for (const relative of relatives) {
    const bytes = release.files.get(relative);
    if (bytes) files[relative] = bytes;
    else missing.push(relative);
  }
  return { ok: true, corpus: corpusFromFiles(release.root, files), label: isPath ? `the release in ${baseline}` : `git ref ${baseline}`, missing };
}
