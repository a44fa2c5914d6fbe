/** The corpus model: files read once from the root, parsed with positions (JSON, YAML, markdown), regions, fenced data blocks and examples. */
export { authoredMarkdown, outsideRegions } from './authored-prose.js';
export { codeBlockData, codeBlockValue } from './code-blocks.js';
export { Corpus, CorpusError, type CorpusFile, type DataFile, type MarkdownFile } from './corpus.js';
export { dataStringEdit, dataStringLinks, dataStrings } from './data-strings.js';
export { documentIndex, speaksOtherVersion } from './documents.js';
export { type ExampleAnnotation, examplePlans, strayAnnotations } from './examples.js';
export { walkFiles } from './file-walk.js';
export { foldedName, howNamesDiffer } from './folded-names.js';
export { type MemberUpdate, SpliceError, spliceJson } from './json-splice.js';
export { corpusFromFiles, loadCorpus } from './load.js';
export { Location, PointerLocation } from './location.js';
export { parseFile } from './parse-file.js';
export { type WholeFileMark, joinRow, splitRow, textTables, wholeFileMark } from './regions.js';
export { REQUIRED_MESSAGE, missingRequired } from './required.js';
export { defineService, type Service } from './service.js';
export {
  MAX_YAML_ALIASES,
  type PathSegment,
  compareDocumentOrder,
  hasPointer,
  isList,
  isObject,
  nodeAt,
  parseJsonText,
} from './structured.js';
export { walkData } from './walk-data.js';
export { CORE_DOCUMENTS, folderWordCounts, groupDigits } from './word-budget.js';
