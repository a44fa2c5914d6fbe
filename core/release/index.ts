/** Releases: the corpus stamp and its digest, packing, verifying, reading a release from a tree, tarball or git ref, and the semantic diff. */
export {
  DIFF_FORMATS,
  type DiffFormat,
  formatDiffJson,
  formatGithub,
  formatMarkdown,
  formatPatch,
  formatStylish,
} from './diff-format.js';
export { type Change, DIFF_RULES, LEVELS, diffReleases, semverVerdict } from './diff.js';
export { ImpactConfigError, applyImpacts, checkImpacts, configuredImpact } from './impacts.js';
export { NpmPackError } from './npm-pack.js';
export { packCorpus } from './pack.js';
export { findPreviousRelease, previousRelease, previousReleaseProblem, whyUnreadable } from './previous-release.js';
export { DIRECTIONAL_LEVELS } from './schema-diff.js';
export { SIGNING_KEY_ENV, SIGNING_KEY_FILE_ENV, SigningKeyError, loadSigningKey } from './sign.js';
export { RELEASE_PATH, type Release, loadRelease, loadReleaseFiles, releasedDigestsOf } from './source.js';
export { StageError } from './stage.js';
export {
  PACKAGE_NAME,
  SHIPPED_DIRECTORIES,
  STAMP_PATH,
  buildStamp,
  formatStamp,
  isShipped,
  parseStamp,
  readPackageManifest,
  stampPackageDirectory,
  stampPath,
} from './stamp.js';
export { ReleaseSourceError } from './tree.js';
export { unifiedHunks } from './unified-diff.js';
export { describeVerification, normalizeDigest, verifyArtifacts } from './verify.js';
