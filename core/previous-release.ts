/**
 * Files of a previous release, for the gates that compare against one (`check --baseline`): read
 * from a directory laid out like the corpus, or from a git ref of the repository the corpus is in.
 * Reading a ref is the one place the toolchain runs a program (`git show`), and only on request.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { corpusFromFiles, type Corpus } from './corpus.js';
import { runGit } from './git.js';

export type PreviousRelease =
  | { ok: true; corpus: Corpus; label: string; missing: string[] }
  | { ok: false; message: string };

const cache = new Map<string, PreviousRelease>();

/**
 * The files `relatives` of the release `baseline` (a directory, or a git ref of the repository
 * at `root`), as a corpus of their own; `missing` lists those the release does not have.
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
  const directory = path.resolve(baseline);
  if (isDirectory(directory)) {
    const files: Record<string, Buffer> = {};
    const missing: string[] = [];
    for (const relative of relatives) {
      try {
        files[relative] = readFileSync(path.join(directory, relative));
      } catch {
        missing.push(relative);
      }
    }
    return { ok: true, corpus: corpusFromFiles(directory, files), label: `the release in ${baseline}`, missing };
  }
  // A ref is handed to git as one argument; refusing a leading `-` keeps it from reading as an option.
  if (baseline.startsWith('-') || !/^[\w./@^~{}:+-]+$/.test(baseline)) {
    return { ok: false, message: `--baseline ${JSON.stringify(baseline)} is neither a directory nor a git ref` };
  }
  const verify = runGit(root, ['rev-parse', '--verify', '--quiet', `${baseline}^{commit}`]);
  if (verify.error) return { ok: false, message: `--baseline ${baseline}: cannot run git (${verify.error})` };
  if (verify.status !== 0) return { ok: false, message: `--baseline ${baseline} is neither a directory nor a git ref of the repository at ${root}` };
  const files: Record<string, Buffer> = {};
  const missing: string[] = [];
  for (const relative of relatives) {
    const shown = runGit(root, ['show', `${baseline}:./${relative}`]);
    if (shown.status === 0) files[relative] = shown.stdout;
    else missing.push(relative);
  }
  return { ok: true, corpus: corpusFromFiles(root, files), label: `git ref ${baseline}`, missing };
}


function isDirectory(candidate: string): boolean {
  try {
    return statSync(candidate).isDirectory();
  } catch {
    return false;
  }
}
