import {
  siteLocation,
  describeOperation,
  headerKey,
  OPENAPI_PATH,
  openApiModel,
  requestHeaders,
  responseHeaders,
  responsesWithout,
  type HeaderDeclaration,
  type OpenApiModel,
} from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';
import { isGeneratedDocument } from '../../core/markdown/index.js';
import type { Corpus, MarkdownFile } from '../../core/model/index.js';

/**
 * versioning.md §1: every operation accepts `OpenWOP-Version` (§1.2) and `OpenWOP-Client-Version`
 * (§1.5), and every response, errors and 304s included, carries `OpenWOP-Version` (§1.4).
 */
const REQUEST_HEADERS = [
  { key: 'openwop-version', name: 'OpenWOP-Version', section: '§1.2' },
  { key: 'openwop-client-version', name: 'OpenWOP-Client-Version', section: '§1.5' },
];

export default defineCheck({
  id: 'api/version-header',
  summary: 'Every operation declares OpenWOP-Version and OpenWOP-Client-Version, and every response declares OpenWOP-Version',
  severity: 'error',
  messages: {
    'request-header-missing': '{{operation}} does not declare the {{header}} request header, which every operation accepts (versioning.md {{section}})',
    'response-header-missing': 'the {{status}} response of {{operation}} does not declare the OpenWOP-Version response header; every response names the contract that produced it (versioning.md §1.4)',
  },
  run(corpus, report) {
    const model = openApiModel(corpus, OPENAPI_PATH);
    if (!model) return;
    const held = REQUEST_HEADERS.filter((header) => partOfProtocol(corpus, model, header));
    const requestHints = new Map(held.map((header) => [header.key, requestHint(model, header.name)]));
    for (const operation of model.operations) {
      const declared = new Set(requestHeaders(operation).map((header) => headerKey(header.name)));
      for (const header of held) {
        if (declared.has(header.key)) continue;
        report({
          location: siteLocation(operation.site),
          messageId: 'request-header-missing',
          data: { operation: describeOperation(operation), header: header.name, section: header.section },
          hint: requestHints.get(header.key),
        });
      }
    }
    const responseHint = hintFor(
      usedComponent(model.operations.flatMap((operation) => responseHeaders(operation)), 'OpenWOP-Version'),
      (component) => `add OpenWOP-Version: { $ref: '#/components/headers/${component}' } to its headers`,
      'declare OpenWOP-Version once under components.headers and add OpenWOP-Version: { $ref: … } to its headers',
    );
    for (const { operation, response, at } of responsesWithout(model.operations, 'OpenWOP-Version')) {
      report({
        location: siteLocation(at),
        messageId: 'response-header-missing',
        data: { operation: describeOperation(operation), status: response.status },
        hint: responseHint,
      });
    }
  },
});

/** The hint for a missing request header: a `$ref` to the component the document already uses for it. */
function requestHint(model: OpenApiModel, name: string): string {
  return hintFor(
    usedComponent(model.operations.flatMap((operation) => requestHeaders(operation)), name),
    (component) => `add $ref: '#/components/parameters/${component}' to the operation or its path item`,
    `declare the ${name} header parameter once under components.parameters and $ref it from the operation or its path item`,
  );
}

function hintFor(component: string | undefined, withComponent: (component: string) => string, without: string): string {
  return component === undefined ? without : withComponent(component);
}

/**
 * The component this document declares header `name` through, the one most declarations use: the
 * hint names what the document has, never a name it might have chosen.
 */
function usedComponent(declarations: readonly HeaderDeclaration[], name: string): string | undefined {
  const key = headerKey(name);
  const uses = new Map<string, number>();
  for (const declaration of declarations) {
    if (headerKey(declaration.name) !== key) continue;
    const component = declaration.overrides?.component ?? declaration.component;
    if (component !== undefined) uses.set(component, (uses.get(component) ?? 0) + 1);
  }
  return [...uses].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]?.[0];
}

/**
 * Whether this corpus's protocol has the header at all: an operation declares it, or hand-written
 * prose names it. A snapshot of a protocol revision before the header existed (its versioning
 * document never mentions it, no operation takes it) is not missing it everywhere; only generated
 * text (a generated document, or a generated region of one) from a later revision would say
 * otherwise, and that disagreement is generated/drift's.
 */
function partOfProtocol(corpus: Corpus, model: OpenApiModel, header: (typeof REQUEST_HEADERS)[number]): boolean {
  if (model.operations.some((operation) => requestHeaders(operation).some((declared) => headerKey(declared.name) === header.key))) return true;
  return corpus.markdownFiles().some((file) => !isGeneratedDocument(file) && handWritten(file).includes(header.name));
}

/** The text of a markdown file outside its generated regions, which say what a generator wrote there. */
function handWritten(file: MarkdownFile): string {
  if (file.regions.length === 0) return file.text;
  let text = '';
  let from = 0;
  for (const region of [...file.regions].sort((a, b) => a.contentStart - b.contentStart)) {
    text += file.text.slice(from, region.contentStart);
    from = Math.max(from, region.contentEnd);
  }
  return text + file.text.slice(from);
}
