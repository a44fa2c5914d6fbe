// Part of `npm run build`, after build/bundle.mjs: the V8 code cache of the bundled script
// (scripts/script-bundle.ts). A check of this repository is run with the script once, cold and
// then warm, in a child process whose output is thrown away; what V8 compiled for them (the code
// both kinds of run take) is written beside the script, headed by the script's digest. The cache
// holds only this Node.js's compiled code, so another Node.js rejects it and compiles as usual.
// The training run's findings do not matter: a broken corpus still compiles the paths it takes.
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SCRIPTS = path.join(REPO, 'dist', 'scripts');

if (process.argv[2] === '--train') {
  const { CODE_CACHE_FILE, loadScriptBundle, setRunFlags } = await import('../dist/scripts/script-bundle.js');
  setRunFlags();
  const bundle = loadScriptBundle(SCRIPTS, { useCache: false });
  if (!bundle) throw new Error(`no bundled script in ${SCRIPTS}: run build/bundle.mjs first`);
  for (const cold of [true, false]) {
    await bundle.main(['check', '--root', REPO, '--format', 'json', ...(cold ? ['--no-cache'] : [])]);
  }
  process.exitCode = 0;
  writeFileSync(path.join(SCRIPTS, CODE_CACHE_FILE), bundle.codeCache());
} else {
  const { CODE_CACHE_FILE } = await import('../dist/scripts/script-bundle.js');
  rmSync(path.join(SCRIPTS, CODE_CACHE_FILE), { force: true });
  const child = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--train'], {
    cwd: REPO,
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  // Without a cache the tool only compiles as it always did: a failed training is said, not fatal.
  if (child.status !== 0)
    process.stderr.write(`build/code-cache.mjs: no code cache (the training check exited ${child.status ?? child.signal}): ${child.stderr.trim().split('\n').slice(-3).join(' ')}\n`);
}
