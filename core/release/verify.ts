/**
 * `verify`: recompute every hash and the digest of a packed, installed or checked-out release and
 * compare them with its stamp (and with a pinned digest). Every problem names the file.
 *
 * What is covered: in a package, every file. The corpus files (api/, schemas/, spec/,
 * conformance/, SECURITY/) are covered by CORPUS-STAMP.json, whose digest is the release identity;
 * the files `pack` adds (package.json, README.md, types/) by PACKAGE-STAMP.json, which is bound to
 * that digest. Any other file is reported as not listed. In a repository checkout only the
 * shipped directories are compared, since the rest of a repository is not part of a release.
 *
 * The stamps prove consistency, not authorship: whoever rewrites a file can rewrite both stamps.
 * With a public key the release's signature (sign.ts) is checked too, and a release without one,
 * or signed by another key, or repacked or re-stamped after signing, fails.
 *
 * The public types (VerifyResult, VerifyOptions, ...) mention no Node.js type: @openwop/spec/verify
 * must compile for a consumer with no @types/node.
 */
import type { KeyObject } from 'node:crypto';
import { compareStrings, sha256FileHex, sha256Hex, SHA256_DIGEST, visible } from '../output/index.js';
import { pathKind, readRegularFile, ReadRefused } from '../fs/index.js';
import { isObject } from '../model/index.js';
import { PACKAGE_STAMP_PATH, packageStampDigest, parsePackageStamp } from './package-stamp.js';
import { isShipped, parseStamp, stampDigest, STAMP_PATH } from './stamp.js';
import { loadArtifactTree, ReleaseSourceError, type ArtifactTree } from './tree.js';
import { addressedEnvelope, checkSignature, loadPublicKey, SIGNATURE_SUFFIX, SigningKeyError } from './sign.js';

import { countedFiles } from './shipped/verify.js';
import type { VerifyOptions, VerifyProblem, VerifyResult } from './public-types.js';
export type { VerifyOptions, VerifyResult } from './public-types.js';

/**
 * Verify a directory (installed or staged package, or repository checkout) or a `.tgz`. With a
 * public key, a tarball's signature is checked over the tarball's SHA-256 before a byte of it is
 * inflated: a tarball the key did not sign is refused at the cost of one read, however it inflates.
 */
export function verifyArtifacts(target: string, options: VerifyOptions = {}): VerifyResult {
  const key = options.publicKey === undefined ? undefined : publicKeyOf(options.publicKey);
  if (key && isTarballFile(target)) {
    const tarballSha256 = sha256FileHex(target);
    const problems: VerifyProblem[] = [];
    verifySignatureOf(key, { tarballSha256 }, target, undefined, options, problems);
    if (problems.length > 0)
      return {
        ok: false,
        target,
        kind: 'package',
        package: undefined,
        version: undefined,
        digest: undefined,
        files: 0,
        problems,
      };
  }
  const tree = loadArtifactTree(target);
  const result = verifyTree(tree, options);
  if (!key) return result;
  const problems = [...result.problems];
  const signedBy = verifySignatureOf(key, tree, target, result, options, problems);
  problems.sort(
    (a, b) => compareStrings(a.file, b.file) || compareStrings(a.kind, b.kind) || compareStrings(a.message, b.message),
  );
  return { ...result, ok: problems.length === 0, ...(signedBy ? { signedBy } : {}), problems };
}

function publicKeyOf(file: string): KeyObject {
  try {
    return loadPublicKey(file);
  } catch (error) {
    if (error instanceof SigningKeyError) throw new ReleaseSourceError(error.message);
    throw error;
  }
}

/**
 * The envelope beside a tarball: the one under the tarball's content address when there is one
 * (pack places it before the tarball, so it always matches the tarball it names), else `<tgz>.dsse.json`.
 */
function envelopeBeside(tarball: string, sha256: string): string {
  const addressed = addressedEnvelope(tarball, sha256);
  return pathKind(addressed) !== 'missing' ? addressed : `${tarball}${SIGNATURE_SUFFIX}`;
}

/** A tarball file itself (a link to one is left to the tarball reader, which refuses it). */
function isTarballFile(target: string): boolean {
  return pathKind(target) === 'file';
}

/** An envelope is a few kilobytes of JSON; one far larger is refused unread. */
const MAX_ENVELOPE_BYTES = 1 << 20;

/** The envelope's text, or why it cannot be read: a link (never followed), a FIFO or device, a huge file. */
function readEnvelope(file: string): { text: string } | { problem: string } {
  try {
    return { text: readRegularFile(file, MAX_ENVELOPE_BYTES).toString('utf8') };
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    return { problem: `the signature envelope ${error.message}; it is not read` };
  }
}

