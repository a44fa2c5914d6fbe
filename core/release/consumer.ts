/**
 * What a consumer of @openwop/spec-artifacts imports: verify the installed (or packed) release
 * against the digest it pinned, and refuse to run on a mismatch.
 *
 *   import { requireVerifiedArtifacts } from '@openwop/spec/verify';
 *   requireVerifiedArtifacts('node_modules/@openwop/spec-artifacts', 'sha256:…');
 */
import { describeVerification, verifyArtifacts, type VerifyOptions, type VerifyResult } from './verify.js';

export { describeVerification, normalizeDigest, verifyArtifacts, verifyTree } from './verify.js';
export type { VerifyOptions, VerifyProblem, VerifyProblemKind, VerifyResult } from './verify.js';
export { loadArtifactTree, ReleaseSourceError, type ArtifactTree } from './tree.js';
export { PACKAGE_NAME, STAMP_PATH, SHIPPED_DIRECTORIES, stampDigest, type CorpusStamp } from './stamp.js';
export { PACKAGE_STAMP_PATH, type PackageStamp } from './package-stamp.js';

export class ArtifactsVerificationError extends Error {
  constructor(readonly result: VerifyResult) {
    super(describeVerification(result).trimEnd());
    this.name = 'ArtifactsVerificationError';
  }
}

/** Verifies and returns the result; throws ArtifactsVerificationError, naming every problem, when it fails. */
export function requireVerifiedArtifacts(target: string, digest: string, options: Omit<VerifyOptions, 'digest'> = {}): VerifyResult {
  const result = verifyArtifacts(target, { ...options, digest });
  if (!result.ok) throw new ArtifactsVerificationError(result);
  return result;
}
