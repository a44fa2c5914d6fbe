/** The config file: finding it, validating it against its schema, and what it makes of the corpus layout and each rule. */
export * from './load.js';
export * from './rules.js';
export * from './aliases.js';
export * from './schema.js';
export * from './print.js';
export * from './read.js';
export * from './init.js';
