/**
 * Where a declaration `section` leads. It is relative to spec/v2/ and takes two forms: a heading,
 * `core/<document>.md#<anchor>`, whose anchor is the heading's slug or, for a `### § <key>`
 * heading, the key itself (`core/capabilities.md#supportedEnvelopes`); or an extension's
 * directory, `ext/<key>/`, which leads to its README.md. A pointer that lands nowhere states no
 * obligation.
 */
import type { Corpus } from '../model/index.js';

const SECTION_BASE = 'spec/v2/';

export interface ResolvedSection {
  /** The root-relative path of the document (a directory's README.md). */
  file: string;
  anchor: string;
  /** Whether the document is a markdown file of the corpus. */
  documentExists: boolean;
  /** Whether the document has a heading (or explicit anchor) the section names; true for a directory. */
  anchorExists: boolean;
  /** The document's anchors, for suggestions. */
  anchors: string[];
  /**
   * `heading`: a section of the prose that states the family (its document's Normative home line
   * names it); `keyed`: the family's entry in the capability record (`### § key`); `directory`: an
   * extension's README. Only a `heading` section says where the family's normative home is.
   */
  form: 'heading' | 'keyed' | 'directory';
}

export function resolveSection(corpus: Corpus, section: string): ResolvedSection {
  const hash = section.indexOf('#');
  const relative = hash === -1 ? section : section.slice(0, hash);
  const anchor = hash === -1 ? '' : section.slice(hash + 1);
  if (relative.endsWith('/') && hash === -1) {
    const file = `${SECTION_BASE}${relative}README.md`;
    const markdown = corpus.markdown(file);
    return {
      file,
      anchor: '',
      documentExists: markdown !== undefined,
      anchorExists: markdown !== undefined,
      anchors: markdown ? [...markdown.anchors] : [],
      form: 'directory',
    };
  }
  const file = `${SECTION_BASE}${relative}`;
  const markdown = corpus.markdown(file);
  const keyed =
    markdown?.headings.some(
      (heading) => heading.text.trim() === `§ ${anchor}` || heading.text.trim() === `§${anchor}`,
    ) ?? false;
  return {
    file,
    anchor,
    documentExists: markdown !== undefined,
    anchorExists: markdown !== undefined && anchor !== '' && (markdown.anchors.has(anchor) || keyed),
    anchors: markdown ? [...markdown.anchors] : [],
    // A `### § key` heading names the key exactly; a heading whose slug happens to be the key (`## Forms`) is the weaker match.
    form: keyed ? 'keyed' : 'heading',
  };
}
