/**
 * What is written where, for navigation: every section citation (markdown and JSON/YAML strings),
 * link fragment, heading, `$ref`, error code and event type mention, read with the same readers the
 * gates use. Each file's sites are kept per parse (a WeakMap on the model's file object), so after
 * an edit only the edited file is read again; what a site points at is resolved when asked, against
 * the model of the moment.
 */
import type { InlineCode, Link } from 'mdast';
import {
  type Corpus,
  type CorpusFile,
  type DataFile,
  type MarkdownFile,
  dataStrings,
  defineService,
  documentIndex,
  Location,
  type PathSegment,
} from '../core/model/index.js';
import {
  blockCitations,
  citingBlocks,
  linkScope,
  parseMarkdown,
  resolveCitation,
  resolveLink,
  scopedCitations,
  type MarkdownHeading,
  type SectionCitation,
  walkMarkdown,
} from '../core/markdown/index.js';
import { collectRefs, resolveRef, type Site } from '../core/api/index.js';
import {
  declarationFamilies,
  DECLARATION_PATH,
  eventCodemap,
  eventNameMentions,
  markdownCodeMentions,
  readErrorsRegistry,
  yamlCodeMentions,
  type CodemapRow,
  type ErrorRow,
} from '../core/registries/index.js';

/** Where a site sits in a string of a JSON or YAML file, for edits that keep the string's quoting. */
interface InString {
  path: PathSegment[];
  /** Characters [start, end) of the string's value. */
  start: number;
  end: number;
  /** The whole value. */
  value: string;
}

type SiteKind =
  | { kind: 'heading'; heading: MarkdownHeading }
  | { kind: 'citation'; citation: SectionCitation; document: string | undefined; link: string | undefined }
  | { kind: 'fragment'; url: string; target: string; fragment: string }
  | { kind: 'file'; url: string; target: string }
  | { kind: 'ref'; ref: string; from: Site }
  | { kind: 'code'; code: string }
  | {
      kind: 'event';
      type: string;
      /** The codemap row's v1 name: the name it had, which a rename keeps. */ v1?: boolean;
    }
  | { kind: 'family'; family: string };

/** One thing written in a file: offsets [start, end) of the model's text (LF line ends). */
export type WrittenSite = SiteKind & { file: string; start: number; end: number; inString?: InString };

/** What a site means: a section of a document, a registry entry, a place a `$ref` reaches. */
export type Meaning =
  | { kind: 'section'; document: string; heading: MarkdownHeading; key: string }
  | { kind: 'code'; code: string; row: ErrorRow | undefined; key: string }
  | { kind: 'event'; type: string; row: CodemapRow | undefined; key: string }
  | { kind: 'family'; family: string; key: string }
  | { kind: 'target'; file: string; start: number; end: number; key: string };

const perFile = new WeakMap<CorpusFile, WrittenSite[]>();

/** Shaped like a registered code and unlike a word of prose: lowercase words joined by at least one `_`. */
const CODE_LIKE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$/;

