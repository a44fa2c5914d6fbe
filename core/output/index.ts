/** Findings as data and everything that leaves a run: reporters, canonical JSON, digests, atomic writes, deferred flushes. */
export {
  type Diagnostic,
  type Finding,
  type Fix,
  type Report,
  type Severity,
  collector,
  compareStrings,
  isActive,
  placeOf,
  renderMessage,
  sortDiagnostics,
  summarize,
} from './diagnostics.js';
export { CANONICALIZATION, SHA256_DIGEST, SHA256_HEX, jcs, jcsDigest, sha256FileHex, sha256Hex } from './digest.js';
export { note, safeJson, stopCommands, visible, visibleLines } from './escape.js';
export { flushCaches, onFlush } from './flush.js';
export { formatJson } from './json-output.js';
export { LineIndex, type Locatable, type Span } from './positions.js';
export { FORMATS, REPORTERS, type RuleMeta } from './reporters/index.js';
export { closest, closestPhrase } from './suggest.js';
export { type FailPolicy, failureReason } from './verdict.js';
export {
  JOURNAL,
  type TextStyle,
  encodeText,
  faultPoint,
  isAbandonedTemporary,
  isAlive,
  recoverWrites,
  textStyleOf,
  writeFileAtomic,
  writeSetAtomic,
  writeTextInside,
} from './write.js';
