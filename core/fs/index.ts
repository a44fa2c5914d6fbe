/** The root as a boundary: every path the tool reads, writes or deletes for a corpus, judged against the root. */
export * from './guarded.js';
