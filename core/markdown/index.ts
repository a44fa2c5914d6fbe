/** Markdown as a tree with positions, and what is read from it: links, headings and their anchors, prose, tables. */
export * from './citations.js';
export * from './directives.js';
export * from './house-style.js';
export * from './inline-code.js';
export * from './link-targets.js';
export * from './links.js';
export * from './parse.js';
export * from './prose.js';
export * from './sections.js';
export * from './table.js';
export * from './walk.js';
export * from './words.js';
