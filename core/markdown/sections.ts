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
    if (match[1] !== undefined || match[2] !== undefined) citations.push({ form: 'quoted', value: (match[1] ?? match[2]) as string, start, end });
    else if (match[3] !== undefined) citations.push({ form: 'numbered', value: match[3], start, end });
    else if (match[4] !== undefined) citations.push({ form: 'word', value: match[4], start, end });
    else if (match[5] !== undefined) citations.push({ form: 'code', value: match[5], start, end });
  }
  return citations;
}

/** A heading such as `### § supportedEnvelopes` names its section with the sign; a citation of it does not repeat it. */
const normalize = (text: string): string =>
  text
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^§\s*/, '')
    .toLowerCase();

export function resolveCitation(headings: readonly MarkdownHeading[], citation: Pick<SectionCitation, 'form' | 'value'>): MarkdownHeading | undefined {
  switch (citation.form) {
    case 'numbered':
      return headings.find((heading) => heading.number === citation.value);
    case 'quoted': {
      const wanted = normalize(citation.value);
      const exact = headings.find((heading) => normalize(heading.text) === wanted);
      if (exact) return exact;
      const slug = new GithubSlugger().slug(citation.value);
      return headings.find((heading) => heading.slug === slug);
    }
    case 'code':
    case 'word': {
      const wanted = normalize(citation.value);
      return headings.find((heading) => {
        const text = normalize(heading.text);
        return text === wanted || text.startsWith(`${wanted} `) || text.startsWith(`${wanted}:`);
      });
    }
  }
}

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
