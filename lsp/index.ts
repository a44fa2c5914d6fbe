/** The language server over stdio: the corpus model held in memory with the editor's unsaved text over it, the run's findings as diagnostics, and navigation over citations, registry entries and `$ref`s. */
export * from './run.js';
export * from './workspace.js';
export * from './server.js';
