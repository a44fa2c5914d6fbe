/**
 * A release as bytes: every file of a packed tarball, an installed or staged package directory,
 * or the shipped part of a repository checkout, keyed by its path inside the package.
 */
import path from 'node:path';
import { compareStrings, sha256FileHex, sha256Hex } from '../output/index.js';
import { walkFiles, isObject } from '../model/index.js';
import { PACKAGE_STAMP_PATH } from './package-stamp.js';
import { PACKAGE_NAME, SHIPPED_DIRECTORIES, STAMP_PATH } from './stamp.js';
import { readTar, readTarFile, TarError, type TarEntry } from './tar.js';
import { pathKind, readRegularFile, ReadRefused } from '../fs/index.js';

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
  // The user named it: a directory given through a link is read where the link leads (every
  // directory and file below it is then read without following a link).
  const kind = pathKind(target, 'follow');
  if (kind === 'missing') throw new ReleaseSourceError(`${target} does not exist`);
  if (kind === 'directory') return treeFromDirectory(target);
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
  const strip = prefix.split('/').filter(Boolean).length;
  for (const entry of entries) {
    const name = entry.path.replace(/\/+$/, '');
    if (name.startsWith('/') || /^[A-Za-z]:/.test(name) || name.split(/[\\/]/).includes('..')) {
      escaping.push(name);
      continue;
    }
    // The path an extractor writes: `.` and empty segments dropped (`package/./a` and
    // `package//a` are `package/a`), and npm strips the first component whatever it is called, so
    // `other/a` lands where `package/a` does. Duplicates are judged on that path: two spellings of
    // one file leave which copy a consumer gets to the extractor.
    // An entry with nothing left once stripped (a lone top-level file) is not extracted at all.
    const inside = name
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .slice(strip)
      .join('/');
    if (inside === '') continue;
    if (seen.has(inside)) duplicates.add(inside);
    seen.add(inside);
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
    let bytes: Buffer;
    try {
      bytes = readRegularFile(location, KEEP_BYTES);
    } catch (error) {
      if (!(error instanceof ReadRefused)) throw error;
      if (error.code === 'ETOOBIG') {
        hashes.set(file, sha256FileHex(location));
        oversized.push(file);
      } else if (error.code === 'ELINK' || error.code === 'EIRREGULAR') irregular.push(file);
      else throw new ReleaseSourceError(`cannot read ${location}: ${error.code}`);
      return;
    }
    files.set(file, bytes);
    hashes.set(file, sha256Hex(bytes));
  };
  if (kind === 'package') {
    walk(root, '', true, take, irregular);
  } else {
    // A repository holds much besides the corpus; only what the package would ship is compared.
    for (const directory of SHIPPED_DIRECTORIES) walk(root, directory, false, take, irregular);
    // A link in their place is an irregular entry, not a file that is simply absent.
    for (const name of ['package.json', STAMP_PATH]) if (pathKind(path.join(root, name)) !== 'missing') take(name);
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
  // A shipped directory that is a link (or a file, or a device) is no directory of the release:
  // walking it would read wherever it leads.
  const kind = relative === '' ? 'directory' : pathKind(path.join(root, relative));
  if (kind === 'missing') return;
  if (kind !== 'directory') {
    irregular.push(relative);
    return;
  }
  for (const file of walkFiles(root, relative, { dotfiles, irregular: (entry) => irregular.push(entry), unreadable }))
    take(file);
}

/** A top-level file of the release when it is a regular file there (a link in its place is not followed). */
function readIfFile(root: string, name: string): Array<[string, Buffer]> {
  try {
    return [[name, readRegularFile(path.join(root, name), KEEP_BYTES)]];
  } catch {
    return [];
  }
}

export function sortedMap<T>(map: ReadonlyMap<string, T>): Map<string, T> {
  return new Map([...map.entries()].sort(([a], [b]) => compareStrings(a, b)));
}
