/** The contracts of gates and generators, the engine that runs them over one model, generation planning, the fixes findings carry, and the run every verb calls (pipeline.ts). */
export * from './counts.js';
export * from './define.js';
export * from './engine.js';
export * from './fixes.js';
export * from './generation.js';
export * from './fingerprint.js';
export * from './findings-baseline.js';
export * from './suppressions.js';
export * from './scope.js';
export * from './cascade.js';
export * from './relocate.js';
export * from './pipeline.js';
export * from './fix-loop.js';
export * from './overrides.js';
export * from './reuse.js';
