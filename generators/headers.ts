/**
 * The request and response header tables of spec/v2/core/headers.md, from api/v2/openapi.yaml.
 * headers.md promises that a header missing from these tables is not part of the protocol, so a
 * row is never cut short and never left without a Meaning: a header whose text cannot be chosen
 * without guessing is a finding, not a row.
 *
 * A header each operation describes in its own words (a standard header such as `ETag`, whose
 * obligation differs per operation) is deliberate: upstream's generator writes one neutral row for
 * it and leaves the MUST/SHOULD on each operation. Such a row keeps the neutral Meaning the document
 * already gives it, or gets a neutral one; it is neither a finding nor drift.
 *
 * This generator never writes a row cut short or empty, but it reads the rows of upstream's earlier
 * one as the same facts: a description's first line as its Meaning, an empty cell as a neutral row.
 */
import type { Heading } from 'mdast';
import { toString } from 'mdast-util-to-string';
import {
  type SiteLocation,
  headerUsage,
  OPENAPI_PATH,
  openApiModel,
  siteKey,
  type HeaderDeclaration,
  type HeaderUsage,
} from '../core/api/index.js';
import { defineGenerator } from '../core/run/index.js';
import { compareStrings, type Report } from '../core/output/index.js';
import { rebaseLinks, renderTable } from '../core/markdown/index.js';
import { compareDocumentOrder, textTables, type MarkdownFile } from '../core/model/index.js';

export const HEADERS_DOC = 'spec/v2/core/headers.md';
const COLUMNS = ['Header', 'Operations', 'Meaning'] as const;

export default defineGenerator({
  id: 'headers',
  summary:
    'The request and response header tables of spec/v2/core/headers.md, from the header declarations of api/v2/openapi.yaml',
  inputs: [OPENAPI_PATH],
  messages: {
    'openapi-unreadable':
      '{{target}} does not parse or has no `openapi` member, so the headers tables of {{doc}} cannot be generated',
    'openapi-missing': '{{target}} does not exist, so the headers tables of {{doc}} cannot be generated',
    'no-description':
      '{{kind}} {{header}} has no description, so its Meaning in the {{direction}} headers table of {{doc}} would be empty',
    'descriptions-differ':
      '{{kind}} {{header}} is described differently here and at {{other}}, and its shared components disagree',
  },
  generate(corpus, report) {
    const doc = corpus.markdown(HEADERS_DOC);
    if (!doc) return []; // no document, no tables to fill
    const model = openApiModel(corpus);
    if (!model) {
      const region = doc.regions.find((r) => r.id.startsWith('headers/'));
      const source = corpus.get(OPENAPI_PATH);
      if (!source && !region) return [];
      report({
        ...(source
          ? { file: OPENAPI_PATH }
          : { file: HEADERS_DOC, line: region?.open.line, column: region?.open.column }),
        messageId: source ? 'openapi-unreadable' : 'openapi-missing',
        data: { target: OPENAPI_PATH, doc: HEADERS_DOC },
        hint: source
          ? 'fix the OpenAPI document; corpus/parse names the parse error, if any'
          : 'restore the OpenAPI document',
      });
      return [];
    }
    return (['request', 'response'] as const).map((direction) => {
      const undecided: string[] = [];
      const content = renderTable(
        COLUMNS,
        tableRows(headerUsage(model, direction), direction, report, undecided, writtenMeanings(doc, direction)),
      );
      return { path: HEADERS_DOC, region: `headers/${direction}`, content, undecided };
    });
  },
});

/** `undecided` receives the first cell of each row that a finding keeps out of the table. */
function tableRows(
  usages: HeaderUsage[],
  direction: 'request' | 'response',
  report: Report,
  undecided: string[],
  written: ReadonlyMap<string, string>,
): string[][] {
  const rows: Array<{ name: string; cells: string[] }> = [];
  for (const usage of usages) {
    const name = displayName(usage);
    const meaning = meaningOf(usage, name, direction, report, written.get(name));
    if (meaning === undefined) {
      undecided.push(`\`${name}\``);
      continue;
    }
    rows.push({ name, cells: [`\`${name}\``, String(usage.operations.length), meaning] });
  }
  rows.sort((a, b) => compareStrings(a.name.toLowerCase(), b.name.toLowerCase()) || compareStrings(a.name, b.name));
  return rows.map((row) => row.cells);
}

/** The shared component's spelling when there is one, else the first declaration's. */
function displayName(usage: HeaderUsage): string {
  const fromComponent = definitions(usage).find((declaration) => declaration.component !== undefined);
  return (fromComponent ?? usage.declarations[0])?.name ?? usage.key;
}

/**
 * The full description, folded to one line, links rebased onto headers.md. Several objects may
 * describe one header: when they agree, that text; when they differ, the shared component's text;
 * otherwise nothing can be chosen honestly, and the header is reported.
 */
