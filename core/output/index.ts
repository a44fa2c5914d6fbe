/** Findings as data and everything that leaves a run: reporters, canonical JSON, digests, atomic writes, deferred flushes. */
export * from './diagnostics.js';
export * from './digest.js';
export * from './escape.js';
export * from './flush.js';
export * from './json-output.js';
export * from './suggest.js';
export * from './write.js';
export * from './verdict.js';
export * from './reporters/index.js';
// The tool's own directory lives below this layer (core/tool), so that what needs only it loads nothing of this folder.
export { toolRoot } from '../tool/index.js';
export * from './positions.js';
