/**
 * The upstream corpus, a reconstruction of the real upstream repository that some tests read in
 * place (never copied): `../shared/upstream/corpus` beside this repository. A clone elsewhere does
 * not have it, so those tests skip, each file saying so in one line naming the folder.
 * `OPENWOP_SPEC_UPSTREAM` names another folder (relative to this repository), so that a run can
 * point at one that does not exist and see the skips.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const UPSTREAM = path.resolve(
  REPO,
  process.env.OPENWOP_SPEC_UPSTREAM || path.join('..', 'shared', 'upstream', 'corpus'),
);

/** The folder as a reader finds it from this repository. */
const UPSTREAM_NAME = path.relative(REPO, UPSTREAM).split(path.sep).join('/');

const present = existsSync(UPSTREAM) && statSync(UPSTREAM).isDirectory();

/**
 * Whether the upstream corpus is there. When it is not, one line on stderr names the test file
 * and the folder it needs; the caller skips its upstream cases (`describe.skipIf(!upstreamPresent(...))`).
 */
export function upstreamPresent(testFile: string): boolean {
  if (present) return true;
  const file = path
    .relative(REPO, testFile.startsWith('file:') ? fileURLToPath(testFile) : testFile)
    .split(path.sep)
    .join('/');
  process.stderr.write(`${file}: skipped its upstream tests: ${UPSTREAM_NAME} (the upstream corpus) is absent\n`);
  return false;
}
