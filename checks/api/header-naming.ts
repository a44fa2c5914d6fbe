import { follow, isRecord, siteLocation, type Site, type SiteLocation, OPENWOP_HEADER, removedHeader, standardHeader, headerUsage, openApiModel } from '../../core/api/index.js';
import type { Corpus, DataFile, PathSegment } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report, Finding } from '../../core/output/index.js';
import { mentionIndex, nearMiss } from '../../core/registries/index.js';
import { inlineCodes } from '../../core/markdown/index.js';
import { toString } from 'mdast-util-to-string';

/**
 * Every header an API document declares is a standard header under its standard name or
 * `OpenWOP-<Name>`, and none is a name v2 removed. "Declares" is read widely: header parameters and
 * response headers anywhere in the document, referenced or not, components included, and the
 * headers of AsyncAPI messages.
 */
export default defineCheck({
  id: 'api/header-naming',
  summary: 'Every declared header is a standard HTTP header or OpenWOP-<Name>, and none is a name removed in v2 (X-Dedup, Capabilities-Etag, ...); v2 prose spells a header as the OpenAPI document declares it',
  description:
    'Header names match without regard to case on the wire, so a code span of v2 prose whose letters are a header the OpenAPI document declares is read as that header, and is held to its declared spelling; a sentence that speaks of v1, which spelt some headers otherwise, quotes the old one. A header removed in v2 (`X-Dedup`) named in v2 text is a finding, except where its sentence or section speaks of v1 or of names removed, renamed or replaced.',
  severity: 'error',
  messages: {
    removed: 'header {{header}} was removed in v2 ({{listed}} is in the removed-in-v2 list of headers.md) and must not be declared',
    'standard-spelling': 'standard header {{header}} is spelled {{standard}} by its standard',
    'openwop-spelling': 'header {{header}} is not spelled OpenWOP-<Name>: the prefix is OpenWOP and each word is capitalized',
    'unknown-header': 'header {{header}} is neither a standard HTTP header nor named OpenWOP-<Name>',
    'component-key-standard-spelling': 'components.headers key {{header}} is not a header name (standard header {{header}} is spelled {{standard}} by its standard); a shared response header is keyed by the header it describes',
    'component-key-openwop-spelling': 'components.headers key {{header}} is not a header name (it is not spelled OpenWOP-<Name>: the prefix is OpenWOP and each word is capitalized); a shared response header is keyed by the header it describes',
    'component-key-unknown-header': 'components.headers key {{header}} is not a header name (it is neither a standard HTTP header nor named OpenWOP-<Name>); a shared response header is keyed by the header it describes',
    'declared-spelling': 'header {{header}} is spelled {{declared}} where {{document}} declares it',
    'undeclared-near-miss': 'header {{header}} is declared by no operation of {{document}}; did you mean {{suggestion}}?',
    'removed-mention': 'header {{header}} was removed in v2 ({{listed}} is in the removed-in-v2 list of headers.md); v2 text names the header that replaced it',
  },
  run(corpus, report) {
    for (const file of corpus.dataFiles()) {
      if (!file.path.startsWith('api/') || !isRecord(file.value)) continue;
      const kind = 'openapi' in file.value ? 'openapi' : 'asyncapi' in file.value ? 'asyncapi' : undefined;
      if (!kind) continue;
      for (const { name, at, componentKey } of declaredHeaders(corpus, file, kind)) {
        // OpenAPI names a shared header where it is used (`OpenWOP-Version: {$ref: '#/components/headers/OpenWOPVersion'}`),
        // and that name is judged there; the component's key is then only a key, as upstream writes it.
        if (componentKey && referencedComponent(file, name)) continue;
        const problem = namingProblem(name);
        if (!problem) continue;
        // A component key nothing refers to is the only name of its header, and is judged as one.
        report({ ...at, ...problem, ...(componentKey && problem.messageId !== 'removed' ? { messageId: `component-key-${problem.messageId}` } : {}) });
      }
    }
    checkProseSpelling(corpus, report);
  },
});