/** Shaped like an event type: lowercase kebab-case words joined by dots (`run.started`, `node.suspend-failed`). */
const EVENT_LIKE = /^[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+$/;

/** The sites written in one file, read once per parse. Event type mentions are added by `eventSites`, which the registries read corpus-wide. */
function fileSites(file: CorpusFile): WrittenSite[] {
  let sites = perFile.get(file);
  if (!sites) {
    sites =
      file.kind === 'markdown'
        ? markdownSites(file)
        : (file.kind === 'json' || file.kind === 'yaml') && file.problems.length === 0
          ? dataSites(file)
          : [];
    sites.sort((a, b) => a.start - b.start || b.end - a.end);
    perFile.set(file, sites);
  }
  return sites;
}

function markdownSites(file: MarkdownFile): WrittenSite[] {
  const sites: WrittenSite[] = [];
  for (const heading of file.headings) {
    const lineStart = file.lines.lineStart(heading.line);
    const lineEnd = file.text.indexOf('\n', lineStart);
    const line = file.text.slice(lineStart, lineEnd === -1 ? file.text.length : lineEnd);
    const marker = /^ {0,3}#{1,6}[ \t]+/.exec(line);
    if (!marker) continue;
    const body = line
      .slice(marker[0].length)
      .replace(/[ \t]+#+[ \t]*$/, '')
      .trimEnd();
    sites.push({
      kind: 'heading',
      heading,
      file: file.path,
      start: lineStart + marker[0].length,
      end: lineStart + marker[0].length + body.length,
    });
  }
  const links = file.links.filter((link) => link.kind === 'link').map((link) => link.node as Link);
  for (const block of citingBlocks(file.tree, file.text)) {
    const { start, label } = block;
    for (const citation of blockCitations(block)) {
      if (citation.start === label || citation.part || citation.value.endsWith('*')) continue;
      const at = start + citation.start;
      const link = links.find(
        (candidate) =>
          (candidate.position?.start.offset ?? Infinity) <= at && at < (candidate.position?.end.offset ?? -1),
      );
      const scope = link && citation.scope.kind !== 'external' ? linkScope(link.url) : citation.scope;
      if (scope.kind === 'external') continue;
      const document = scope.kind === 'unqualified' ? file.path : scope.name;
      sites.push({
        kind: 'citation',
        citation,
        document,
        link: scope.kind === 'document' && scope.via === 'link' ? scope.name : undefined,
        file: file.path,
        start: at,
        end: start + citation.end,
      });
    }
  }
  for (const link of file.links) {
    if (link.kind === 'image') continue;
    const start = link.node.position?.start.offset;
    const end = link.node.position?.end.offset;
    if (start === undefined || end === undefined) continue;
    const fragment = fragmentSite(file.path, link.url, file.text.slice(start, end), start);
    if (fragment) sites.push({ ...fragment, file: file.path });
    else {
      // A link to a file of the repository without a fragment: the link's URL goes to the file.
      const resolved = resolveLink(file.path, link.url);
      const at = file.text.slice(start, end).lastIndexOf(link.url);
      if (resolved.kind === 'local' && !resolved.escapesRoot && at !== -1 && link.url !== '')
        sites.push({
          kind: 'file',
          url: link.url,
          target: resolved.target,
          file: file.path,
          start: start + at,
          end: start + at + link.url.length,
        });
    }
  }
  const mentioned = new Set<number>();
  for (const mention of markdownCodeMentions(file)) {
    mentioned.add(mention.start);
    sites.push({ kind: 'code', code: mention.code, file: file.path, start: mention.start, end: mention.end });
  }
  // A code span that is a code-shaped word, wherever it stands (the mention readers know the forms the gates judge).
  // A code span shaped like an event type: what it means is looked up when asked (a type the codemap does not have means nothing).
  walkMarkdown(file.tree, {
    inlineCode: (node: InlineCode) => {
      const start = node.position?.start.offset;
      const end = node.position?.end.offset;
      const code = CODE_LIKE.test(node.value);
      if (start === undefined || end === undefined || (!code && !EVENT_LIKE.test(node.value))) return;
      const at = file.text.indexOf(node.value, start);
      if (at === -1 || at >= end || mentioned.has(at)) return;
      sites.push(
        code
          ? { kind: 'code', code: node.value, file: file.path, start: at, end: at + node.value.length }
          : { kind: 'event', type: node.value, file: file.path, start: at, end: at + node.value.length },
      );
    },
  });
  return sites;
}

/** The `#fragment` of a link to a corpus document, as a site over the fragment's characters in `source` (which starts at `offset`). */
function fragmentSite(
  from: string,
  url: string,
  source: string,
  offset: number,
): (SiteKind & { start: number; end: number }) | undefined {
  const resolved = resolveLink(from, url);
  if (resolved.kind === 'external' || !resolved.fragment) return undefined;
  const at = source.lastIndexOf(url);
  const hash = url.indexOf('#');
  if (at === -1 || hash === -1) return undefined;
  return {
    kind: 'fragment',
    url,
    target: resolved.kind === 'same-file' ? from : resolved.target,
    fragment: resolved.fragment,
    start: offset + at + hash + 1,
    end: offset + at + url.length,
  };
}

/** The model's offsets of characters [start, end) of the string value at `path` (through its quotes, escapes and folds). */
function stringPlace(file: DataFile, path: PathSegment[], start: number, end: number): { start: number; end: number } {
  const offsetOf = (line: number, column: number): number => file.lines.lineStart(line) + column - 1;
  const where = Location.pointer(file, path).chars(start, end).resolve();
  const from = offsetOf(where.line, where.column);
  const to =
    where.endLine !== undefined && where.endColumn !== undefined
      ? offsetOf(where.endLine, where.endColumn)
      : from + (end - start);
  return { start: from, end: Math.max(from, to) };
}

function dataSites(file: DataFile): WrittenSite[] {
  const sites: WrittenSite[] = [];
  const offsetOf = (line: number, column: number): number => file.lines.lineStart(line) + column - 1;
  const place = (path: PathSegment[], start: number, end: number): { start: number; end: number } =>
    stringPlace(file, path, start, end);
  const hasCitation = file.text.includes('§');
  const hasLink = file.text.includes('](');
  if (hasCitation || hasLink) {
    for (const string of dataStrings(
      file,
      (value) => (hasCitation && value.includes('§')) || (hasLink && value.includes('](')),
    )) {
      for (const citation of scopedCitations(string.value)) {
        if (citation.scope.kind !== 'document' || citation.part || citation.value.endsWith('*')) continue;
        const inString = { path: string.path, start: citation.start, end: citation.end, value: string.value };
        sites.push({
          kind: 'citation',
          citation,
          document: citation.scope.name,
          link: citation.scope.via === 'link' ? citation.scope.name : undefined,
          file: file.path,
          ...place(string.path, citation.start, citation.end),
          inString,
        });
      }
      if (!string.value.includes('](')) continue;
      for (const link of parseMarkdown(string.value).links) {
        const start = link.node.position?.start.offset;
        const end = link.node.position?.end.offset;
        if (start === undefined || end === undefined || link.kind === 'image') continue;
        const fragment = fragmentSite(file.path, link.url, string.value.slice(start, end), start);
        if (fragment)
          sites.push({
            ...fragment,
            file: file.path,
            ...place(string.path, fragment.start, fragment.end),
            inString: { path: string.path, start: fragment.start, end: fragment.end, value: string.value },
          });
      }
    }
  }
  if (file.text.includes('$ref')) {
    for (const { site, ref } of collectRefs(file)) {
      const where = Location.pointer(file, [...site.segments, '$ref'], 'value').resolve();
      const start = offsetOf(where.line, where.column);
      const end =
        where.endLine !== undefined && where.endColumn !== undefined
          ? offsetOf(where.endLine, where.endColumn)
          : start + ref.length;
      sites.push({ kind: 'ref', ref, from: site, file: file.path, start, end });
    }
  }
  const mentioned = new Set<number>();
  if (file.kind === 'yaml') {
    for (const mention of yamlCodeMentions(file)) {
      mentioned.add(mention.start);
      sites.push({ kind: 'code', code: mention.code, file: file.path, start: mention.start, end: mention.end });
    }
  }
  // A string that is a code-shaped word (an enum member, a registry row's code, an example's `code`), or shaped like an event type (an enum of types, an example's `type`).
  for (const string of dataStrings(file, (value) => CODE_LIKE.test(value) || EVENT_LIKE.test(value))) {
    const where = place(string.path, 0, string.value.length);
    const inString = { path: string.path, start: 0, end: string.value.length, value: string.value };
    if (mentioned.has(where.start)) continue;
    sites.push(
      CODE_LIKE.test(string.value)
        ? { kind: 'code', code: string.value, file: file.path, ...where, inString }
        : { kind: 'event', type: string.value, file: file.path, ...where, inString },
    );
  }
  return sites;
}

/** Event type mentions, per file: the registries read them corpus-wide (once per model; the run has usually read them already). */
function eventSites(corpus: Corpus): Map<string, WrittenSite[]> {
  return corpus.service(EventSites);
}

/** Event type mentions by file, as sites (built once per model). */
const EventSites = defineService('event sites', (corpus: Corpus): Map<string, WrittenSite[]> => {
  const found = new Map<string, WrittenSite[]>();
  for (const mention of eventNameMentions(corpus)) {
    const file = corpus.get(mention.file);
    if (!file || file.kind === 'binary') continue;
    const lineStart = file.lines.lineStart(mention.line);
    const guess = lineStart + mention.column - 1;
    // The mention is located at its first character, or for a JSON/YAML value at its opening quote.
    const at = file.text.startsWith(mention.name, guess) ? guess : file.text.indexOf(mention.name, guess);
    if (at === -1) continue;
    const list = found.get(mention.file) ?? [];
    list.push({
      kind: 'event',
      type: mention.renamedTo ?? mention.name,
      file: mention.file,
      start: at,
      end: at + mention.name.length,
    });
    found.set(mention.file, list);
  }
  const codemap = eventCodemap(corpus);
  if (codemap) {
    for (const row of codemap.rows) {
      for (const member of ['v1', 'v2'] as const) {
        const where = Location.pointer(codemap.file, ['rows', row.index, member], 'value').resolve();
        const start = codemap.file.lines.lineStart(where.line) + where.column - 1;
        const list = found.get(codemap.file.path) ?? [];
        list.push({
          kind: 'event',
          type: row.v2Override ?? row.v2,
          ...(member === 'v1' ? { v1: true } : {}),
          file: codemap.file.path,
          start: start + 1,
          end: start + 1 + row[member].length,
        });
        found.set(codemap.file.path, list);
      }
    }
  }
  return found;
});

/** Every site of a file, events included, in order. */
export function sitesOf(corpus: Corpus, path: string): WrittenSite[] {
  const file = corpus.get(path);
  if (!file) return [];
  const events = eventSites(corpus).get(path);
  const own = fileSites(file);
  if (!events) return own;
  // A code span the registries' readers also read as a mention is one site, theirs.
  const read = new Set(events.map((site) => site.start));
  return [...own.filter((site) => site.kind !== 'event' || !read.has(site.start)), ...events].sort(
    (a, b) => a.start - b.start || b.end - a.end,
  );
}

/** The innermost site under `offset` (a position at a site's end counts, as an editor's cursor right after a word). */
export function siteAt(corpus: Corpus, path: string, offset: number): WrittenSite | undefined {
  let best: WrittenSite | undefined;
  for (const site of sitesOf(corpus, path)) {
    if (site.start <= offset && offset <= site.end && (!best || site.end - site.start < best.end - best.start))
      best = site;
  }
  return best;
}

/** What a site means against the model, or undefined when it names nothing the corpus has. */
export function meaningOf(corpus: Corpus, site: WrittenSite): Meaning | undefined {
  switch (site.kind) {
    case 'heading':
      return section(site.file, site.heading);
    case 'citation': {
      const document =
        site.document === undefined
          ? undefined
          : site.link !== undefined
            ? linked(site.file, site.link)
            : site.document === site.file
              ? site.file
              : documentIndex(corpus).resolve(site.document, site.file);
      const target = document ? corpus.markdown(document) : undefined;
      const heading = target ? resolveCitation(target.headings, site.citation) : undefined;
      return target && heading ? section(target.path, heading) : undefined;
    }
    case 'fragment': {
      const target = corpus.markdown(site.target);
      const heading = target?.headings.find((h) => h.slug === site.fragment);
      return target && heading ? section(target.path, heading) : undefined;
    }
    case 'file':
      return corpus.get(site.target)
        ? { kind: 'target', file: site.target, start: 0, end: 0, key: `file:${site.target}` }
        : undefined;
    case 'code':
      return codeMeaning(corpus, site.code);
    case 'event':
      return eventMeaning(corpus, site.type);
    case 'family':
      return familyRow(corpus, site.family)
        ? { kind: 'family', family: site.family, key: `family:${site.family}` }
        : undefined;
    case 'ref': {
      const result = resolveRef(corpus, site.from, site.ref);
      if (!result.ok) return undefined;
      const file = result.site.file;
      const where = Location.pointer(file, result.site.segments, 'key').resolve();
      const start = file.lines.lineStart(where.line) + where.column - 1;
      return {
        kind: 'target',
        file: file.path,
        start,
        end: start,
        key: `ref:${file.path}#${result.site.segments.join('/')}`,
      };
    }
  }
}

function linked(from: string, url: string): string | undefined {
  const resolved = resolveLink(from, url);
  return resolved.kind === 'external' ? undefined : resolved.kind === 'same-file' ? from : resolved.target;
}

function section(document: string, heading: MarkdownHeading): Meaning {
  return { kind: 'section', document, heading, key: `section:${document}#${heading.slug}` };
}

export function codeMeaning(corpus: Corpus, code: string): Meaning | undefined {
  const read = readErrorsRegistry(corpus);
  const row = read.state === 'valid' ? read.registry.rows.find((r) => r.code === code) : undefined;
  return row ? { kind: 'code', code, row, key: `code:${code}` } : undefined;
}

export function eventMeaning(corpus: Corpus, type: string): Meaning | undefined {
  const row = eventCodemap(corpus)?.rows.find((r) => (r.v2Override ?? r.v2) === type || r.v1 === type || r.v2 === type);
  return row
    ? { kind: 'event', type: row.v2Override ?? row.v2, row, key: `event:${row.v2Override ?? row.v2}` }
    : undefined;
}

/** A family key of the declaration registry written at `word`, with where its row is. */
export function familyRow(corpus: Corpus, word: string): { file: DataFile; start: number; end: number } | undefined {
  const family = declarationFamilies(corpus)?.find((f) => f.key === word);
  const file = corpus.data(DECLARATION_PATH);
  if (!family || !file) return undefined;
  const where = Location.pointer(file, ['families', family.index], 'value').resolve();
  const start = file.lines.lineStart(where.line) + where.column - 1;
  return { file, start, end: start };
}

/** Every site in the corpus that means `key`. */
export function sitesMeaning(corpus: Corpus, key: string): WrittenSite[] {
  const found: WrittenSite[] = [];
  const kind = key.slice(0, key.indexOf(':'));
  if (kind === 'family') return familySites(corpus, key.slice(key.indexOf(':') + 1));
  for (const file of corpus.files.keys()) {
    for (const site of sitesOf(corpus, file)) {
      if (!sameKind(site.kind, kind)) continue;
      if (meaningOf(corpus, site)?.key === key) found.push(site);
    }
  }
  return found;
}

function sameKind(site: WrittenSite['kind'], meaning: string): boolean {
  if (meaning === 'section') return site === 'heading' || site === 'citation' || site === 'fragment';
  if (meaning === 'ref') return site === 'ref';
  if (meaning === 'file') return site === 'file';
  return site === meaning;
}

/** A string member that names a family by its key: the declaration's own `key`, and lists of families (`families`, `family`). */
const FAMILY_MEMBERS = new Set(['key', 'family', 'families']);

/**
 * Where a family of the declaration registry is mentioned: a code span of prose that is its key
 * or one of its facets (`aiEnvelope`, `aiEnvelope.await`, the Normative home line), the same
 * in backticks inside a JSON or YAML string, and a string that is the key where the registries
 * list families. Read when asked (a family is looked up rarely), against the model of the moment.
 */
function familySites(corpus: Corpus, family: string): WrittenSite[] {
  if (!declarationFamilies(corpus)?.some((f) => f.key === family)) return [];
  const found: WrittenSite[] = [];
  const named = (code: string): boolean => code === family || (code.startsWith(`${family}.`) && /^[\w.]+$/.test(code));
  for (const file of corpus.markdownFiles()) {
    if (!file.text.includes(family)) continue;
    walkMarkdown(file.tree, {
      inlineCode: (node: InlineCode) => {
        const start = node.position?.start.offset;
        const end = node.position?.end.offset;
        if (start === undefined || end === undefined || !named(node.value)) return;
        const at = file.text.indexOf(node.value, start);
        if (at !== -1 && at < end)
          found.push({ kind: 'family', family, file: file.path, start: at, end: at + family.length });
      },
    });
  }
  const escaped = family.replace(/[.*+?^$()|[\]{}\\]/g, '\\$&');
  const quoted = new RegExp(`\`${escaped}(?:\\.[\\w.]+)?\``, 'g');
  for (const file of corpus.dataFiles()) {
    if (!file.text.includes(family)) continue;
    for (const string of dataStrings(file, (value) => value.includes(family))) {
      const inString = (start: number, end: number): WrittenSite => ({
        kind: 'family',
        family,
        file: file.path,
        ...stringPlace(file, string.path, start, end),
        inString: { path: string.path, start, end, value: string.value },
      });
      if (string.value === family && string.key !== undefined && FAMILY_MEMBERS.has(string.key))
        found.push(inString(0, family.length));
      else
        for (const match of string.value.matchAll(quoted))
          found.push(inString((match.index ?? 0) + 1, (match.index ?? 0) + 1 + family.length));
    }
  }
  return found;
}
