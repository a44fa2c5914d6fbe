/** Fixture releases: a temp copy of a fixture corpus with a current stamp, and ways to edit one. */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { once } from 'node:events';
import { createGzip, constants } from 'node:zlib';
import { Header } from 'tar';
import { cpSync, createWriteStream, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadCorpus } from '../../core/model/corpus.js';
import { planGeneration } from '../../core/run/generation.js';
import corpusStamp from '../../generators/corpus-stamp.js';
import { edit, fixture, REPO, tempDir } from '../helpers.js';

export { edit, tempDir };

export const BASE = fixture('release/base');

/** Writes the stamp the generator plans for the corpus at `root` (the other generators are not the subject here). */
export function stamp(root: string): void {
  const plan = planGeneration(loadCorpus(root), [corpusStamp]);
  if (plan.diagnostics.length > 0) throw new Error(plan.diagnostics.map((d) => d.message).join('\n'));
  for (const file of plan.files) writeFileSync(path.join(root, file.path), file.after);
}

/** A private copy of the base fixture release, stamped. */
export function stampedCopy(): string {
  const root = tempDir();
  cpSync(BASE, root, { recursive: true });
  stamp(root);
  return root;
}

export function editJson(root: string, file: string, change: (value: any) => void): void {
  edit(root, file, (text) => {
    const value = JSON.parse(text);
    change(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  });
}

const TSC = path.join(REPO, 'node_modules', '.bin', 'tsc');

/** Installs a tarball into a new, empty project the way a consumer would, offline. */
export function installInEmptyProject(tarball: string): string {
  const project = tempDir('openwop-consumer-');
  writeFileSync(
    path.join(project, 'package.json'),
    '{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module" }\n',
  );
  const npm = spawnSync('npm', ['install', tarball, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
    cwd: project,
    encoding: 'utf8',
  });
  if (npm.status !== 0) throw new Error(`npm install failed: ${npm.stderr}`);
  return project;
}

/** Installs packages (tarballs or registry specs) into a new, empty project, from npm's cache where it can. */
export function installPackages(specs: readonly string[]): string {
  const project = tempDir('openwop-consumer-');
  writeFileSync(
    path.join(project, 'package.json'),
    '{ "name": "consumer", "version": "1.0.0", "private": true, "type": "module" }\n',
  );
  const npm = spawnSync(
    'npm',
    ['install', ...specs, '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts'],
    { cwd: project, encoding: 'utf8' },
  );
  if (npm.status !== 0) throw new Error(`npm install failed: ${npm.stderr}`);
  return project;
}

/** An ed25519 key pair as PEM files, the way a release manager keeps one. */
export function keyPair(): { privateKey: string; publicKey: string } {
  const directory = tempDir('openwop-keys-');
  const pair = generateKeyPairSync('ed25519');
  const privateKey = path.join(directory, 'release.pem');
  const publicKey = path.join(directory, 'release.pub');
  writeFileSync(privateKey, pair.privateKey.export({ type: 'pkcs8', format: 'pem' }));
  writeFileSync(publicKey, pair.publicKey.export({ type: 'spki', format: 'pem' }));
  return { privateKey, publicKey };
}

/** `tsc --strict` over a consumer file, reading the package's declarations (skipLibCheck off). */
export function typecheck(project: string, source: string): { status: number | null; output: string } {
  writeFileSync(path.join(project, 'main.ts'), source);
  writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        resolveJsonModule: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['main.ts'],
    }),
  );
  const result = spawnSync(TSC, ['-p', project], { encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

export interface RawEntry {
  path: string;
  type?: 'File' | 'SymbolicLink' | 'Link' | 'CharacterDevice' | 'Directory' | 'ExtendedHeader';
  data?: Buffer;
  /** A file's size without its bytes in memory: that many zero bytes are streamed. */
  zeros?: number;
  linkpath?: string;
}

/**
 * Writes a gzipped tar of `entries` exactly as given (duplicates, links and devices included),
 * streaming, so an entry of a gigabyte of zeros never sits in memory: what an attacker would
 * hand a verifier, which no well-behaved packer makes.
 */
export async function writeRawTarball(file: string, entries: readonly RawEntry[]): Promise<void> {
  const gzip = createGzip({ level: constants.Z_BEST_SPEED });
  const done = once(gzip.pipe(createWriteStream(file)), 'finish');
  const write = async (chunk: Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  const zeros = Buffer.alloc(1 << 20);
  for (const entry of entries) {
    const size = entry.zeros ?? entry.data?.length ?? 0;
    const header = Buffer.alloc(512);
    new Header({
      path: entry.path,
      type: entry.type ?? 'File',
      size,
      mode: 0o644,
      mtime: new Date(0),
      uid: 0,
      gid: 0,
      ...(entry.linkpath ? { linkpath: entry.linkpath } : {}),
    }).encode(header);
    await write(header);
    if (entry.data) await write(entry.data);
    for (let left = entry.zeros ?? 0; left > 0; left -= zeros.length)
      await write(left >= zeros.length ? zeros : zeros.subarray(0, left));
    if (size % 512 !== 0) await write(Buffer.alloc(512 - (size % 512)));
  }
  await write(Buffer.alloc(1024));
  gzip.end();
  await done;
}
