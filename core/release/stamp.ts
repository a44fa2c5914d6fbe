/**
 * The corpus stamp: which files the package ships, the SHA-256 of each, and one digest over the
 * whole record. The same record is computed by the stamp generator (from planned contents), by
 * `pack` (which ships it) and by `verify` (from the bytes it is handed).
 */
import { readInside, ReadRefused } from '../fs/index.js';
import path from 'node:path';
import { compareStrings, CANONICALIZATION, jcsDigest, sha256Hex, SHA256_DIGEST, SHA256_HEX } from '../output/index.js';
import { isObject } from '../model/index.js';

export const PACKAGE_NAME = '@openwop/spec-artifacts';
/** Where the stamp sits in a package, and in a corpus whose config does not say otherwise. */
export const STAMP_PATH = 'CORPUS-STAMP.json';

/** Where a corpus keeps its stamp (layout.stamp); its package.json is the one beside it. */
export function stampPath(corpus: { config: { layout: { stamp: string } } }): string {
  return corpus.config.layout.stamp;
}

/** The folder, relative to the root, of the package.json the stamp takes its version from. */
export function stampPackageDirectory(corpus: { config: { layout: { stamp: string } } }): string {
  const directory = path.posix.dirname(stampPath(corpus));
  return directory === '.' ? '' : directory;
}

/** The corpus directories the package ships; docs/ and evidence/ stay in the repository. */
export const SHIPPED_DIRECTORIES = ['api', 'schemas', 'spec', 'conformance', 'SECURITY'] as const;

export function isShipped(file: string): boolean {
  return SHIPPED_DIRECTORIES.some((directory) => file.startsWith(`${directory}/`));
}

export interface CorpusStamp {
  package: string;
  version: string;
  canonicalization: string;
  /** Path -> lower-case hex SHA-256 of its raw bytes, paths in code-unit order. */
  files: Record<string, string>;
  /** `sha256:<hex>` over the JCS form of `{package, version, files}`. */
  digest: string;
}

/** The stamp of a set of files; the order of `contents` does not matter. */
export function buildStamp(
  name: string,
  version: string,
  contents: ReadonlyMap<string, string | Uint8Array>,
): CorpusStamp {
  const files = hashFiles(contents);
  return {
    package: name,
    version,
    canonicalization: CANONICALIZATION,
    files,
    digest: stampDigest({ package: name, version, files }),
  };
}

export function stampDigest(record: { package: string; version: string; files: Record<string, string> }): string {
  return jcsDigest({ package: record.package, version: record.version, files: record.files });
}

/**
 * The digests of the previous call's contents, by content: the language server stamps after every
 * edit, and an unchanged file hands over the very string it handed over last time. Only texts
 * (immutable) are kept, and only the last call's, so the cache never holds more than one corpus.
 */
let previousDigests = new Map<string, string>();

/** Path -> SHA-256 hex of its bytes, in code-unit order of the paths. */
export function hashFiles(contents: ReadonlyMap<string, string | Uint8Array>): Record<string, string> {
  const files: Record<string, string> = {};
  const digests = new Map<string, string>();
  for (const file of [...contents.keys()].sort(compareStrings)) {
    const content = contents.get(file) as string | Uint8Array;
    if (typeof content !== 'string') {
      files[file] = sha256Hex(content);
      continue;
    }
    const digest = digests.get(content) ?? previousDigests.get(content) ?? sha256Hex(content);
    digests.set(content, digest);
    files[file] = digest;
  }
  previousDigests = digests;
  return files;
}

/** The stamp as it is written: the key order of REGISTRIES.md, two-space indent, final newline. */
export function formatStamp(stamp: CorpusStamp): string {
  const ordered = {
    package: stamp.package,
    version: stamp.version,
    canonicalization: stamp.canonicalization,
    files: stamp.files,
    digest: stamp.digest,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

/** A stamp read back, with what is wrong with its shape (empty when it is well formed). */
export interface ParsedStamp {
  stamp: CorpusStamp | undefined;
  problems: string[];
}

export function parseStamp(text: string): ParsedStamp {
  const { value, problems } = readRecord(text, ['package', 'version', 'canonicalization', 'digest']);
  if (!value || problems.length > 0) return { stamp: undefined, problems };
  return {
    stamp: {
      package: value.package as string,
      version: value.version as string,
      canonicalization: value.canonicalization as string,
      files: value.files as Record<string, string>,
      digest: value.digest as string,
    },
    problems,
  };
}

/**
 * The shape both release records share: the named string members, `canonicalization` this
 * verifier knows, `sha256:` digests, and `files` mapping safe relative paths to SHA-256 hex.
 */
export function readRecord(
  text: string,
  strings: readonly string[],
  digests: readonly string[] = ['digest'],
): { value: Record<string, unknown> | undefined; problems: string[] } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      value: undefined,
      problems: [`not JSON: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`],
    };
  }
  if (!isObject(value)) return { value: undefined, problems: ['not a JSON object'] };
  const problems: string[] = [];
  for (const key of strings) if (typeof value[key] !== 'string') problems.push(`"${key}" is missing or not a string`);
  if (typeof value.canonicalization === 'string' && value.canonicalization !== CANONICALIZATION) {
    problems.push(`"canonicalization" is "${value.canonicalization}"; this verifier knows only "${CANONICALIZATION}"`);
  }
  for (const key of digests) {
    const digest = value[key];
    if (typeof digest === 'string' && !SHA256_DIGEST.test(digest))
      problems.push(`"${key}" is not of the form sha256:<64 hex digits>`);
  }
  if (!isObject(value.files)) {
    problems.push('"files" is missing or not an object');
  } else {
    for (const [file, hash] of Object.entries(value.files)) {
      if (typeof hash !== 'string' || !SHA256_HEX.test(hash))
        problems.push(`the hash of ${file} is not 64 lower-case hex digits`);
      else if (!isSafeRelativePath(file)) problems.push(`"${file}" is not a relative path inside the package`);
    }
  }
  return { value, problems };
}

/** `a/b.json`, never absolute, never `..`, never a backslash or an empty segment. */
function isSafeRelativePath(file: string): boolean {
  if (file === '' || file.startsWith('/') || file.includes('\\') || /^[A-Za-z]:/.test(file)) return false;
  return file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/**
 * The `version` (and `license`) of the package.json at a directory, or why there is none. The
 * stamp takes its version from the repository's manifest, the one value of a release that lives
 * outside the corpus.
 */
export function readPackageManifest(
  root: string,
): { version: string; license: string | undefined } | { problem: string; missing: boolean } {
  let text: string;
  try {
    // A checkout's package.json is read as any corpus file is: inside the root, never through a link.
    text = readInside(root, 'package.json', 2 ** 20).toString('utf8');
  } catch (error) {
    const code = error instanceof ReadRefused ? error.code : undefined;
    if (code !== undefined && code !== 'ENOENT')
      return { problem: `package.json at the corpus root ${(error as ReadRefused).what}`, missing: false };
    return { problem: 'there is no package.json at the corpus root', missing: true };
  }
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return { problem: 'package.json is not valid JSON', missing: false };
  }
  const version = isObject(manifest) ? manifest.version : undefined;
  if (typeof version !== 'string' || !SEMVER.test(version))
    return { problem: 'package.json has no semantic "version"', missing: false };
  const license = isObject(manifest) && typeof manifest.license === 'string' ? manifest.license : undefined;
  return { version, license };
}

export const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
