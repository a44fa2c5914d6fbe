/**
 * The command line as one script compiled from the code cache the build made beside it
 * (scripts/script-bundle.ts, build/code-cache.mjs): the cache is taken by the Node.js that made it,
 * ignored when it was made for other bytes or is not V8's, and never written while the tool runs.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, REPO, removeTempDirs, snapshotFiles, spawnCli, tempDir } from './helpers.js';

const SCRIPTS = path.join(REPO, 'dist', 'scripts');
const LOADER = pathToFileURL(path.join(SCRIPTS, 'script-bundle.js')).href;
const SCRIPT = path.join(SCRIPTS, 'main-script.cjs');
const CACHE = path.join(SCRIPTS, 'main-script.cache');

afterAll(removeTempDirs);

/** Loads the bundle in `directory` in a process of its own, as cli.js does, then runs `args` with it. */
function loadIn(
  directory: string,
  args: readonly string[] = ['--version'],
): { cacheUsed: boolean; status: number | null; stdout: string; stderr: string } {
  const program = [
    `const { loadScriptBundle, setRunFlags } = await import(${JSON.stringify(LOADER)});`,
    'setRunFlags();',
    `const bundle = loadScriptBundle(${JSON.stringify(directory)});`,
    `process.stderr.write(JSON.stringify({ cacheUsed: bundle.cacheUsed }) + '\\n');`,
    `await bundle.main(${JSON.stringify(args)});`,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
  const first = child.stderr.split('\n')[0] ?? '';
  const { cacheUsed } = JSON.parse(first.startsWith('{') ? first : '{"cacheUsed":null}') as { cacheUsed: boolean };
  return { cacheUsed, status: child.status, stdout: child.stdout, stderr: child.stderr };
}

/**
 * A copy of the tool holding the built script (its bytes as `change` leaves them) and `cache` beside
 * it: the package manifest the version is read from, and the dependencies through a link.
 */
function bundleCopy(cache: Buffer | undefined, change: (script: string) => string = (script) => script): string {
  const root = tempDir('openwop-spec-bundle-');
  const directory = path.join(root, 'dist', 'scripts');
  mkdirSync(directory, { recursive: true });
  copyFileSync(path.join(REPO, 'package.json'), path.join(root, 'package.json'));
  symlinkSync(path.join(REPO, 'node_modules'), path.join(root, 'node_modules'));
  writeFileSync(path.join(directory, 'main-script.cjs'), change(readFileSync(SCRIPT, 'utf8')));
  if (cache) writeFileSync(path.join(directory, 'main-script.cache'), cache);
  return directory;
}

/** Each file under `directory` with the SHA-256 of its bytes (a deep comparison of megabytes of buffers is slow). */
function digests(directory: string): Record<string, string> {
  return Object.fromEntries(
    [...snapshotFiles(directory)].map(([file, bytes]) => [file, createHash('sha256').update(bytes).digest('hex')]),
  );
}

const version = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')).version as string;
const builtCache = readFileSync(CACHE);
const maker = builtCache.toString('latin1', 0, 100).split('\n')[1];

describe('the command line compiled from its code cache', () => {
  it.skipIf(maker !== process.version)(
    `takes the cache the build made, under the Node.js that made it (${maker}; this is ${process.version})`,
    () => {
      const run = loadIn(SCRIPTS);
      expect(run).toMatchObject({ cacheUsed: true, status: 0 });
      expect(run.stdout.trim()).toBe(version);
    },
  );

  it('compiles the script as usual when there is no cache beside it', () => {
    const run = loadIn(bundleCopy(undefined));
    expect(run).toMatchObject({ cacheUsed: false, status: 0 });
    expect(run.stdout.trim()).toBe(version);
  });

  it('ignores a cache made for other bytes of the script (a rebuild without its cache), and runs the script in hand', () => {
    // The same length, other bytes: V8's own check (the source's length) would take this cache.
    const directory = bundleCopy(builtCache, (script) => script.replace('"use strict";', "'use strict';"));
    expect(readFileSync(path.join(directory, 'main-script.cjs')).length).toBe(readFileSync(SCRIPT).length);
    expect(readFileSync(path.join(directory, 'main-script.cjs')).equals(readFileSync(SCRIPT))).toBe(false);
    const run = loadIn(directory);
    expect(run).toMatchObject({ cacheUsed: false, status: 0 });
    expect(run.stdout.trim()).toBe(version);
  });

  it("ignores a cache whose header is right but whose data is not V8's, and runs", () => {
    const header = builtCache.subarray(0, builtCache.indexOf('\n', 65) + 1);
    const forged = Buffer.concat([header, Buffer.alloc(4096, 0x5a)]);
    const run = loadIn(bundleCopy(forged));
    expect(run).toMatchObject({ cacheUsed: false, status: 0 });
    expect(run.stdout.trim()).toBe(version);
  });

  it('ignores a cache made by another Node.js', () => {
    const header = builtCache.subarray(0, builtCache.indexOf('\n', 65) + 1).toString('latin1');
    const other = Buffer.concat([
      Buffer.from(header.replace(/\nv[^\n]*\n$/, '\nv1.0.0\n'), 'latin1'),
      builtCache.subarray(header.length),
    ]);
    const run = loadIn(bundleCopy(other));
    expect(run).toMatchObject({ cacheUsed: false, status: 0 });
  });

  it('a script cut short is not run: the loader answers nothing, and the command line takes its ES modules', () => {
    const directory = bundleCopy(undefined, (script) => script.slice(0, script.length >> 1));
    const program = [
      `const { loadScriptBundle } = await import(${JSON.stringify(LOADER)});`,
      `process.stdout.write(String(loadScriptBundle(${JSON.stringify(directory)})));`,
    ].join('\n');
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', program], { encoding: 'utf8' });
    expect(child).toMatchObject({ status: 0, stdout: 'undefined', stderr: '' });
  });

  it('is never written while the tool runs: a check leaves the tool directory as it was', () => {
    const before = digests(SCRIPTS);
    const run = spawnCli(['check', '--root', copyFixture('good')]);
    expect(run).toMatchObject({ status: 0, stderr: '' });
    expect(digests(SCRIPTS)).toEqual(before);
  });

  it('a copy of the script and its cache works from any directory: nothing in them names where they were built', () => {
    const run = loadIn(bundleCopy(builtCache));
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe(version);
    expect(run.cacheUsed).toBe(maker === process.version);
  });
});
