/** Markdown as a tree with positions, and what is read from it: links, headings and their anchors, prose, tables. */
export {
  type ScopedCitation,
  blockCitations,
  citingBlocks,
  linkScope,
  qualifier,
  scopedCitations,
} from './citations.js';
export { type DirectiveComment, blankDirectives, directiveComments } from './directives.js';
export { HOUSE_STYLE_DOCUMENT } from './house-style.js';
export { inlineCodes } from './inline-code.js';
export { relativeUrl, resolveLink } from './link-targets.js';
export { rebaseLinks } from './links.js';
export {
  MARKDOWN_TREE_VERSION,
  type MarkdownCodeBlock,
  type MarkdownHeading,
  type MarkdownModel,
  type ParsedMarkdown,
  indexMarkdown,
  parseMarkdown,
  parseMarkdownTree,
} from './parse.js';
export { forEachProseText, proseTexts } from './prose.js';
export {
  type SectionCitation,
  citableNames,
  describeCitation,
  parseDocumentCitation,
  resolveCitation,
} from './sections.js';
export { escapeCell, renderTable } from './table.js';
export { walkMarkdown } from './walk.js';
export { generatedBannerLine, isGeneratedDocument, plainText, proseWordCount, whitespaceTokens } from './words.js';
