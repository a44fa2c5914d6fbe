import type { Link } from 'mdast';
import type { Corpus, MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Fix, Report } from '../../core/output/index.js';
import { documentIndex } from '../../core/model/index.js';
import { resolveLink } from '../../core/markdown/index.js';
import { forEachProseText, type ProseText } from '../../core/markdown/index.js';
import { citesExternalStandard, describeCitation, findCitations, resolveCitation, type SectionCitation } from '../../core/markdown/index.js';
import { closest } from '../../core/output/index.js';

const CONTINUATION = /^[\s,;–—-]*(?:and|or|&)?[\s,]*$/;
const DOCUMENT_BEFORE = /([\w./-]+\.md)\s*$/;

export default defineCheck({
  id: 'links/section-ref',
  summary: 'A section citation (§"Heading", §1.4, §B.2) names a heading of the cited document, and a linked one links to that heading',
  severity: 'error',
  run(corpus, report) {
    for (const file of corpus.markdownFiles()) {
      forEachProseText(file.tree, file.text, (prose) => {
        if (!prose.node.value.includes('§')) return;
        checkText(corpus, file, prose, report);
      });
    }
  },
});

function checkText(corpus: Corpus, file: MarkdownFile, prose: ProseText, report: Report): void {
  const value = prose.node.value;
  let previous: { end: number; document: string | undefined } | undefined;
  let linkChecked = false;
  for (const citation of findCitations(value)) {
    const before = value.slice(0, citation.start);
    let document: string | undefined;
    if (previous && CONTINUATION.test(value.slice(previous.end, citation.start))) {
      document = previous.document;
    } else if (citesExternalStandard(before)) {
      document = undefined;
    } else {
      document = citedDocument(corpus, file, prose, before);
    }
    previous = { end: citation.end, document };
    if (document === undefined) continue;
    const target = corpus.markdown(document);
    if (!target) continue;

    const at = locateCitation(file, prose, citation);
    const heading = resolveCitation(target.headings, citation);
    if (!heading && brokenLinkFragment(file, prose.link, target)) continue; // links/anchor already reports it
    if (!heading) {
      const suggestion = closest(citation.value, target.headings.map((h) => (citation.form === 'numbered' ? (h.number ?? '') : h.text)).filter(Boolean));
      report({
        ...at,
        message: `${document === file.path ? 'this document' : document} has no section ${describeCitation(citation)}`,
        hint: suggestion ? `did you mean ${citation.form === 'numbered' ? `§${suggestion}` : `§"${suggestion}"`}?` : 'cite a heading that exists: §"Exact heading text", or its number',
      });
      continue;
    }
    if (prose.link && !linkChecked) {
      linkChecked = true;
      const linkTarget = resolveLink(file.path, prose.link.url);
      const fragment = linkTarget.kind === 'external' ? undefined : linkTarget.fragment;
      if (linkTarget.kind !== 'external' && fragment !== heading.slug) {
        const finding = {
          ...at,
          message: fragment
            ? `the link for ${describeCitation(citation)} points at #${fragment}, but the cited heading is #${heading.slug}`
            : `the link for ${describeCitation(citation)} stops at the document; link to the heading, #${heading.slug}`,
          hint: 'a section reference links to the heading it cites',
        };
        const fix = fragmentFix(file, prose.link, heading.slug);
        report(fix ? { ...finding, fix } : finding);
      }
    }
  }
}

function brokenLinkFragment(file: MarkdownFile, link: Link | undefined, target: MarkdownFile): boolean {
  if (!link) return false;
  const resolved = resolveLink(file.path, link.url);
  return resolved.kind !== 'external' && Boolean(resolved.fragment) && !target.anchors.has(resolved.fragment ?? '');
}

function citedDocument(corpus: Corpus, file: MarkdownFile, prose: ProseText, before: string): string | undefined {
  if (prose.link) {
    const target = resolveLink(file.path, prose.link.url);
    if (target.kind === 'external') return undefined;
    if (target.kind === 'same-file') return file.path;
    return target.target.endsWith('.md') ? target.target : undefined;
  }
  const named = DOCUMENT_BEFORE.exec(before)?.[1];
  if (named) return documentIndex(corpus).resolve(named, file.path);
  if (before.trim() === '' && prose.previous) {
    const previous = prose.previous;
    if (previous.type === 'link') {
      const target = resolveLink(file.path, previous.url);
      if (target.kind === 'local') return target.target.endsWith('.md') ? target.target : undefined;
      if (target.kind === 'same-file') return file.path;
      return undefined;
    }
    if (previous.type === 'inlineCode' && /\.md$/.test(previous.value)) return documentIndex(corpus).resolve(previous.value, file.path);
  }
  return file.path;
}

function locateCitation(file: MarkdownFile, prose: ProseText, citation: SectionCitation) {
  if (prose.offset !== undefined) {
    const span = file.lines.span(prose.offset + citation.start, prose.offset + citation.end);
    return { file: file.path, ...span };
  }
  const start = prose.node.position?.start;
  return { file: file.path, line: start?.line ?? 1, column: start?.column ?? 1 };
}

function fragmentFix(file: MarkdownFile, link: Link, slug: string): Fix | undefined {
  const start = link.position?.start.offset;
  const end = link.position?.end.offset;
  if (start === undefined || end === undefined) return undefined;
  const source = file.text.slice(start, end);
  const at = source.lastIndexOf(`](${link.url}`);
  if (at === -1) return undefined;
  const urlStart = start + at + 2;
  const base = link.url.split('#')[0] ?? '';
  return { start: urlStart, end: urlStart + link.url.length, text: `${base}#${slug}` };
}
