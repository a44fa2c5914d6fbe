/**
 * Section citations: `§"Heading text"`, numbered `§1.4` / `§6` / `§B.2` / `§A.1a`, the short
 * `§Word` (dotted: `§host.chat`, `§host.*`) and a code span, `` §`memory` ``. What a citation is of
 * is worked out in citations.ts. Shared by the link gate and by registries whose entries cite
 * `<doc> §<section>`.
 */
import GithubSlugger from 'github-slugger';
import type { MarkdownHeading } from './parse.js';

export interface SectionCitation {
  form: 'quoted' | 'numbered' | 'word' | 'code';
  value: string;
  /** Offsets of the whole citation, `§` included, in the string it was found in. */
  start: number;
  end: number;
}

const CITATION =
  /§\s?(?:"([^"\n]+)"|“([^”\n]+)”|((?:[A-Z](?:\.\d+)+[a-z]?|\d+(?:\.\d+)*[a-z]?|[A-Z])(?![\w-]))|([A-Za-z][\w-]*(?:\.(?:[A-Za-z][\w-]*|\*(?![\w*])))*)|`([^`\n]+)`)/g;

export function findCitations(text: string): SectionCitation[] {
  const citations: SectionCitation[] = [];
  for (const match of text.matchAll(CITATION)) {
    const start = match.index ?? 0;
    const end = start + match[0].length;
    if (match[1] !== undefined || match[2] !== undefined)
      citations.push({ form: 'quoted', value: (match[1] ?? match[2]) as string, start, end });
    else if (match[3] !== undefined) citations.push({ form: 'numbered', value: match[3], start, end });
    else if (match[4] !== undefined) citations.push({ form: 'word', value: match[4], start, end });
    else if (match[5] !== undefined) citations.push({ form: 'code', value: match[5], start, end });
  }
  return citations;
}

/** A heading such as `### § supportedEnvelopes` names its section with the sign; a citation of it does not repeat it. */
const normalize = (text: string): string =>
  text.replace(/`/g, '').replace(/\s+/g, ' ').trim().replace(/^§\s*/, '').toLowerCase();

export function resolveCitation(
  headings: readonly MarkdownHeading[],
  citation: Pick<SectionCitation, 'form' | 'value'>,
): MarkdownHeading | undefined {
  const index = indexOf(headings);
  const first = (...positions: Array<number | undefined>): MarkdownHeading | undefined => {
    const found = positions.filter((position): position is number => position !== undefined);
    return found.length > 0 ? headings[Math.min(...found)] : undefined;
  };
  switch (citation.form) {
    case 'numbered':
      return first(index.byNumber.get(citation.value));
    case 'quoted': {
      const exact = first(index.byText.get(normalize(citation.value)));
      if (exact) return exact;
      return first(index.bySlug.get(new GithubSlugger().slug(citation.value)));
    }
    case 'code':
    case 'word': {
      // The heading's text, or its text up to a space or a colon: `§Outcomes` cites "Outcomes: what is kept".
      const wanted = normalize(citation.value);
      return first(index.byText.get(wanted), index.byLead.get(wanted));
    }
  }
}

/**
 * The headings of a document looked up by number, normalized text, slug and leading words, each
 * to the first heading that has it: made once per heading list, so that a thousand citations of a
 * document of 200,000 headings cost a thousand lookups, not a thousand scans.
 */
interface HeadingIndex {
  byNumber: Map<string, number>;
  byText: Map<string, number>;
  bySlug: Map<string, number>;
  /** Normalized text up to each space or colon in it. */
  byLead: Map<string, number>;
}

const indexes = new WeakMap<readonly MarkdownHeading[], HeadingIndex>();

function indexOf(headings: readonly MarkdownHeading[]): HeadingIndex {
  const known = indexes.get(headings);
  if (known) return known;
  const index: HeadingIndex = { byNumber: new Map(), byText: new Map(), bySlug: new Map(), byLead: new Map() };
  const put = (map: Map<string, number>, key: string | undefined, position: number): void => {
    if (key !== undefined && !map.has(key)) map.set(key, position);
  };
  headings.forEach((heading, position) => {
    put(index.byNumber, heading.number, position);
    const text = normalize(heading.text);
    put(index.byText, text, position);
    put(index.bySlug, heading.slug, position);
    for (let at = 0; at < text.length; at++) {
      const c = text[at];
      if (c === ' ' || c === ':') put(index.byLead, text.slice(0, at), position);
    }
  });
  indexes.set(headings, index);
  return index;
}

/** The names a citation of `headings` can be suggested from: numbers, or texts without a leading §; made once per list. */
export function citableNames(headings: readonly MarkdownHeading[], numbered: boolean): string[] {
  let names = citable.get(headings);
  if (!names) citable.set(headings, (names = {}));
  const key = numbered ? 'numbered' : 'text';
  return (names[key] ??= headings
    .map((h) => (numbered ? (h.number ?? '') : h.text.replace(/^§\s*/, '')))
    .filter(Boolean));
}

const citable = new WeakMap<readonly MarkdownHeading[], { numbered?: string[]; text?: string[] }>();

/** Parses a registry-style citation, `idempotency.md §Outcomes` or `errors.md §"Retry timing"`. */
export function parseDocumentCitation(text: string): { document: string; citation: SectionCitation } | undefined {
  const match = /^\s*([\w./-]+\.md)\s+(§.*)$/.exec(text);
  if (!match) return undefined;
  const [citation] = findCitations(match[2] ?? '');
  return citation && match[1] ? { document: match[1], citation } : undefined;
}

export function describeCitation(citation: Pick<SectionCitation, 'form' | 'value'>): string {
  if (citation.form === 'quoted') return `§"${citation.value}"`;
  return citation.form === 'code' ? `§\`${citation.value}\`` : `§${citation.value}`;
}