/**
 * A header named in v2 prose or in a description of a v2 document (a code span,
 * `OpenWOP-Idempotent-Replay` or `OpenWOP-Idempotent-Replay: true`)
 * whose letters are a header the OpenAPI document declares, in another case: header names match
 * case-insensitively on the wire, so the text is read as that header and should spell it so. A
 * sentence that speaks of v1, which spelt some of them otherwise, quotes the old spelling.
 */
function checkProseSpelling(corpus: Corpus, report: Report): void {
  const model = openApiModel(corpus);
  if (!model) return;
  const declared = new Map<string, string>();
  for (const direction of ['request', 'response'] as const) {
    for (const usage of headerUsage(model, direction)) {
      const name = usage.declarations.find((declaration) => declaration.component !== undefined)?.name ?? usage.declarations[0]?.name;
      if (name && /-/.test(name)) declared.set(name.toLowerCase(), name);
    }
  }
  const judge = (written: string, place: () => { file: string; line: number; column: number; endLine?: number; endColumn?: number }): void => {
    const name = declared.get(written.toLowerCase());
    // An OpenWOP-<Name> no operation declares that nearly spells one that is declared.
    const near = name === undefined && OPENWOP_HEADER.test(written) && !removedHeader(written) ? nearMiss(written, declared.values(), '-', false) : undefined;
    if (name && name !== written) report({ ...place(), messageId: 'declared-spelling', data: { header: written, declared: name, document: model.file.path }, hint: `write ${name}` });
    else if (!name && near) report({ ...place(), messageId: 'undeclared-near-miss', data: { header: written, suggestion: near, document: model.file.path }, hint: `write ${near}, or declare ${written} in ${model.file.path}` });
  };
  let listed: Map<string, { name: string; instead: string }> | undefined;
  const listedRemoved = () => (listed ??= removedInCorpus(corpus));
  // The mention index holds every header name written in a code span of v2 prose and of the strings of v2 documents.
  for (const mention of mentionIndex(corpus).headers) {
    if (mention.readsAsV1()) continue;
    const place = () => ({ file: mention.file, ...mention.place() });
    // A removed family (`X-openwop-*`) also spells schema annotation keys (`x-openwop-retriable`); only a name removed whole is read as a header.
    const removed = declared.has(mention.written.toLowerCase()) ? undefined : (removedHeader(mention.written) ?? listedRemoved().get(mention.written.toLowerCase()));
    if (removed?.name.includes('*')) continue;
    // A removed name used as if it were still a header; where the text says it was removed or renamed, it is history.
    if (removed) {
      if (!mention.speaksOfOldNames()) report({ ...place(), messageId: 'removed-mention', data: { header: mention.written, listed: removed.name }, hint: `write ${removed.instead}` });
      continue;
    }
    judge(mention.written, place);
  }
}

