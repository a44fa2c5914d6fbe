/** The corpus model: files read once from the root, parsed with positions (JSON, YAML, markdown), regions, fenced data blocks and examples. */
export * from './code-blocks.js';
export * from './corpus.js';
export * from './data-strings.js';
export * from './documents.js';
export * from './examples.js';
export * from './file-walk.js';
export * from './json-splice.js';
export * from './location.js';
export * from './positions.js';
export * from './regions.js';
export * from './service.js';
export * from './structured.js';
export * from './required.js';
export * from './walk-data.js';
export * from './word-budget.js';
export * from './folded-names.js';
export * from './authored-prose.js';
