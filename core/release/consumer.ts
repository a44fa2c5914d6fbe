/**
 * What a consumer of the releases scripts against (`@openwop/spec/verify`, also the package's
 * main entry): verify an installed or packed @openwop/spec-artifacts against the digest (and the
 * release key) it pinned, refuse to run on a mismatch, and diff two releases.
 *
 *   import { requireVerifiedArtifacts } from '@openwop/spec/verify';
 *   requireVerifiedArtifacts('node_modules/@openwop/spec-artifacts', 'sha256:…');
 *
 * Every declaration here is written out or comes from public-types.ts, never re-exported from a
 * module whose types mention Buffer: the emitted .d.ts must compile without @types/node.
 */
import path from 'node:path';
import { diffReleases, semverVerdict } from './diff.js';
import { formatDiffJson } from './diff-format.js';
import type { DiffReport, VerifyOptions, VerifyResult } from './public-types.js';
import { loadRelease } from './source.js';
import * as verification from './verify.js';
import * as stamps from './stamp.js';
import * as packageStamps from './package-stamp.js';
import { checkVerifyArguments, requiring, type RequireVerifiedArtifacts } from './shipped/verify.js';

export type {
  DiffChange,
  DiffPlace,
  DiffReport,
  VerifyOptions,
  VerifyProblem,
  VerifyProblemKind,
  VerifyResult,
} from './public-types.js';

/** The package the stamps name, and the two stamps' paths in it. */
export const PACKAGE_NAME: string = stamps.PACKAGE_NAME;
export const STAMP_PATH: string = stamps.STAMP_PATH;
export const PACKAGE_STAMP_PATH: string = packageStamps.PACKAGE_STAMP_PATH;

/** Where a consumer's install puts the artifacts: what `verifyArtifacts()` verifies without a target. */
export const INSTALLED_ARTIFACTS = 'node_modules/@openwop/spec-artifacts';

/**
 * Recomputes a release's hashes and digest and compares them with its stamps (and its signature,
 * given a public key). `target` is a directory or a `.tgz`; without one, the copy of
 * @openwop/spec-artifacts installed under the working directory. The same signature as the
 * artifacts' own `verifyArtifacts` (`@openwop/spec-artifacts/verify`), whose default target is
 * the package itself; arguments of the wrong type are a TypeError that says what was expected.
 */
export function verifyArtifacts(target?: string, options: VerifyOptions = {}): VerifyResult {
  checkVerifyArguments('verifyArtifacts', target, options);
  return verification.verifyArtifacts(target ?? path.resolve(INSTALLED_ARTIFACTS), options);
}

/** One line a problem, each naming its file, then the verdict. */
export function describeVerification(result: VerifyResult): string {
  return verification.describeVerification(result);
}

/** `sha256:<hex>` in lower case, or undefined when `digest` is not a SHA-256 digest. */
export function normalizeDigest(digest: string): string | undefined {
  return verification.normalizeDigest(digest);
}

export { ArtifactsVerificationError } from './shipped/verify.js';

/** Verifies and returns the result; throws ArtifactsVerificationError, naming every problem, when it fails. */
export const requireVerifiedArtifacts: RequireVerifiedArtifacts = requiring(verifyArtifacts);

/**
 * The semantic diff of two releases (directories, `.tgz` files or `git:<ref>` of the repository at
 * `root`), as `openwop-spec diff --format json --check-semver` reports it.
 */
export function diffReleaseFiles(older: string, newer: string, options: { root?: string } = {}): DiffReport {
  const root = path.resolve(options.root ?? '.');
  const diff = diffReleases(loadRelease(older, root), loadRelease(newer, root));
  return JSON.parse(formatDiffJson(diff, semverVerdict(diff))) as DiffReport;
}
