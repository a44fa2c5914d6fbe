/**
 * A release as bytes: every file of a packed tarball, an installed or staged package directory,
 * or the shipped part of a repository checkout, keyed by its path inside the package.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compareStrings, sha256FileHex, sha256Hex } from '../output/index.js';
import { walkFiles, isObject } from '../model/index.js';
import { PACKAGE_STAMP_PATH } from './package-stamp.js';
import { PACKAGE_NAME, SHIPPED_DIRECTORIES, STAMP_PATH } from './stamp.js';
import { readTar, readTarFile, TarError, type TarEntry } from './tar.js';
import { ReadRefused } from '../fs/index.js';

/**
 * Files larger than this are hashed as they stream past and not held: no corpus file comes near
 * it, and a tarball that inflates to gigabytes must not take gigabytes to verify.
 */
const KEEP_BYTES = 32 * 2 ** 20;

export class ReleaseSourceError extends Error {}

export interface ArtifactTree {
  /** What the user named: a path, or `git:<ref>`. */
  label: string;
  /** `package`: a packed or installed @openwop/spec-artifacts, where every file must be accounted for. */
  kind: 'package' | 'repository';
  files: Map<string, Buffer>;
  /** Lower-case hex SHA-256 of every file, those too large to be kept in `files` included. */
  hashes?: Map<string, string>;
  /** Files larger than KEEP_BYTES: hashed, not kept. */
  oversized?: string[];
  /** Entries that are not regular files (symbolic links, hard links, devices), which a package never holds. */
  irregular: string[];
  /** Entries whose path climbs out with `..` or is absolute: an extractor would write them outside the package. */
  escaping?: string[];
  /** Paths a tarball holds more than once: which of the copies a consumer gets depends on the extractor. */
  duplicates?: string[];
  /** The SHA-256 of the tarball's own bytes, when the release was read from one. */
  tarballSha256?: string;
}

/** A `.tgz` (or `.tar`) file, or a directory. */
export function loadArtifactTree(target: string): ArtifactTree {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    throw new ReleaseSourceError(`${target} does not exist`);
  }
  if (stat.isDirectory()) return treeFromDirectory(target);
  let read;
  try {
    read = readTarFile(target, { keepBytes: KEEP_BYTES });
  } catch (error) {
    if (error instanceof TarError)
      throw new ReleaseSourceError(`${target} is not a readable tarball: ${error.message}`);
    if (error instanceof ReadRefused) throw new ReleaseSourceError(`cannot read ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    throw new ReleaseSourceError(`cannot read ${target}: ${code ?? String(error)}`);
  }
  return { ...treeFromEntries(target, read.entries, 'package/'), tarballSha256: read.sha256 };
}

/** A tarball held in memory (a `git archive`), every entry kept. */
export function treeFromTarball(label: string, bytes: Buffer, prefix = 'package/'): ArtifactTree {
  let entries;
  try {
    entries = readTar(bytes);
  } catch (error) {
    if (error instanceof TarError) throw new ReleaseSourceError(`${label} is not a readable tarball: ${error.message}`);
    throw error;
  }
  return treeFromEntries(label, entries, prefix);
}

function treeFromEntries(label: string, entries: readonly TarEntry[], prefix: string): ArtifactTree {
  const files = new Map<string, Buffer>();
  const hashes = new Map<string, string>();
  const oversized: string[] = [];
  const irregular: string[] = [];
  const seen = new Set<string>();
  const duplicates = new Set<string>();
  const escaping: string[] = [];
  for (const entry of entries) {
    // npm puts everything under package/; an entry anywhere else is as foreign as an extra file.
    const name = entry.path.replace(/\/+$/, '');
    const inside = prefix === '' ? name : name.startsWith(prefix) ? name.slice(prefix.length) : `../${name}`;
    if (seen.has(inside)) duplicates.add(inside);
    seen.add(inside);
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split(/[\\/]/).includes('..')) {
      escaping.push(name);
      continue;
    }
    if (entry.type === 'directory') continue;
    if (entry.type !== 'file') {
      irregular.push(`${inside} (${entry.tarType})`);
      continue;
    }
    hashes.set(inside, entry.sha256);
    if (entry.data) files.set(inside, entry.data);
    else oversized.push(inside);
  }
  return {
    label,
    kind: detectKind(files),
    files,
    hashes,
    oversized,
    irregular,
    escaping: escaping.sort(compareStrings),
    duplicates: [...duplicates].sort(compareStrings),
  };
}

function treeFromDirectory(root: string): ArtifactTree {
  const kind = detectKind(new Map(['package.json', PACKAGE_STAMP_PATH].flatMap((file) => readIfFile(root, file))));
  const files = new Map<string, Buffer>();
  const hashes = new Map<string, string>();
  const oversized: string[] = [];
  const irregular: string[] = [];
  const take = (file: string) => {
    const location = path.join(root, file);
    if (sizeOf(location) > KEEP_BYTES) {
      hashes.set(file, sha256FileHex(location));
      oversized.push(file);
    } else {
      const bytes = readBytes(location);
      files.set(file, bytes);
      hashes.set(file, sha256Hex(bytes));
    }
  };
  if (kind === 'package') {
    walk(root, '', true, take, irregular);
  } else {
    // A repository holds much besides the corpus; only what the package would ship is compared.
    for (const directory of SHIPPED_DIRECTORIES) walk(root, directory, false, take, irregular);
    for (const [file] of ['package.json', STAMP_PATH].flatMap((name) => readIfFile(root, name))) take(file);
  }
  return {
    label: root,
    kind,
    files: sortedMap(files),
    hashes,
    oversized: oversized.sort(compareStrings),
    irregular: irregular.sort(compareStrings),
    duplicates: [],
  };
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    throw new ReleaseSourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** A package is a directory or tarball whose manifest names @openwop/spec-artifacts, or that carries a package record. */
function detectKind(files: ReadonlyMap<string, Buffer>): ArtifactTree['kind'] {
  if (files.has(PACKAGE_STAMP_PATH)) return 'package';
  const manifest = files.get('package.json');
  if (!manifest) return 'repository';
  try {
    const value: unknown = JSON.parse(manifest.toString('utf8'));
    return isObject(value) && value.name === PACKAGE_NAME ? 'package' : 'repository';
  } catch {
    return 'repository';
  }
}

function walk(
  root: string,
  relative: string,
  dotfiles: boolean,
  take: (file: string) => void,
  irregular: string[],
): void {
  const unreadable = (directory: string, code: string): never => {
    throw new ReleaseSourceError(`cannot read ${path.join(root, directory)}: ${code}`);
  };
  for (const file of walkFiles(root, relative, { dotfiles, irregular: (entry) => irregular.push(entry), unreadable }))
    take(file);
}

function readIfFile(root: string, name: string): Array<[string, Buffer]> {
  try {
    return [[name, readFileSync(path.join(root, name))]];
  } catch {
    return [];
  }
}

function readBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (error) {
    throw new ReleaseSourceError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export function sortedMap<T>(map: ReadonlyMap<string, T>): Map<string, T> {
  return new Map([...map.entries()].sort(([a], [b]) => compareStrings(a, b)));
}
