/** Definition, hover, references, document links and workspace symbols, answered from the sites of sites.ts against the model of the moment. */
import type { DocumentLink, Hover, Location, SymbolInformation } from 'vscode-languageserver';
import type { RootContent } from 'mdast';
import { type Corpus, Location as ModelLocation } from '../core/model/index.js';
import { resolveLink } from '../core/markdown/index.js';
import {
  CODEMAP_PATH,
  ERRORS_PATH,
  eventCodemap,
  PAYLOADS_PATH,
  readErrorsRegistry,
  requirementRecords,
  REQUIREMENTS,
} from '../core/registries/index.js';
import { openApiModel } from '../core/api/index.js';
import { rangeOf, textual } from './convert.js';
import {
  codeMeaning,
  eventMeaning,
  familyRow,
  meaningOf,
  siteAt,
  sitesMeaning,
  sitesOf,
  type Meaning,
  type WrittenSite,
} from './sites.js';

export type UriOf = (file: string) => string;

/** The identifier under `offset` (a code, an event type, a family key), for places no reader marks as a mention. */
function wordAt(text: string, offset: number): { word: string; start: number; end: number } | undefined {
  const isWord = (c: string | undefined): boolean => c !== undefined && /[\w.*-]/.test(c);
  let start = offset;
  let end = offset;
  while (start > 0 && isWord(text[start - 1])) start--;
  while (end < text.length && isWord(text[end])) end++;
  const word = text.slice(start, end).replace(/^[.-]+|[.-]+$/g, '');
  if (!word) return undefined;
  const at = text.indexOf(word, start);
  return { word, start: at, end: at + word.length };
}

/** What the position means: a site's meaning, else a registered code, event type or family written there. */
export function meaningAt(
  corpus: Corpus,
  path: string,
  offset: number,
): { meaning: Meaning; site: WrittenSite | undefined; start: number; end: number } | undefined {
  const site = siteAt(corpus, path, offset);
  const meaning = site ? meaningOf(corpus, site) : undefined;
  if (site && meaning) return { meaning, site, start: site.start, end: site.end };
  const file = textual(corpus.get(path));
  const word = file ? wordAt(file.text, offset) : undefined;
  if (!word) return undefined;
  const found =
    codeMeaning(corpus, word.word) ??
    eventMeaning(corpus, word.word) ??
    (familyRow(corpus, word.word)
      ? { kind: 'family' as const, family: word.word, key: `family:${word.word}` }
      : undefined);
  return found ? { meaning: found, site: undefined, start: word.start, end: word.end } : undefined;
}

/** Where what a meaning names is declared. */
export function declarationOf(corpus: Corpus, meaning: Meaning, uriOf: UriOf): Location | undefined {
  const at = (file: string, start: number, end = start): Location | undefined => {
    const text = textual(corpus.get(file));
    return text ? { uri: uriOf(file), range: rangeOf(text, start, end) } : undefined;
  };
  const row = (file: string, index: number): Location | undefined => {
    const data = corpus.data(file);
    if (!data) return undefined;
    const where = ModelLocation.pointer(data, ['rows', index], 'value').resolve();
    return {
      uri: uriOf(file),
      range: {
        start: { line: where.line - 1, character: where.column - 1 },
        end: { line: where.line - 1, character: where.column - 1 },
      },
    };
  };
  switch (meaning.kind) {
    case 'section': {
      const document = corpus.markdown(meaning.document);
      const heading = sitesOf(corpus, meaning.document).find(
        (site) => site.kind === 'heading' && site.heading === meaning.heading,
      );
      return document && heading
        ? at(meaning.document, heading.start, heading.end)
        : {
            uri: uriOf(meaning.document),
            range: {
              start: { line: meaning.heading.line - 1, character: 0 },
              end: { line: meaning.heading.line - 1, character: 0 },
            },
          };
    }
    case 'code':
      return meaning.row ? row(ERRORS_PATH, meaning.row.index) : undefined;
    case 'event':
      return meaning.row ? row(CODEMAP_PATH, meaning.row.index) : undefined;
    case 'family': {
      const found = familyRow(corpus, meaning.family);
      return found ? at(found.file.path, found.start) : undefined;
    }
    case 'target':
      return at(meaning.file, meaning.start, meaning.end);
  }
}

