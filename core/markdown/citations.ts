/**
 * The grammar of section citations, written once for every place a citation can sit: markdown
 * source (a paragraph, a heading, a table cell, code spans included) and the string values of
 * JSON and YAML documents. It works on text as written, so a link (`[a.md](a.md) §X`), a code
 * span (`` `a.md` §X ``, `` §`memory` ``) or an emphasised title (`*Book* §"Part"`) before a `§`
 * is seen exactly as the author wrote it.
 *
 * A citation is of one of three scopes, decided by what is written right before it:
 * - a document: a file name or path (`events.md §Types`, `` `spec/v1/x.md` §A ``), a link target;
 * - something outside the corpus that has sections of its own: an RFC or other standard (`RFC 0176
 *   §A`, and the bare RFC numbers of a list: `RFC 0176 (§A–§B), 0171 §A`), a named specification
 *   (`A2A §3.4.3`, `SemVer §11`), a work's title in emphasis, an external link;
 * - unqualified: nothing names what is cited, so it is the citing document's own section, if that
 *   document has any sections of the kind cited (the caller decides).
 * A citation joined to the one before it (`§A–§B`, `§B.1/§D`, `§7 Verification, §8 References`,
 * `§A, §E`) shares its scope.
 */
import type { Heading, Nodes, Paragraph, Root, TableCell } from 'mdast';
import { walkMarkdown } from './walk.js';
import { findCitations, type SectionCitation } from './sections.js';

export type CitationScope =
  /** `name` as written: a file name, a root-relative or relative path, or a link's URL. */
  | { kind: 'document'; name: string; via: 'text' | 'link' }
  | { kind: 'external'; what: string }
  | { kind: 'unqualified' };

export interface ScopedCitation extends SectionCitation {
  scope: CitationScope;
  /**
   * Written right after another citation with only a space between (`§"Recipe" §A`,
   * `§"Profile" §"Canary"`): a part of the section before it, not a section of the document.
   */
  part: boolean;
}

/**
 * A document's name, optionally in a code span: `a.md`, `spec/v1/a.md`, or a path ending in a
 * wildcard (`RFCS/0057-*`). A directory (`core/`), a source file or a file of another repository
 * (`repo:path`) has no sections to cite.
 */