/** Checks the envelope against `key` and what is known of the release so far (the tarball's digest; with `result`, its stamps too). */
function verifySignatureOf(
  key: KeyObject,
  tree: Pick<ArtifactTree, 'tarballSha256'> & Partial<Pick<ArtifactTree, 'kind' | 'hashes'>>,
  target: string,
  result: VerifyResult | undefined,
  options: VerifyOptions,
  problems: VerifyProblem[],
): string | undefined {
  const envelopeFile =
    options.signature ?? (tree.tarballSha256 !== undefined ? envelopeBeside(target, tree.tarballSha256) : undefined);
  if (envelopeFile === undefined || pathKind(envelopeFile) === 'missing') {
    const where = envelopeFile === undefined ? 'name its envelope with --signature' : `there is no ${envelopeFile}`;
    problems.push({
      kind: 'signature',
      file: envelopeFile ?? PACKAGE_STAMP_PATH,
      message: `the release is unsigned: ${where}; a release must be signed by the key you pinned`,
    });
    return undefined;
  }
  const envelope = readEnvelope(envelopeFile);
  if ('problem' in envelope) {
    problems.push({ kind: 'signature', file: envelopeFile, message: envelope.problem });
    return undefined;
  }
  const record = tree.hashes?.get(PACKAGE_STAMP_PATH);
  const check = checkSignature(envelope.text, key, {
    ...(tree.tarballSha256 !== undefined ? { tarballSha256: tree.tarballSha256 } : {}),
    ...(tree.kind === 'package' ? { packageStampSha256: record ?? '(none)' } : {}),
    ...(result?.digest !== undefined ? { corpusDigest: result.digest } : {}),
  });
  for (const message of check.problems) problems.push({ kind: 'signature', file: envelopeFile, message });
  return check.ok ? check.signedBy : undefined;
}

export function normalizeDigest(digest: string): string | undefined {
  const candidate = /^[0-9a-fA-F]{64}$/.test(digest) ? `sha256:${digest}` : digest;
  const lower = candidate.toLowerCase();
  return SHA256_DIGEST.test(lower) ? lower : undefined;
}

export function verifyTree(tree: ArtifactTree, options: VerifyOptions = {}): VerifyResult {
  const problems: VerifyProblem[] = [];
  const result = (fields: Partial<VerifyResult>): VerifyResult => {
    const sorted = problems.sort(
      (a, b) =>
        compareStrings(a.file, b.file) || compareStrings(a.kind, b.kind) || compareStrings(a.message, b.message),
    );
    return {
      ok: sorted.length === 0,
      target: tree.label,
      kind: tree.kind,
      package: undefined,
      version: undefined,
      digest: undefined,
      files: 0,
      ...fields,
      problems: sorted,
    };
  };

  let pinned: string | undefined;
  if (options.digest !== undefined) {
    pinned = normalizeDigest(options.digest);
    if (!pinned)
      problems.push({
        kind: 'digest',
        file: STAMP_PATH,
        message: `the expected digest "${options.digest}" is not sha256:<64 hex digits>`,
      });
  }

  const stampBytes = tree.files.get(STAMP_PATH);
  if (!stampBytes) {
    problems.push({
      kind: 'missing',
      file: STAMP_PATH,
      message: `there is no ${STAMP_PATH}, so nothing can be verified`,
    });
    return result({});
  }
  const parsed = parseStamp(stampBytes.toString('utf8'));
  if (!parsed.stamp) {
    for (const problem of parsed.problems)
      problems.push({ kind: 'stamp', file: STAMP_PATH, message: `malformed stamp: ${problem}` });
    return result({});
  }
  const stamp = parsed.stamp;
  const digest = stampDigest(stamp);
  if (digest !== stamp.digest) {
    problems.push({
      kind: 'stamp',
      file: STAMP_PATH,
      message: `the stamp was edited: its file list digests to ${digest}, but it records ${stamp.digest}`,
    });
  }
  if (pinned && digest !== pinned) {
    problems.push({
      kind: 'digest',
      file: STAMP_PATH,
      message: `this release digests to ${digest}, not the expected ${pinned}: it is not the release that was pinned`,
    });
  }

  const accounted = new Set<string>([STAMP_PATH]);
  let compared = 0;
  for (const [file, expected] of Object.entries(stamp.files)) {
    accounted.add(file);
    if (!isShipped(file))
      problems.push({
        kind: 'stamp',
        file: STAMP_PATH,
        message: `the stamp lists ${file}, which is outside the shipped directories`,
      });
    compared += compareFile(tree, file, expected, STAMP_PATH, problems);
  }

  if (tree.kind === 'package') compared += verifyPackageRecord(tree, stamp, digest, accounted, problems);

  for (const file of new Set([...(tree.hashes?.keys() ?? []), ...tree.files.keys()])) {
    if (accounted.has(file)) continue;
    if (tree.kind === 'repository' && !isShipped(file)) continue;
    problems.push({
      kind: 'unlisted',
      file,
      message: `${file} is not listed in ${tree.kind === 'package' && !isShipped(file) ? PACKAGE_STAMP_PATH : STAMP_PATH}: an extra file`,
    });
  }
  for (const entry of tree.irregular)
    problems.push({
      kind: 'entry',
      file: entry.replace(/ \([A-Za-z]+\)$/, ''),
      message: `${entry} is not a regular file (a link, a hard link or a device); a release holds files only`,
    });
  for (const entry of tree.escaping ?? [])
    problems.push({
      kind: 'entry',
      file: entry,
      message: `${entry} leaves the package (an absolute path or a .. segment); an extractor would write it outside the directory it unpacks into`,
    });
  for (const file of tree.duplicates ?? [])
    problems.push({
      kind: 'entry',
      file,
      message: `${file} appears more than once in the tarball; which copy an extractor keeps is up to it, so the release is ambiguous`,
    });

  return result({ package: stamp.package, version: stamp.version, digest, files: compared });
}