function meaningOf(
  usage: HeaderUsage,
  name: string,
  direction: 'request' | 'response',
  report: Report,
  written: string | undefined,
): string | undefined {
  const defined = definitions(usage);
  const kind = direction === 'request' ? 'header parameter' : 'response header';
  const described = defined.filter((declaration) => declaration.description !== undefined);
  if (described.length === 0) {
    const at = (defined.find((declaration) => declaration.component !== undefined) ?? defined[0]) as HeaderDeclaration;
    report({
      ...where(at.nameAt),
      messageId: 'no-description',
      data: { header: name, kind, direction, doc: HEADERS_DOC },
      hint: `give the ${at.component ? `shared component ${at.component}` : 'declaration'} a \`description\`: full sentences saying what the header means`,
    });
    return undefined;
  }
  const texts = distinct(described);
  const components = described.filter((declaration) => declaration.component !== undefined);
  // One operation's text is not the header's where another declares it without one: a neutral row.
  if (texts.size === 1 && described.length < defined.length && components.length === 0) return written ?? NEUTRAL;
  if (texts.size === 1) return render(described[0] as HeaderDeclaration);
  if (components.length > 0 && distinct(components).size === 1) return render(components[0] as HeaderDeclaration);
  // Described per operation, with no shared definition: one neutral row, the operations keep their text.
  if (components.length === 0) return written ?? NEUTRAL;

  // Shared components that disagree: point at the first that differs from the first, naming where that one is.
  const first = components[0] as HeaderDeclaration;
  const other = components.find(
    (declaration) => fold(declaration.description) !== fold(first.description),
  ) as HeaderDeclaration;
  const firstAt = first.nameAt;
  report({
    ...where(other.nameAt),
    messageId: 'descriptions-differ',
    data: { header: name, kind, other: `${firstAt.file}:${firstAt.line}` },
    hint: `declare ${name} once under components.${direction === 'request' ? 'parameters' : 'headers'} and \`$ref\` it everywhere, or make the descriptions identical`,
  });
  return undefined;
}

const NEUTRAL = 'Described per operation: each operation that declares it states what it means there.';

/**
 * The Meaning each header's row of `direction` has in the document now: from its generated region,
 * or in a document generated whole, from the table under the heading that names the direction.
 */
function writtenMeanings(doc: MarkdownFile, direction: 'request' | 'response'): Map<string, string> {
  const region = doc.regions.find((candidate) => candidate.id === `headers/${direction}`);
  const text = region ? doc.text.slice(region.contentStart, region.contentEnd) : tableUnderHeading(doc, direction);
  const meanings = new Map<string, string>();
  const table =
    text === undefined ? undefined : textTables(text).find((candidate) => candidate.header[0] === COLUMNS[0]);
  const meaningColumn = table?.header.indexOf(COLUMNS[2]) ?? -1;
  if (!table || meaningColumn < 0) return meanings;
  for (const row of table.rows) {
    const name = /^`([^`]+)`$/.exec(row[0]?.trim() ?? '')?.[1];
    const meaning = row[meaningColumn]?.trim().replace(/\\\|/g, '|');
    // An empty Meaning says nothing: it is one of the defects the table exists to prevent (both shipped in a published upstream release),
    // so it is not kept as a header's neutral row; any written neutral sentence is.
    if (name && meaning) meanings.set(name, meaning);
  }
  return meanings;
}

/**
 * The source of the section under the first heading that names `direction`, up to the next
 * heading, read from the markdown tree: a `#` line inside a fenced block is never a heading.
 */
function tableUnderHeading(doc: MarkdownFile, direction: 'request' | 'response'): string | undefined {
  const names = new RegExp(`\\b${direction}\\b`, 'i');
  const headings = doc.tree.children.filter((node): node is Heading => node.type === 'heading');
  const index = headings.findIndex((heading) => names.test(toString(heading)));
  const from = headings[index]?.position?.end.offset;
  if (index < 0 || from === undefined) return undefined;
  const to = headings[index + 1]?.position?.start.offset;
  return doc.text.slice(from, to);
}

/**
 * One entry per distinct describing object, in document order: each declaration's, and the object
 * an overriding `$ref` points at (whose text, as a shared component, outranks the override).
 */
function definitions(usage: HeaderUsage): HeaderDeclaration[] {
  const seen = new Map<string, HeaderDeclaration>();
  for (const declaration of usage.declarations) {
    const candidates: HeaderDeclaration[] = [declaration];
    if (declaration.overrides) candidates.push({ ...declaration, ...declaration.overrides, overrides: undefined });
    for (const candidate of candidates) {
      const key = siteKey(candidate.defined);
      if (!seen.has(key)) seen.set(key, candidate);
    }
  }
  // Document order from the parsed value: comparing positions would parse the document again with positions.
  return [...seen.values()].sort(
    (a, b) =>
      compareStrings(a.defined.file.path, b.defined.file.path) ||
      compareDocumentOrder(a.defined.file.value, a.defined.segments, b.defined.segments),
  );
}

function distinct(declarations: HeaderDeclaration[]): Set<string> {
  return new Set(declarations.map((declaration) => fold(declaration.description)));
}

function fold(text: string | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** A description whole, folded to one line, its links rebased onto the headers document. */
function render(declaration: HeaderDeclaration): string {
  return fold(rebaseLinks(declaration.description ?? '', declaration.defined.file.path, HEADERS_DOC));
}

function where(location: SiteLocation) {
  return {
    file: location.file,
    line: location.line,
    column: location.column,
    endLine: location.endLine,
    endColumn: location.endColumn,
  };
}