/** A header name in a code span, no wildcard: `X-Dedup`, not `X-openwop-*`. */
const HEADER_NAME = /^[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+$/;

/**
 * The header names the corpus itself lists as removed: the code spans of a section headed
 * "Removed …" in its headers document (a v2 document titled Headers), each by its lower case.
 */
function removedInCorpus(corpus: Corpus): Map<string, { name: string; instead: string }> {
  const found = new Map<string, { name: string; instead: string }>();
  for (const file of corpus.markdownFiles()) {
    const [title] = file.tree.children;
    if (!file.path.includes('v2/') || title?.type !== 'heading' || !/^headers$/i.test(toString(title).trim())) continue;
    // The offsets each section headed "Removed …" spans, to its next heading.
    const sections: Array<[number, number]> = [];
    for (const block of file.tree.children) {
      if (block.type !== 'heading') continue;
      const at = block.position?.start.offset ?? 0;
      const open = sections[sections.length - 1];
      if (open && open[1] === Infinity) open[1] = at;
      if (/\bremoved\b/i.test(toString(block))) sections.push([at, Infinity]);
    }
    if (sections.length === 0) continue;
    for (const code of inlineCodes(file.tree)) {
      const at = code.position?.start.offset ?? -1;
      // A standard header or a well-spelled OpenWOP-<Name> there is what replaced a removed one.
      const replacement = standardHeader(code.value) !== undefined || OPENWOP_HEADER.test(code.value);
      if (HEADER_NAME.test(code.value) && !replacement && sections.some(([from, to]) => at > from && at < to))
        found.set(code.value.toLowerCase(), { name: code.value, instead: `the header that replaced it (${file.path} lists ${code.value} as removed)` });
    }
  }
  return found;
}

function namingProblem(name: string): (Pick<Finding, 'data' | 'hint'> & { messageId: string; severity?: 'warning' }) | undefined {
  const removed = removedHeader(name);
  if (removed) {
    return {
      messageId: 'removed',
      data: { header: name, listed: removed.name },
      hint: `use ${removed.instead}`,
    };
  }
  const standard = standardHeader(name);
  if (standard) {
    if (standard === name) return undefined;
    return { severity: 'warning', messageId: 'standard-spelling', data: { header: name, standard }, hint: `write ${standard}` };
  }
  if (OPENWOP_HEADER.test(name)) return undefined;
  const suggestion = `OpenWOP-${name.replace(/^(x|openwop)-/i, '').split('-').map(capitalize).join('-')}`;
  if (/^openwop-/i.test(name)) {
    return { messageId: 'openwop-spelling', data: { header: name }, hint: `write ${suggestion}` };
  }
  return {
    messageId: 'unknown-header',
    data: { header: name },
    hint: /^x-/i.test(name) ? `X- names are not used in v2; rename it ${suggestion}` : `rename it ${suggestion}, or use the standard header that carries this meaning`,
  };
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** Values under these keys are data or schemas, never header declarations. */
const NOT_DECLARATIONS = new Set(['schema', 'schemas', 'example', 'examples', 'default', 'enum', 'const', 'payload']);

interface Declared {
  name: string;
  at: SiteLocation;
  /** A key of components.headers, which by convention is the name of the header it describes. */
  componentKey?: boolean;
}

function declaredHeaders(corpus: Corpus, file: DataFile, kind: 'openapi' | 'asyncapi'): Declared[] {
  const found: Declared[] = [];
  const walk = (value: unknown, segments: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => walk(item, [...segments, index]));
      return;
    }
    if (!isRecord(value)) return;
    if (kind === 'openapi' && value.in === 'header' && typeof value.name === 'string') {
      found.push({ name: value.name, at: siteLocation({ file, segments: [...segments, 'name'] }, 'value') });
    }
    for (const [key, item] of Object.entries(value)) {
      if (NOT_DECLARATIONS.has(key) || key.startsWith('x-')) continue;
      if (key === 'headers' && isRecord(item)) {
        const site: Site = { file, segments: [...segments, key] };
        if (kind === 'openapi') {
          // A response's headers map, or components.headers (whose keys are, by convention, the header names).
          const componentKey = segments.length === 1 && segments[0] === 'components';
          for (const name of Object.keys(item)) found.push({ name, at: siteLocation({ file, segments: [...site.segments, name] }, 'key'), componentKey });
        } else {
          found.push(...messageHeaders(corpus, site, item));
        }
      }
      walk(item, [...segments, key]);
    }
  };
  walk(file.value, []);
  return found;
}

/** An AsyncAPI message's `headers` is a schema (or a multi-format schema); its properties are the headers. */
function messageHeaders(corpus: Corpus, site: Site, value: unknown): Declared[] {
  const result = follow(corpus, site, value);
  if (!result.ok || !isRecord(result.followed.value)) return [];
  let schemaSite = result.followed.site;
  let schema = result.followed.value;
  if (isRecord(schema.schema) && typeof schema.schemaFormat === 'string') {
    const inner = follow(corpus, { file: schemaSite.file, segments: [...schemaSite.segments, 'schema'] }, schema.schema);
    if (!inner.ok || !isRecord(inner.followed.value)) return [];
    schemaSite = inner.followed.site;
    schema = inner.followed.value;
  }
  if (!isRecord(schema.properties)) return [];
  return Object.keys(schema.properties).map((name) => ({ name, at: siteLocation({ file: schemaSite.file, segments: [...schemaSite.segments, 'properties', name] }, 'key') }));
}

/** Whether some `$ref` of the document points at components.headers.<key>. */
function referencedComponent(file: DataFile, key: string): boolean {
  const escaped = key.replace(/~/g, '~0').replace(/\//g, '~1').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`#/components/headers/${escaped}(?=['"\\s,}]|$)`, 'm').test(file.text);
}
