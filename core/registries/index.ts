/** Typed, tolerant readers of the registries (errors, event codemap, declaration, id kinds, evidence) and where the corpus mentions their entries. */
export * from './carried-schemas.js';
export * from './count-mentions.js';
export * from './declaration.js';
export * from './error-code-mentions.js';
export * from './errors.js';
export * from './event-codemap.js';
export * from './event-mentions.js';
export * from './event-names.js';
export * from './event-schemas.js';
export * from './evidence.js';
export * from './id-kinds.js';
export * from './normative-home.js';
export * from './payload-defs.js';
export * from './scopes.js';
export * from './views.js';
export * from './mention-scope.js';
export * from './v1-scope.js';