const DOCUMENT_BEFORE =
  /(?:`((?:[\w.-]+\/)*(?:[\w-][\w.-]*\.md|[\w.-]*\*))`|((?:[\w.-]+\/)*[\w-][\w.-]*\.md))\s*\(?\s*$/;
/** A markdown link right before: `[label](url) §X`, `[label](url) (§X)`. */
const LINK_BEFORE = /\]\(\s*<?([^()\s>]*)>?(?:\s+"[^"]*")?\s*\)\s*\(?\s*$/;
const STANDARD_BEFORE = /\b((?:RFCs?|BCP|STD|ISO|IEC|ECMA|FIPS|NIST|SP|W3C)[\s-]*\d[\w.-]*)\s*\(?\s*$/;
/** A four-digit number is an RFC of a list (`RFC 0176 §A, 0171 §A`): no corpus document is named by one. */
const RFC_NUMBER_BEFORE = /(?<![\w.§-])(\d{4})\s*\(?\s*$/;
/** A specification's own name: an acronym or a word with inner capitals or digits (A2A, MCP, OAuth, SemVer, CloudEvents). */
const NAMED_SPEC_BEFORE = /(?<![\w.`/-])([A-Z][A-Za-z0-9-]*[A-Z0-9][A-Za-z0-9-]*)\s*\(?\s*$/;
/** RFC 2119 keywords are capitalised but name no specification. */
const KEYWORDS = new Set(['MUST', 'NOT', 'SHALL', 'SHOULD', 'MAY', 'REQUIRED', 'RECOMMENDED', 'OPTIONAL']);
/** A work's title set in emphasis: `*Event Sourcing* §"External Updates"`. */
const TITLE_BEFORE = /(?:^|[^*_\w])([*_])(?!\s)[^*_\n]+(?<!\s)\1\s*\(?\s*$/;
const SCHEME = /^[a-z][a-z0-9+.-]*:|^\/\//i;
/**
 * What may join a citation to the one before it: separators, parentheses, "and"/"or", and after a
 * numbered or one-word citation the words of the heading it names, capitalised
 * (`§7 Verification, §8`).
 */
const JOINER = /^(?:\s+[A-Z][\w'-]*(?:\s+[\w'-]+){0,5}?(?=\s*[,;/&+–—]))?[\s,;/&+–—()-]*(?:(?:and|or)\b[\s(]*)?$/;

const QUALIFIER_REACH = 400;

/** Every section citation in `text`, with its scope. */
export function scopedCitations(text: string): ScopedCitation[] {
  const found: ScopedCitation[] = [];
  let previous: ScopedCitation | undefined;
  for (const citation of findCitations(text)) {
    const before = text.slice(previous?.end ?? 0, citation.start);
    // What names a citation's document is written right before it; a bounded tail keeps every pattern linear.
    const named = qualifier(before.length > QUALIFIER_REACH ? before.slice(-QUALIFIER_REACH) : before);
    const joined = !named && previous !== undefined && JOINER.test(before);
    const scope = named ?? (joined && previous ? previous.scope : { kind: 'unqualified' as const });
    const part = joined && previous !== undefined && (previous.part || /^[ \t]+$/.test(before));
    const scoped: ScopedCitation = { ...citation, scope, part };
    found.push(scoped);
    previous = scoped;
  }
  return found;
}

/** The scope the text right before a citation gives it, if it names one. */
export function qualifier(before: string): CitationScope | undefined {
  const link = LINK_BEFORE.exec(before);
  if (link) return linkScope(link[1] ?? '');
  const document = DOCUMENT_BEFORE.exec(before);
  if (document) return { kind: 'document', name: (document[1] ?? document[2]) as string, via: 'text' };
  const named = NAMED_SPEC_BEFORE.exec(before);
  const standard =
    STANDARD_BEFORE.exec(before) ??
    RFC_NUMBER_BEFORE.exec(before) ??
    (named && !KEYWORDS.has(named[1] ?? '') ? named : null);
  if (standard) return { kind: 'external', what: standard[1] as string };
  const title = TITLE_BEFORE.exec(before);
  if (title) return { kind: 'external', what: title[0].trim() };
  return undefined;
}

/** What a link's URL makes of the citations in its label or right after it. */
export function linkScope(url: string): CitationScope {
  if (SCHEME.test(url)) return { kind: 'external', what: url };
  return { kind: 'document', name: url, via: 'link' };
}

/** Blocks whose inline content is prose: what an author writes a citation in. */
type CitingNode = Paragraph | Heading | TableCell;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

export interface CitingBlock {
  node: Nodes;
  /** Offset of the block in the document. */
  start: number;
  /** The block's source with HTML comments blanked (offsets kept), so a commented-out citation is not read. */
  text: string;
  /** In a heading, where its text starts (after `## `): a `§` there names the section, it cites nothing; -1 elsewhere. */
  label: number;
}

/** Every block of a markdown document that can hold a citation and has a `§`, in document order. */
export function citingBlocks(tree: Root, source: string): readonly CitingBlock[] {
  const kept = blocksOf.get(tree);
  if (kept) return kept;
  const blocks: CitingBlock[] = [];
  // A citing block is read whole: what is inside it is not walked again.
  const block = (node: CitingNode): 'skip' => {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined) return 'skip';
    const written = source.slice(start, end);
    if (!written.includes('§')) return 'skip';
    const text = written.replace(HTML_COMMENT, (comment) => ' '.repeat(comment.length));
    blocks.push({
      node,
      start,
      text,
      label: node.type === 'heading' ? (/^#{1,6}[ \t]+/.exec(text)?.[0].length ?? 0) : -1,
    });
    return 'skip';
  };
  walkMarkdown(tree, { paragraph: block, heading: block, tableCell: block });
  blocksOf.set(tree, blocks);
  return blocks;
}

/**
 * Kept per parsed tree (whose text it is), and each block's citations per block: the language
 * server runs the citation gate after every edit, and only the edited document is parsed again.
 */
const blocksOf = new WeakMap<Root, readonly CitingBlock[]>();
const citationsOfBlock = new WeakMap<CitingBlock, readonly ScopedCitation[]>();

/** The citations of a citing block, with their scopes (`scopedCitations` of its text, worked out once). */
export function blockCitations(block: CitingBlock): readonly ScopedCitation[] {
  let found = citationsOfBlock.get(block);
  if (!found) {
    found = scopedCitations(block.text);
    citationsOfBlock.set(block, found);
  }
  return found;
}