export function hoverOf(corpus: Corpus, meaning: Meaning): Hover {
  return { contents: { kind: 'markdown', value: describe(corpus, meaning) } };
}

function describe(corpus: Corpus, meaning: Meaning): string {
  switch (meaning.kind) {
    case 'section': {
      const paragraph = firstParagraph(corpus, meaning.document, meaning.heading.line);
      return `**${meaning.heading.text}** (${meaning.document})${paragraph ? `\n\n${paragraph}` : ''}`;
    }
    case 'code': {
      const row = meaning.row;
      if (!row) return `\`${meaning.code}\``;
      const lines = [
        `**\`${row.code}\`**: HTTP ${row.httpStatus}, ${row.retriable ? 'retriable' : 'not retriable'}, since ${row.since}`,
      ];
      if (row.deprecated)
        lines.push(
          `deprecated${row.deprecated.since ? ` since ${row.deprecated.since}` : ''}${row.deprecated.replacedBy ? `, replaced by \`${row.deprecated.replacedBy}\`` : ''}`,
        );
      if (row.meaning) lines.push(row.meaning);
      lines.push(`source: ${row.source}`);
      return lines.join('\n\n');
    }
    case 'event': {
      const row = meaning.row;
      if (!row) return `\`${meaning.type}\``;
      const payloads = corpus.data(PAYLOADS_PATH)?.value as { $defs?: Record<string, unknown> } | undefined;
      const payload = payloads?.$defs?.[row.payloadDef];
      const lines = [
        `**\`${meaning.type}\`** (v1: \`${row.v1}\`, v2: \`${row.v2}\`${row.v2Override ? `, emitted as \`${row.v2Override}\`` : ''}), ${row.status}`,
        `payload: \`${row.payloadDef}\``,
      ];
      if (payload !== undefined) lines.push(`\`\`\`json\n${JSON.stringify(payload, null, 2).slice(0, 1500)}\n\`\`\``);
      if (row.note) lines.push(row.note);
      return lines.join('\n\n');
    }
    case 'family': {
      const found = familyRow(corpus, meaning.family);
      const value = (
        corpus.data(found?.file.path ?? '')?.value as { families?: unknown[] } | undefined
      )?.families?.find((f) => (f as { key?: unknown }).key === meaning.family);
      return `**family \`${meaning.family}\`**\n\n\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
    }
    case 'target': {
      const file = textual(corpus.get(meaning.file));
      if (!file) return meaning.file;
      const lineStart = file.lines.lineStart(file.lines.position(meaning.start).line);
      const lineEnd = file.text.indexOf('\n', meaning.start);
      return `${meaning.file}: \`${file.text.slice(lineStart, lineEnd === -1 ? file.text.length : lineEnd).trim()}\``;
    }
  }
}

/** The first paragraph under the heading on `line`, as written. */
function firstParagraph(corpus: Corpus, document: string, line: number): string | undefined {
  const file = corpus.markdown(document);
  if (!file) return undefined;
  const children = file.tree.children;
  const at = children.findIndex((node) => node.type === 'heading' && node.position?.start.line === line);
  for (let i = at + 1; at !== -1 && i < children.length; i++) {
    const node = children[i] as RootContent;
    if (node.type === 'heading') return undefined;
    if (node.type === 'paragraph') {
      const { start, end } = node.position ?? {};
      return start?.offset !== undefined && end?.offset !== undefined
        ? file.text.slice(start.offset, end.offset)
        : undefined;
    }
  }
  return undefined;
}

/** Every place that means the same: citations of a heading, mentions of a code or event type; with the declaration when asked. */
export function referencesOf(corpus: Corpus, meaning: Meaning, includeDeclaration: boolean, uriOf: UriOf): Location[] {
  const sites = sitesMeaning(corpus, meaning.key).filter((site) => includeDeclaration || site.kind !== 'heading');
  const locations = sites.flatMap((site) => {
    const file = textual(corpus.get(site.file));
    return file ? [{ uri: uriOf(site.file), range: rangeOf(file, site.start, site.end) }] : [];
  });
  if (includeDeclaration && meaning.kind !== 'section') {
    const declared = declarationOf(corpus, meaning, uriOf);
    if (declared && !locations.some((l) => l.uri === declared.uri && l.range.start.line === declared.range.start.line))
      locations.unshift(declared);
  }
  return locations;
}

