/**
 * The verifier @openwop/spec-artifacts carries: it checks an installed (or unpacked) copy of the
 * package against its two stamps and, when given one, the digest the consumer pinned. It ships as
 * compiled JavaScript inside the package and imports nothing but Node.js built-ins, so a consumer
 * can run it before trusting anything else the package holds.
 *
 * It reads the same records the toolchain writes (see core/release/stamp.ts and package-stamp.ts)
 * and must agree with the toolchain's `verify`; the tests hold the two to the same answers.
 */
import { createHash } from 'node:crypto';
import { closeSync, lstatSync, openSync, readdirSync, readFileSync, readSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_STAMP = 'CORPUS-STAMP.json';
export const PACKAGE_STAMP = 'PACKAGE-STAMP.json';
const CANONICALIZATION = 'RFC 8785';
const CORPUS_DIRECTORIES = ['api', 'schemas', 'spec', 'conformance', 'SECURITY'];

/**
 * The verify API is one across both packages: `verifyArtifacts(target?, options?)` and
 * `requireVerifiedArtifacts(target, digest, options?)` take and return the same shapes here and
 * in `@openwop/spec/verify` (core/release/public-types.ts; a test holds the two declarations
 * equal). This verifier checks the stamps; the release signature is the toolchain's to check.
 */
export type VerifyProblemKind =
  'missing' | 'altered' | 'unlisted' | 'entry' | 'stamp' | 'digest' | 'package' | 'signature';

export interface VerifyProblem {
  kind: VerifyProblemKind;
  /** The file the problem is about, relative to the package root. */
  file: string;
  message: string;
}

export interface VerifyResult {
  ok: boolean;
  target: string;
  kind: 'package' | 'repository';
  package: string | undefined;
  version: string | undefined;
  /** The digest recomputed from the stamp's file list (undefined without a readable stamp). */
  digest: string | undefined;
  /** Files compared against a record. */
  files: number;
  /** The fingerprint of the key whose signature verified (only the toolchain checks signatures). */
  signedBy?: string;
  problems: VerifyProblem[];
}

export interface VerifyOptions {
  /** The digest the consumer pinned: `sha256:<hex>` (or the bare hex). */
  digest?: string;
  /** A PEM file with the release key the consumer pinned: the release must carry its signature. */
  publicKey?: string;
  /** The DSSE envelope; by default `<tarball>.dsse.json` beside a tarball (a directory must name one). */
  signature?: string;
}

/** Earlier names of the same shapes. */
export type ArtifactsProblem = VerifyProblem;
export type ArtifactsResult = VerifyResult;

/**
 * What a JavaScript caller passed, checked before anything is read: a wrong argument is a
 * TypeError that says what was expected, not a failure deep inside.
 */
export function checkVerifyArguments(name: string, target: unknown, options: unknown): void {
  if (target !== undefined && (typeof target !== 'string' || target === ''))
    throw new TypeError(
      `${name}: the target must be a path (a non-empty string) or undefined, not ${describeValue(target)}`,
    );
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError(
      `${name}: the options must be an object such as { digest: 'sha256:…' }, not ${describeValue(options)}`,
    );
  for (const key of ['digest', 'publicKey', 'signature'] as const) {
    const value = (options as Record<string, unknown>)[key];
    if (value !== undefined && typeof value !== 'string')
      throw new TypeError(`${name}: options.${key} must be a string, not ${describeValue(value)}`);
  }
}

/** The digest argument of requireVerifiedArtifacts: required, a string. */
export function checkPinnedDigest(digest: unknown): asserts digest is string {
  if (typeof digest !== 'string')
    throw new TypeError(
      `requireVerifiedArtifacts(target, digest): the digest you pinned (sha256:<64 hex digits>) is required, not ${describeValue(digest)}`,
    );
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return value === ''
      ? 'an empty string'
      : `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return typeof value === 'object'
    ? 'an object'
    : typeof value === 'number' || typeof value === 'boolean'
      ? `${typeof value} ${String(value)}`
      : typeof value;
}

export class ArtifactsVerificationError extends Error {
  readonly result: VerifyResult;
  constructor(result: VerifyResult) {
    super(describeArtifacts(result).trimEnd());
    this.name = 'ArtifactsVerificationError';
    this.result = result;
  }
}

export type RequireVerifiedArtifacts = (
  target: string | undefined,
  digest: string,
  options?: Omit<VerifyOptions, 'digest'>,
) => VerifyResult;

/** `requireVerifiedArtifacts` over a `verifyArtifacts`: this package's, or the toolchain's. */
export function requiring(
  verify: (target?: string, options?: VerifyOptions) => VerifyResult,
): RequireVerifiedArtifacts {
  return (target, digest, options = {}) => {
    checkVerifyArguments('requireVerifiedArtifacts', target, options);
    checkPinnedDigest(digest);
    const result = verify(target, { ...options, digest });
    if (!result.ok) throw new ArtifactsVerificationError(result);
    return result;
  };
}

/** Verifies and returns the result; throws ArtifactsVerificationError, naming every problem, when it fails. */
export const requireVerifiedArtifacts: RequireVerifiedArtifacts = requiring((target, options) =>
  verifyArtifacts(target, options),
);

/** The directory this package is installed in (the parent of `lib/`). */
export function packageDirectory(): string {
  return path.dirname(path.dirname(fileURLToPath(import.meta.url)));
}

/**
 * RFC 8785 for the JSON values a record holds. ECMAScript's JSON.stringify already writes strings
 * and finite numbers exactly as JCS requires; what JCS adds is the key order (UTF-16 code units,
 * which is what Array.prototype.sort compares) and no whitespace.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error('JCS has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`).join(',')}}`;
  }
  throw new Error(`JCS has no form for a ${typeof value}`);
}

function sha256(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** Hashes a file a block at a time, so a large file never sits in memory whole. */
function hashFile(file: string): string {
  const hash = createHash('sha256');
  const block = new Uint8Array(1 << 16);
  const fd = openSync(file, 'r');
  try {
    for (let read = readSync(fd, block); read > 0; read = readSync(fd, block)) hash.update(block.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** `sha256:<hex>`, or the bare hex, in either case. */
export function normalizeDigest(digest: string): string | undefined {
  const candidate = (/^[0-9a-fA-F]{64}$/.test(digest) ? `sha256:${digest}` : digest).toLowerCase();
  return /^sha256:[0-9a-f]{64}$/.test(candidate) ? candidate : undefined;
}

function isSafePath(file: string): boolean {
  if (file === '' || file.startsWith('/') || file.includes('\\') || /^[A-Za-z]:/.test(file)) return false;
  return file.split('/').every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

interface Walked {
  files: Map<string, string>;
  irregular: string[];
}

/** Every file under `root` by its `/`-separated relative path; links and devices set apart. */
function walk(root: string): Walked {
  const files = new Map<string, string>();
  const irregular: string[] = [];
  const visit = (relative: string) => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      const stat = lstatSync(path.join(root, child));
      if (stat.isDirectory()) visit(child);
      else if (stat.isFile()) files.set(child, path.join(root, child));
      else irregular.push(child);
    }
  };
  visit('');
  return { files, irregular: irregular.sort() };
}

interface Record_ {
  package: string;
  version: string;
  corpus?: string;
  files: Record<string, string>;
  digest: string;
}

function readRecord(
  directory: string,
  name: string,
  members: readonly string[],
  problems: ArtifactsProblem[],
): Record_ | undefined {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path.join(directory, name), 'utf8'));
  } catch (error) {
    const code = (error as { code?: string }).code;
    problems.push(
      code === 'ENOENT'
        ? { kind: 'missing', file: name, message: `there is no ${name}` }
        : { kind: 'stamp', file: name, message: `${name} is not readable JSON` },
    );
    return undefined;
  }
  const record = value as Record<string, unknown>;
  const before = problems.length;
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    problems.push({ kind: 'stamp', file: name, message: `${name} is not a JSON object` });
  else {
    for (const member of members)
      if (typeof record[member] !== 'string')
        problems.push({ kind: 'stamp', file: name, message: `"${member}" is missing or not a string` });
    if (record.canonicalization !== CANONICALIZATION)
      problems.push({ kind: 'stamp', file: name, message: `"canonicalization" is not "${CANONICALIZATION}"` });
    const files = record.files;
    if (typeof files !== 'object' || files === null || Array.isArray(files))
      problems.push({ kind: 'stamp', file: name, message: '"files" is missing or not an object' });
    else {
      for (const [file, hash] of Object.entries(files)) {
        if (typeof hash !== 'string' || !/^[0-9a-f]{64}$/.test(hash) || !isSafePath(file))
          problems.push({
            kind: 'stamp',
            file: name,
            message: `the entry for ${JSON.stringify(file)} is not a safe relative path with a SHA-256`,
          });
      }
    }
  }
  return problems.length === before ? (record as unknown as Record_) : undefined;
}

/**
 * Verifies the package at `directory` (by default the copy this file belongs to): every file
 * listed in either stamp is present with its recorded SHA-256, no other file is there, both
 * records digest to what they record, and the corpus digest is the pinned one when given.
 */
export function verifyArtifacts(target?: string, options: VerifyOptions = {}): VerifyResult {
  checkVerifyArguments('verifyArtifacts', target, options);
  const directory = target ?? packageDirectory();
  const problems: VerifyProblem[] = [];
  const result = (fields: Partial<VerifyResult>): VerifyResult => ({
    ok: problems.length === 0,
    target: directory,
    kind: 'package',
    package: undefined,
    version: undefined,
    digest: undefined,
    files: 0,
    ...fields,
    problems,
  });
  if (options.publicKey !== undefined || options.signature !== undefined) {
    problems.push({
      kind: 'signature',
      file: PACKAGE_STAMP,
      message:
        'this verifier checks the stamps only; check the release signature with the toolchain: openwop-spec verify <dir> --public-key <key> --signature <envelope>',
    });
  }
  let pinned: string | undefined;
  if (options.digest !== undefined) {
    pinned = normalizeDigest(options.digest);
    if (!pinned)
      problems.push({
        kind: 'digest',
        file: CORPUS_STAMP,
        message: `the expected digest "${options.digest}" is not sha256:<64 hex digits>`,
      });
  }
  let walked: Walked;
  try {
    walked = walk(directory);
  } catch (error) {
    problems.push({
      kind: 'missing',
      file: '.',
      message: `cannot read ${directory}: ${(error as { code?: string }).code ?? String(error)}`,
    });
    return result({});
  }
  const corpus = readRecord(directory, CORPUS_STAMP, ['package', 'version', 'digest'], problems);
  const record = readRecord(directory, PACKAGE_STAMP, ['package', 'version', 'corpus', 'digest'], problems);
  if (!corpus || !record) return result({});

  const digest = `sha256:${sha256(canonicalJson({ package: corpus.package, version: corpus.version, files: corpus.files }))}`;
  if (digest !== corpus.digest)
    problems.push({
      kind: 'stamp',
      file: CORPUS_STAMP,
      message: `the stamp was edited: its file list digests to ${digest}, but it records ${corpus.digest}`,
    });
  if (pinned && digest !== pinned)
    problems.push({
      kind: 'digest',
      file: CORPUS_STAMP,
      message: `this release digests to ${digest}, not the expected ${pinned}: it is not the release that was pinned`,
    });
  const recordDigest = `sha256:${sha256(canonicalJson({ package: record.package, version: record.version, corpus: record.corpus, files: record.files }))}`;
  if (recordDigest !== record.digest)
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP,
      message: `the package record was edited: its file list digests to ${recordDigest}, but it records ${record.digest}`,
    });
  if (record.corpus !== digest)
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP,
      message: `the package record was built around corpus ${String(record.corpus)}, not this corpus (${digest})`,
    });
  if (record.package !== corpus.package || record.version !== corpus.version)
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP,
      message: `the package record names ${record.package}@${record.version}, the stamp ${corpus.package}@${corpus.version}`,
    });

  const accounted = new Set([CORPUS_STAMP, PACKAGE_STAMP]);
  let compared = 0;
  const compare = (listed: Record<string, string>, name: string, corpusFiles: boolean) => {
    for (const [file, expected] of Object.entries(listed)) {
      accounted.add(file);
      const inCorpus = CORPUS_DIRECTORIES.some((directory) => file.startsWith(`${directory}/`));
      if (inCorpus !== corpusFiles)
        problems.push({ kind: 'stamp', file: name, message: `${name} lists ${file}, which the other record covers` });
      const location = walked.files.get(file);
      if (!location) {
        problems.push({ kind: 'missing', file, message: `${file} is listed in ${name} but missing` });
        continue;
      }
      compared++;
      const actual = hashFile(location);
      if (actual !== expected)
        problems.push({
          kind: 'altered',
          file,
          message: `${file} was altered: its SHA-256 is ${actual}, ${name} records ${expected}`,
        });
    }
  };
  compare(corpus.files, CORPUS_STAMP, true);
  compare(record.files, PACKAGE_STAMP, false);
  for (const file of walked.files.keys())
    if (!accounted.has(file))
      problems.push({ kind: 'unlisted', file, message: `${file} is not listed in either stamp: an extra file` });
  for (const file of walked.irregular)
    problems.push({
      kind: 'unlisted',
      file,
      message: `${file} is not a regular file (a link or a device); a release holds files only`,
    });

  try {
    const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as {
      name?: unknown;
      version?: unknown;
    };
    if (manifest.name !== corpus.package || manifest.version !== corpus.version) {
      problems.push({
        kind: 'package',
        file: 'package.json',
        message: `package.json names ${String(manifest.name)}@${String(manifest.version)}, but the stamp is for ${corpus.package}@${corpus.version}`,
      });
    }
  } catch {
    // a missing or unreadable package.json is already a missing or altered file above
  }
  problems.sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.message < b.message ? -1 : a.message > b.message ? 1 : 0,
  );
  return result({ package: corpus.package, version: corpus.version, digest, files: compared });
}

/**
 * How many files were checked, counted as `pack` counts them: the files the stamps list, and the
 * stamps themselves, which hold the hashes and are checked by their own digests.
 */
export function countedFiles(result: Pick<VerifyResult, 'files' | 'kind'>): string {
  const stamps = result.kind === 'package' ? [CORPUS_STAMP, PACKAGE_STAMP] : [CORPUS_STAMP];
  return `${result.files} files match their hashes in ${stamps.length === 1 ? 'the stamp' : `the ${stamps.length} stamps`} (${stamps.join(', ')}), ${result.files + stamps.length} files in all`;
}

/** One line a problem, each naming its file, then the verdict. */
export function describeArtifacts(result: VerifyResult): string {
  const name = result.package && result.version ? `${result.package}@${result.version}` : result.target;
  if (result.ok) return `verified ${name}: ${countedFiles(result)}, digest ${String(result.digest)}\n`;
  const lines = result.problems.map((problem) => `  ${problem.file}  ${problem.kind}  ${problem.message}`);
  lines.push(
    `verification of ${name} failed: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}