/** 1 when the file was present and compared, 0 when it is missing. */
function compareFile(
  tree: ArtifactTree,
  file: string,
  expected: string,
  record: string,
  problems: VerifyProblem[],
): number {
  const bytes = tree.files.get(file);
  const actual = tree.hashes?.get(file) ?? (bytes ? sha256Hex(bytes) : undefined);
  if (actual === undefined) {
    problems.push({ kind: 'missing', file, message: `${file} is listed in ${record} but missing` });
    return 0;
  }
  if (actual !== expected)
    problems.push({
      kind: 'altered',
      file,
      message: `${file} was altered: its SHA-256 is ${actual}, ${record} records ${expected}`,
    });
  return 1;
}

function verifyPackageRecord(
  tree: ArtifactTree,
  stamp: { package: string; version: string },
  corpusDigest: string,
  accounted: Set<string>,
  problems: VerifyProblem[],
): number {
  accounted.add(PACKAGE_STAMP_PATH);
  const bytes = tree.files.get(PACKAGE_STAMP_PATH);
  if (!bytes) {
    problems.push({
      kind: 'missing',
      file: PACKAGE_STAMP_PATH,
      message: `this is a package, but it has no ${PACKAGE_STAMP_PATH} accounting for its package.json, README and types`,
    });
    return 0;
  }
  const parsed = parsePackageStamp(bytes.toString('utf8'));
  if (!parsed.stamp) {
    for (const problem of parsed.problems)
      problems.push({ kind: 'stamp', file: PACKAGE_STAMP_PATH, message: `malformed package record: ${problem}` });
    return 0;
  }
  const record = parsed.stamp;
  const digest = packageStampDigest(record);
  if (digest !== record.digest)
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP_PATH,
      message: `the package record was edited: its file list digests to ${digest}, but it records ${record.digest}`,
    });
  if (record.corpus !== corpusDigest)
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP_PATH,
      message: `the package record was built around corpus ${record.corpus}, not this corpus (${corpusDigest})`,
    });
  if (record.package !== stamp.package || record.version !== stamp.version) {
    problems.push({
      kind: 'stamp',
      file: PACKAGE_STAMP_PATH,
      message: `the package record names ${record.package}@${record.version}, the stamp ${stamp.package}@${stamp.version}`,
    });
  }
  let compared = 0;
  for (const [file, expected] of Object.entries(record.files)) {
    accounted.add(file);
    if (isShipped(file) || file === STAMP_PATH)
      problems.push({
        kind: 'stamp',
        file: PACKAGE_STAMP_PATH,
        message: `the package record lists ${file}, a corpus file the corpus stamp covers`,
      });
    compared += compareFile(tree, file, expected, PACKAGE_STAMP_PATH, problems);
  }
  const manifest = manifestOf(tree);
  if (manifest && (manifest.name !== stamp.package || manifest.version !== stamp.version)) {
    problems.push({
      kind: 'package',
      file: 'package.json',
      message: `package.json names ${String(manifest.name)}@${String(manifest.version)}, but the stamp is for ${stamp.package}@${stamp.version}`,
    });
  }
  return compared;
}

function manifestOf(tree: ArtifactTree): Record<string, unknown> | undefined {
  const bytes = tree.files.get('package.json');
  if (!bytes) return undefined;
  try {
    const value: unknown = JSON.parse(bytes.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** A short report: one line a problem, each naming its file, then the verdict. */
export function describeVerification(result: VerifyResult): string {
  const lines: string[] = [];
  const name = result.package && result.version ? `${result.package}@${result.version}` : result.target;
  if (result.ok) {
    lines.push(
      `verified ${name}: ${countedFiles(result)}, digest ${result.digest}${result.signedBy ? `, signed by key ${result.signedBy}` : ''}`,
    );
  } else {
    for (const problem of result.problems) lines.push(`  ${problem.file}  ${problem.kind}  ${problem.message}`);
    lines.push(
      `verification of ${name} failed: ${result.problems.length} problem${result.problems.length === 1 ? '' : 's'}`,
    );
  }
  // Paths and key ids come from the release: escaped for the terminal and the CI log.
  return `${lines.map(visible).join('\n')}\n`;
}