/** Links to corpus files and citations of corpus documents, each to the file (at the cited heading's line). */
export function documentLinks(corpus: Corpus, path: string, uriOf: UriOf): DocumentLink[] {
  const file = textual(corpus.get(path));
  if (!file) return [];
  const links: DocumentLink[] = [];
  const toLine = (target: string, line: number | undefined): string =>
    line === undefined ? uriOf(target) : `${uriOf(target)}#L${line}`;
  if (file.kind === 'markdown') {
    for (const link of file.links) {
      const start = link.node.position?.start.offset;
      const end = link.node.position?.end.offset;
      const resolved = resolveLink(path, link.url);
      if (
        start === undefined ||
        end === undefined ||
        resolved.kind !== 'local' ||
        resolved.escapesRoot ||
        !corpus.exists(resolved.target)
      )
        continue;
      const heading = resolved.fragment
        ? corpus.markdown(resolved.target)?.headings.find((h) => h.slug === resolved.fragment)
        : undefined;
      links.push({ range: rangeOf(file, start, end), target: toLine(resolved.target, heading?.line) });
    }
  }
  for (const site of sitesOf(corpus, path)) {
    if (site.kind !== 'citation') continue;
    const meaning = meaningOf(corpus, site);
    if (meaning?.kind === 'section' && meaning.document !== path)
      links.push({
        range: rangeOf(file, site.start, site.end),
        target: toLine(meaning.document, meaning.heading.line),
      });
  }
  return links;
}

const SYMBOL = { heading: 3, code: 14, event: 24, operation: 6, requirement: 20 } as const;

/** Headings, error codes, event types, operations and requirement ids whose name contains the query (case-insensitive). */
export function workspaceSymbols(corpus: Corpus, query: string, uriOf: UriOf, limit = 1000): SymbolInformation[] {
  const wanted = query.toLowerCase();
  const out: SymbolInformation[] = [];
  const add = (name: string, kind: number, file: string, line: number, column = 1, container?: string): void => {
    if (out.length < limit && name.toLowerCase().includes(wanted))
      out.push({
        name,
        kind: kind as SymbolInformation['kind'],
        location: {
          uri: uriOf(file),
          range: { start: { line: line - 1, character: column - 1 }, end: { line: line - 1, character: column - 1 } },
        },
        ...(container ? { containerName: container } : {}),
      });
  };
  for (const file of corpus.markdownFiles())
    for (const heading of file.headings)
      add(heading.text, SYMBOL.heading, file.path, heading.line, heading.column, file.path);
  const errors = readErrorsRegistry(corpus);
  if (errors.state === 'valid') {
    for (const row of errors.registry.rows) {
      const where = ModelLocation.pointer(errors.registry.file, ['rows', row.index], 'value').resolve();
      add(row.code, SYMBOL.code, ERRORS_PATH, where.line, where.column, `HTTP ${row.httpStatus}`);
    }
  }
  const codemap = eventCodemap(corpus);
  for (const row of codemap?.rows ?? []) {
    const where = ModelLocation.pointer(
      codemap?.file as NonNullable<typeof codemap>['file'],
      ['rows', row.index],
      'value',
    ).resolve();
    add(row.v2Override ?? row.v2, SYMBOL.event, CODEMAP_PATH, where.line, where.column, `v1 ${row.v1}`);
  }
  for (const operation of openApiModel(corpus)?.operations ?? []) {
    const where = ModelLocation.pointer(operation.file, operation.site.segments, 'key').resolve();
    add(
      operation.operationId ?? `${operation.method.toUpperCase()} ${operation.path}`,
      SYMBOL.operation,
      operation.file.path,
      where.line,
      where.column,
      `${operation.method.toUpperCase()} ${operation.path}`,
    );
  }
  const requirements = corpus.data(REQUIREMENTS);
  for (const record of requirementRecords(requirements) ?? []) {
    const where = ModelLocation.pointer(
      requirements as NonNullable<typeof requirements>,
      record.path,
      'value',
    ).resolve();
    add(record.id, SYMBOL.requirement, REQUIREMENTS, where.line, where.column);
  }
  return out;
}
