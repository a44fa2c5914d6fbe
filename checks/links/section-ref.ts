import { posix } from 'node:path';
import type { Link, Nodes } from 'mdast';
import {
  type Corpus,
  type DataFile,
  type MarkdownFile,
  dataStringEdit,
  dataStrings,
  defineService,
  documentIndex,
  Location,
  type PathSegment,
} from '../../core/model/index.js';
import { type Fix, type Report, closest, closestPhrase } from '../../core/output/index.js';
import { defineCheck } from '../../core/run/index.js';
import {
  citableNames,
  blockCitations,
  citingBlocks,
  describeCitation,
  linkScope,
  resolveCitation,
  resolveLink,
  scopedCitations,
  type MarkdownHeading,
  type ScopedCitation,
  walkMarkdown,
} from '../../core/markdown/index.js';

/** Words that name a source a section number may belong to: an RFC, a document, a standard, a link. */
const NAMES_A_SOURCE = /\bRFCs?\b|\.(?:md|json|ya?ml)\b|\]\(|https?:|\b[A-Z][A-Za-z0-9-]*[ \t]+§|\bv1\b/;

export default defineCheck({
  id: 'links/section-ref',
  summary:
    'A section citation (§"Heading", §1.4, §B.2, §Word, §`name`) in prose, tables or a JSON/YAML string names a heading of the cited document, and a linked one links to that heading',
  description:
    'A citation of a document under a prefix the `external` option lists is neither checked nor reported, in any form a citation names it: the path as written (with or without a leading slash or backticks), a path relative to the citing file, a link, or a bare name that is no corpus document and that the corpus names only under such a prefix, or that a file citing under it writes. A bare §1.2 cites its own document when its block names no other source.',
  severity: 'error',
  fixable: true,
  messages: {
    'no-section': '{{target}} has no section {{citation}}',
    'no-section-led-by': '{{target}} has no heading that is or begins with {{citation}}',
    'not-in-corpus': '{{target}} is not a document of the corpus, so {{citation}} cannot be checked',
    'link-to-other-heading': 'the link for {{citation}} points at #{{fragment}}, but the cited heading is #{{heading}}',
    'link-to-document': 'the link for {{citation}} stops at the document; link to the heading, #{{heading}}',
  },
  options: {
    external: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      default: [],
      description:
        'Path prefixes of documents that live outside this corpus and are cited knowingly (`spec/v1/`, `RFCS/`): their citations are neither checked nor reported as unresolvable',
    },
  },
  run(corpus, report, context) {
    const external = externalDocuments(corpus, context.options.external as readonly string[]);
    for (const file of corpus.markdownFiles()) {
      if (file.text.includes('§')) checkMarkdown(corpus, file, report, external);
    }
    for (const file of corpus.dataFiles()) {
      if (file.text.includes('§')) checkData(corpus, file, report, external);
    }
  },
});

interface Target {
  /** How the finding names the cited document. */
  name: string;
  document: MarkdownFile;
}

function checkMarkdown(corpus: Corpus, file: MarkdownFile, report: Report, external: External): void {
  const links = file.links.filter((link) => link.kind === 'link').map((link) => link.node as Link);
  const numbering = numberingOf(file.headings);
  for (const block of citingBlocks(file.tree, file.text)) {
    const { node, start, text, label } = block;
    const checkedLinks = new Set<Link>();
    const shownHeadings = headingSpans(node);
    for (const citation of blockCitations(block)) {
      const at = start + citation.start;
      // `### § supportedEnvelopes` names the section it heads; it cites nothing. Nor does a code
      // span that shows such a heading line (`` `### § key` ``): it shows the markup.
      if (citation.start === label || !judgeable(citation) || shownHeadings.some(([from, to]) => from <= at && at < to))
        continue;
      const link = links.find(
        (candidate) =>
          (candidate.position?.start.offset ?? Infinity) <= at && at < (candidate.position?.end.offset ?? -1),
      );
      const scope = link && citation.scope.kind !== 'external' ? linkScope(link.url) : citation.scope;
      const place = Location.text(file, at, start + citation.end);
      if (scope.kind === 'unqualified') {
        // A numbered citation in a document not numbered that way cites the numbering of a source
        // (an RFC's §B.2); nothing written says which, so it is not judged.
        // A block that names no other document, RFC or standard can only mean this document's own.
        if (
          citation.form === 'numbered' &&
          !numbering.has(numberKind(citation.value)) &&
          (numberKind(citation.value) !== 'arabic' || NAMES_A_SOURCE.test(text))
        )
          continue;
        if (labelled(corpus).has(labelKey(citation.value)) && !resolveCitation(file.headings, citation)) continue;
        judge({ name: 'this document', document: file }, citation, place, report);
        continue;
      }
      if (scope.kind === 'external') continue;
      const target =
        scope.via === 'link'
          ? linkedTarget(corpus, file, scope.name, external)
          : namedTarget(corpus, file.path, scope.name, citation, place, report, external);
      if (!target) continue;
      const heading = judge(target, citation, place, report, link && brokenFragment(file, link, target.document), {
        file,
        link,
        start: at,
        end: start + citation.end,
      });
      if (heading && link && !checkedLinks.has(link)) {
        checkedLinks.add(link);
        checkLinkFragment(file, link, citation, heading, place, report);
      }
    }
  }
}

