/**
 * A release as bytes: every file of a packed tarball, an installed or staged package directory,
 * or the shipped part of a repository checkout, keyed by its path inside the package.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { compareStrings } from '../output/index.js';
import { walkFiles } from '../model/index.js';
import { isObject } from '../registries/index.js';
import { PACKAGE_STAMP_PATH } from './package-stamp.js';
import { PACKAGE_NAME, SHIPPED_DIRECTORIES, STAMP_PATH } from './stamp.js';
import { readTar, TarError } from './tar.js';

export class ReleaseSourceError extends Error {}

export interface ArtifactTree {
  /** What the user named: a path, or `git:<ref>`. */
  label: string;
  /** `package`: a packed or installed @openwop/spec-artifacts, where every file must be accounted for. */
  kind: 'package' | 'repository';
  files: Map<string, Buffer>;
  /** Entries that are not regular files (symbolic links, devices), which a package never holds. */
  irregular: string[];
}

/** A `.tgz` (or `.tar`) file, or a directory. */
export function loadArtifactTree(target: string): ArtifactTree {
  let stat;
  try {
    stat = statSync(target);
  } catch {
    throw new ReleaseSourceError(`${target} does not exist`);
  }
  return stat.isDirectory() ? treeFromDirectory(target) : treeFromTarball(target, readBytes(target));
}

export function treeFromTarball(label: string, bytes: Buffer, prefix = 'package/'): ArtifactTree {
  let entries;
  try {
    entries = readTar(bytes);
  } catch (error) {
    if (error instanceof TarError) throw new ReleaseSourceError(`${label} is not a readable tarball: ${error.message}`);
    throw error;
  }
  const files = new Map<string, Buffer>();
  const irregular: string[] = [];
  for (const entry of entries) {
    if (entry.type === 'directory') continue;
    // npm puts everything under package/; an entry anywhere else is as foreign as an extra file.
    const inside = prefix === '' ? entry.path : entry.path.startsWith(prefix) ? entry.path.slice(prefix.length) : `../${entry.path}`;
    if (entry.type === 'file') files.set(inside, entry.data);
    else irregular.push(inside);
  }
  return { label, kind: detectKind(files), files, irregular };
}

function treeFromDirectory(root: string): ArtifactTree {
  const kind = detectKind(new Map(['package.json', PACKAGE_STAMP_PATH].flatMap((file) => readIfFile(root, file))));
  const files = new Map<string, Buffer>();
  const irregular: string[] = [];
  if (kind === 'package') {
    walk(root, '', true, files, irregular);
  } else {
    // A repository holds much besides the corpus; only what the package would ship is compared.
    for (const directory of SHIPPED_DIRECTORIES) walk(root, directory, false, files, irregular);
    for (const [file, bytes] of ['package.json', STAMP_PATH].flatMap((name) => readIfFile(root, name))) files.set(file, bytes);
  }
  return { label: root, kind, files: sortedMap(files), irregular: irregular.sort(compareStrings) };
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

function walk(root: string, relative: string, dotfiles: boolean, files: Map<string, Buffer>, irregular: string[]): void {
  const unreadable = (directory: string, code: string): never => {
    throw new ReleaseSourceError(`cannot read ${path.join(root, directory)}: ${code}`);
  };
  for (const file of walkFiles(root, relative, { dotfiles, irregular: (entry) => irregular.push(entry), unreadable })) files.set(file, readBytes(path.join(root, file)));
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
