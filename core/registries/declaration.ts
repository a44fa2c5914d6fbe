/**
 * Where a declaration `section` (`core/<document>.md#<anchor>`, relative to spec/v2/) leads. Every
 * family and metadata key points into the prose; a pointer that does not land on a heading
 * states no obligation.
 */
import type { Corpus } from '../model/index.js';

export const SECTION_BASE = 'spec/v2/';

export interface ResolvedSection {
  /** The root-relative path of the document. */
  file: string;
  anchor: string;
  /** Whether the document is a markdown file of the corpus. */
  documentExists: boolean;
  /** Whether the document has a heading (or explicit anchor) with that slug. */
  anchorExists: boolean;
  /** The document's anchors, for suggestions. */
  anchors: string[];
}

export function resolveSection(corpus: Corpus, section: string): ResolvedSection {
  const hash = section.indexOf('#');
  const relative = hash === -1 ? section : section.slice(0, hash);
  const anchor = hash === -1 ? '' : section.slice(hash + 1);
  const file = `${SECTION_BASE}${relative}`;
  const markdown = corpus.markdown(file);
  return {
    file,
    anchor,
    documentExists: markdown !== undefined,
    anchorExists: markdown !== undefined && anchor !== '' && markdown.anchors.has(anchor),
    anchors: markdown ? [...markdown.anchors] : [],
  };
}