/** The offsets of the code spans inside `block` whose code is a heading line (`### § key`); kept per block. */
function headingSpans(block: Nodes): ReadonlyArray<readonly [number, number]> {
  const kept = spansOf.get(block);
  if (kept) return kept;
  const spans: Array<[number, number]> = [];
  walkMarkdown(block, {
    inlineCode(code) {
      const from = code.position?.start.offset;
      const to = code.position?.end.offset;
      if (from !== undefined && to !== undefined && /^#{1,6}[ \t]/.test(code.value)) spans.push([from, to]);
    },
  });
  spansOf.set(block, spans);
  return spans;
}

/**
 * Kept per parsed file, as the citing blocks are (core/markdown/citations.ts): the language server
 * runs this gate after every edit, and only the edited document is parsed again.
 */
const spansOf = new WeakMap<Nodes, ReadonlyArray<readonly [number, number]>>();
const citedStringsOf = new WeakMap<DataFile, readonly CitedString[]>();

interface CitedString {
  string: ReturnType<typeof dataStrings>[number];
  citations: readonly ScopedCitation[];
}

/** The strings of a data file that cite a section, each with its citations. */
function citedStrings(file: DataFile): readonly CitedString[] {
  let found = citedStringsOf.get(file);
  if (!found) {
    found = dataStrings(file, (value) => value.includes('§')).map((string) => ({
      string,
      citations: scopedCitations(string.value),
    }));
    citedStringsOf.set(file, found);
  }
  return found;
}

function checkData(corpus: Corpus, file: DataFile, report: Report, external: External): void {
  for (const { string, citations } of citedStrings(file)) {
    for (const citation of citations) {
      // A data file has no sections of its own: an unqualified citation names nothing to check.
      if (citation.scope.kind !== 'document' || !judgeable(citation)) continue;
      const place = Location.pointer(file, string.path).chars(citation.start, citation.end);
      const target =
        citation.scope.via === 'link'
          ? linkedTarget(corpus, file, citation.scope.name, external)
          : namedTarget(corpus, file.path, citation.scope.name, citation, place, report, external);
      if (target)
        judge(target, citation, place, report, false, undefined, {
          file,
          path: string.path,
          value: string.value,
          start: citation.start,
          end: citation.end,
        });
    }
  }
}

/** A part of the section before it, or a family of sections (`§host.*`): no one heading to look for. */
function judgeable(citation: ScopedCitation): boolean {
  return !citation.part && !citation.value.endsWith('*');
}

/**
 * Sections whose heading carries the sign (`## §0 Closed-enum growth rule`, `### § a2a`) are
 * named corpus-wide: a bare `§0` anywhere cites that heading.
 */
const Labelled = defineService('labelled sections', (corpus) => {
  const found = new Set<string>();
  for (const file of corpus.markdownFiles()) {
    for (const heading of file.headings) {
      const label = /^§\s*([^\s(]+)/.exec(heading.text)?.[1];
      if (label) found.add(labelKey(label));
    }
  }
  return found;
});

function labelled(corpus: Corpus): Set<string> {
  return corpus.service(Labelled);
}

function labelKey(value: string): string {
  return value.replace(/`/g, '').toLowerCase();
}

type Place = Location;

/** Where a citation is written in markdown, for the fix that rewrites it to a renamed heading. */
interface Written {
  file: MarkdownFile;
  link: Link | undefined;
  start: number;
  end: number;
}

/** Where a citation is written in a JSON or YAML string: characters [start, end) of the value at `path`. */
interface WrittenInData {
  file: DataFile;
  path: PathSegment[];
  value: string;
  start: number;
  end: number;
}

function judge(
  target: Target,
  citation: ScopedCitation,
  place: Place,
  report: Report,
  linkReported = false,
  written?: Written,
  inData?: WrittenInData,
): MarkdownHeading | undefined {
  const heading = resolveCitation(target.document.headings, citation);
  if (heading) return heading;
  const numbered = citation.form === 'numbered';
  const candidates = citableNames(target.document.headings, numbered);
  // Headings are renamed by rewording more often than misspelt: the phrase nearest in words too.
  const suggestion = numbered ? closest(citation.value, candidates) : closestPhrase(citation.value, candidates);
  // A renamed heading breaks the link's anchor as well; with no heading to suggest, links/anchor's finding says it all.
  if (linkReported && !suggestion) return undefined;
  const renamed =
    suggestion && !numbered
      ? target.document.headings.find((h) => h.text.replace(/^§\s*/, '') === suggestion)
      : undefined;
  const fix =
    renamed && written
      ? renameFix(written, `§"${suggestion}"`, renamed.slug)
      : renamed && inData
        ? dataRenameFix(inData, `§"${suggestion}"`, renamed.slug, target.document)
        : undefined;
  const finding = {
    location: place,
    // A short citation (`§Callback`, `` §`memory` ``) names the heading that is or begins with its word:
    // said so, so that the words written after it are not read as part of what was looked for.
    messageId: citation.form === 'word' || citation.form === 'code' ? 'no-section-led-by' : 'no-section',
    data: { target: target.name, citation: describeCitation(citation) },
    hint: suggestion
      ? `did you mean ${numbered ? `§${suggestion}` : `§"${suggestion}"`}?${fix ? (inData ? ' (`--fix` rewrites the citation)' : ' (`--fix` rewrites the citation and its link)') : ''}`
      : 'cite a heading that exists: §"Exact heading text", or its number',
  };
  report(fix ? { ...finding, fix } : finding);
  return undefined;
}

/**
 * The citation rewritten to the heading it most likely means now, and inside a link the link's
 * fragment with it: one edit over the link, so that the two are never applied apart.
 */
function renameFix(written: Written, text: string, slug: string): Fix | undefined {
  const { file, link, start: citationStart, end: citationEnd } = written;
  if (!link) return { start: citationStart, end: citationEnd, text };
  const url = fragmentFix(file, link, slug);
  const start = link.position?.start.offset;
  const end = link.position?.end.offset;
  if (
    !url ||
    start === undefined ||
    end === undefined ||
    !(start <= citationStart && citationEnd <= url.start && url.end <= end)
  )
    return undefined;
  return {
    start,
    end,
    text:
      file.text.slice(start, citationStart) +
      text +
      file.text.slice(citationEnd, url.start) +
      url.text +
      file.text.slice(url.end, end),
  };
}

/**
 * The citation in a string rewritten to the renamed heading, as an edit of the string's own
 * characters; written as a link's text (`[a.md §"Old"](a.md#old)`), the link's fragment with it.
 */
function dataRenameFix(written: WrittenInData, text: string, slug: string, document: MarkdownFile): Fix | undefined {
  const { file, path, value, start, end } = written;
  const link = /^\]\(([^()\s]+)\)/.exec(value.slice(end));
  const url = link?.[1];
  const resolved = url === undefined ? undefined : resolveLink(file.path, url);
  if (
    url !== undefined &&
    resolved &&
    resolved.kind === 'local' &&
    resolved.target === document.path &&
    resolved.fragment !== slug
  ) {
    const linked = `${text}](${url.split('#')[0] ?? ''}#${slug}`;
    return dataStringEdit(file, path, start, end + 2 + url.length, linked);
  }
  return dataStringEdit(file, path, start, end, text);
}

/** The document a name written before a citation means; a name of no corpus document is said to be unresolvable. */
function namedTarget(
  corpus: Corpus,
  from: string,
  name: string,
  citation: ScopedCitation,
  place: Place,
  report: Report,
  external: External,
): Target | undefined {
  // A document under an `external` prefix is cited knowingly: neither checked nor reported.
  if (external.covers(name, from)) return undefined;
  const documents = documentIndex(corpus);
  const path = documents.resolve(name, from);
  const document = path ? corpus.markdown(path) : undefined;
  if (document && path) return { name: path === from ? 'this document' : path, document };
  // Two corpus documents share the name (`README.md`): which one is meant cannot be told.
  if (!name.includes('/') && documents.hasBaseName(name)) return undefined;
  report({
    location: place,
    severity: 'warning',
    messageId: 'not-in-corpus',
    data: { target: name, citation: describeCitation(citation) },
    hint: 'cite a corpus document, add the file to "include" in openwop-spec.config.json, or, for a document that lives elsewhere, list its path prefix in the rule\'s "external" option',
  });
  return undefined;
}

/** Whether a name written before a citation, or a link's target, is a document under an `external` prefix. */
interface External {
  covers(name: string, from: string): boolean;
}

/**
 * The `external` prefixes, in every form a citation names a document by: the path as written
 * (`spec/v1/replay.md`, `/spec/v1/replay.md`, `` `spec/v1/replay.md` ``), a path relative to the
 * citing file (`../../v1/replay.md`), and a bare name (`replay.md`) that is no corpus document
 * and that the corpus names elsewhere under such a prefix, or that a file citing documents under
 * one writes.
 */
function externalDocuments(corpus: Corpus, prefixes: readonly string[]): External {
  if (prefixes.length === 0) return { covers: () => false };
  const under = (path: string) => prefixes.some((prefix) => path.startsWith(prefix));
  let bare: Set<string> | undefined;
  const bareNames = (): Set<string> => {
    if (bare) return bare;
    bare = new Set();
    const written = new RegExp(
      `(?:${prefixes.map((prefix) => prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})[\\w./-]*?([\\w.-]+\\.md)\\b`,
      'g',
    );
    for (const file of corpus.all()) {
      if (file.kind === 'binary') continue;
      for (const match of file.text.matchAll(written)) bare.add(match[1] as string);
    }
    return bare;
  };
  const citing = new Map<string, boolean>();
  const citesUnder = (from: string): boolean => {
    let found = citing.get(from);
    if (found === undefined) {
      const file = corpus.get(from);
      const text = file && file.kind !== 'binary' ? file.text : '';
      found = prefixes.some((prefix) => text.includes(prefix));
      citing.set(from, found);
    }
    return found;
  };
  return {
    covers(name, from) {
      const plain = name
        .replace(/^[`"']+|[`"']+$/g, '')
        .replace(/^\.\//, '')
        .replace(/^\/+/, '');
      if (under(plain)) return true;
      if (/^\.\.?\//.test(name.replace(/^[`"']+/, '')))
        return under(posix.normalize(posix.join(posix.dirname(from), name.replace(/^[`"']+|[`"']+$/g, ''))));
      if (plain.includes('/') || documentIndex(corpus).hasBaseName(plain)) return false;
      // A bare name of no corpus document, named elsewhere under a prefix, or written in a file
      // that itself cites documents under one (speaking of that tree, it names its documents bare).
      return bareNames().has(plain) || citesUnder(from);
    },
  };
}

/** The document a link points at, when it is a corpus document (links/file reports one that is missing). */
function linkedTarget(corpus: Corpus, file: { path: string }, url: string, external: External): Target | undefined {
  const resolved = resolveLink(file.path, url);
  if (resolved.kind === 'external') return undefined;
  const path = resolved.kind === 'same-file' ? file.path : resolved.target;
  if (external.covers(path, file.path)) return undefined;
  const document = corpus.markdown(path);
  return document ? { name: path === file.path ? 'this document' : path, document } : undefined;
}

function brokenFragment(file: MarkdownFile, link: Link, target: MarkdownFile): boolean {
  const resolved = resolveLink(file.path, link.url);
  return resolved.kind !== 'external' && Boolean(resolved.fragment) && !target.anchors.has(resolved.fragment ?? '');
}

function checkLinkFragment(
  file: MarkdownFile,
  link: Link,
  citation: ScopedCitation,
  heading: MarkdownHeading,
  place: Location,
  report: Report,
): void {
  const target = resolveLink(file.path, link.url);
  if (target.kind === 'external') return;
  const fragment = target.fragment;
  if (fragment === heading.slug) return;
  const finding = {
    location: place,
    messageId: fragment ? 'link-to-other-heading' : 'link-to-document',
    data: { citation: describeCitation(citation), fragment: fragment ?? '', heading: heading.slug },
    hint: 'a section reference links to the heading it cites',
  };
  const fix = fragmentFix(file, link, heading.slug);
  report(fix ? { ...finding, fix } : finding);
}

/** Section numbers come in two kinds: arabic (`1.4`) and lettered (`B.2`, appendices). */
function numberKind(number: string): 'arabic' | 'lettered' {
  return /^\d/.test(number) ? 'arabic' : 'lettered';
}

function numberingOf(headings: readonly MarkdownHeading[]): Set<'arabic' | 'lettered'> {
  return new Set(headings.flatMap((heading) => (heading.number ? [numberKind(heading.number)] : [])));
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
