import { child, isRecord, refOf, resolveRef, siteLocation, type Site,describeOperation,headerKey,openApiModel,responseSite,siteKey,type OperationView,type ResponseView } from '../../core/api/index.js';
import type { Corpus } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { ERRORS_PATH, readErrorsRegistry, vendorCodeRule } from '../../core/registries/index.js';
import { resolveLink } from '../../core/markdown/index.js';
import { expectedSchemaId } from '../../core/schemas/index.js';

/** The extension an error response lists the codes it can carry in. */
const ERROR_CODES_EXTENSION = 'x-openwop-error-codes';
const ERROR_ENVELOPE_PATH = 'schemas/v2/error-envelope.schema.json';

interface RegisteredCodes {
  /** code -> its registered HTTP status. */
  status: ReadonlyMap<string, number>;
  isVendorCode(code: string): boolean;
}

/** The registered codes, or undefined while the registry is absent or invalid (errors/registry says why). */
function registeredCodes(corpus: Corpus): RegisteredCodes | undefined {
  const read = readErrorsRegistry(corpus);
  if (read.state !== 'valid') return undefined;
  const rule = vendorCodeRule(corpus, read.registry);
  const vendor = rule.pattern === undefined ? undefined : new RegExp(rule.pattern, 'u');
  return { status: new Map(read.registry.rows.map((row) => [row.code, row.httpStatus])), isVendorCode: (code) => vendor?.test(code) === true };
}

/**
 * errors.md §"The envelope": every 4xx and 5xx body is the error envelope, and every code an
 * operation documents (in `x-openwop-error-codes` or in an example's `error`) is registered, under
 * the status it is documented with. With it, the challenge rules of security-defaults.md: a
 * protected operation documents its 401 with `WWW-Authenticate`; a (non-disclosing) 404 never has one.
 */
export default defineCheck({
  id: 'api/error-responses',
  summary: 'Every 4xx/5xx response body is the error envelope, every documented error code is registered under that status, 401s challenge and 404s do not',
  severity: 'error',
  messages: {
    'no-body': '{{response}} has no body; every error response body is the error envelope',
    'not-envelope': 'the {{mediaType}} body of {{response}} is not the error envelope: {{reason}}',
    'codes-not-a-list': '{{extension}} of the {{status}} response is not a list of error codes',
    'unregistered-code': 'error code {{code}} is documented here but is not registered in {{registry}} (nor a vendor code of a registered org)',
    'status-differs': 'error code {{code}} is registered with status {{registered}} but documented under {{documented}}',
    'no-401': '{{operation}} requires a credential but documents no 401 response',
    'no-challenge': 'the 401 response of {{operation}} declares no WWW-Authenticate challenge',
    'no-challenge-shared': 'the 401 response of {{operation}} and {{others}} declares no WWW-Authenticate challenge',
    'challenge-on-404': 'the 404 response of {{operation}} declares WWW-Authenticate; a non-disclosure 404 never carries a challenge',
  },
  run(corpus, report) {
    const codes = registeredCodes(corpus);
    for (const file of corpus.dataFiles()) {
      if (!file.path.startsWith('api/') || !isRecord(file.value) || !('openapi' in file.value)) continue;
      const model = openApiModel(corpus, file.path);
      if (!model) continue;
      const done = new Set<string>();
      const unchallenged = new Map<string, { at: Site; operations: OperationView[] }>();
      for (const operation of model.operations) {
        checkChallenge(operation, report, unchallenged);
        for (const response of operation.responses) {
          if (!isError(response.status)) continue;
          const at = responseSite(response);
          if (done.has(siteKey(at))) continue;
          done.add(siteKey(at));
          checkBody(corpus, operation, response, at, report);
          checkCodeList(response, report);
          if (codes) checkCodes(corpus, response, codes, report);
        }
      }
      reportUnchallenged(unchallenged, report);
    }
  },
});

/** A 401 shared by many operations lacks its challenge once, where it is defined: one defect, one finding. */
function reportUnchallenged(unchallenged: ReadonlyMap<string, { at: Site; operations: OperationView[] }>, report: Report): void {
  for (const { at, operations } of unchallenged.values()) {
    const [first] = operations;
    if (!first) continue;
    const hint = 'declare the shared WWW-Authenticate response header on it';
    const others = operations.length - 1;
    if (others === 0) report({ location: siteLocation(at), messageId: 'no-challenge', data: { operation: describeOperation(first) }, hint });
    else report({ location: siteLocation(at), messageId: 'no-challenge-shared', data: { operation: describeOperation(first), others: `${others} other operation${others === 1 ? '' : 's'}`, sharedBy: operations.length }, hint });
  }
}

function isError(status: string): boolean {
  return /^[45](\d\d|XX)$/.test(status) || status === 'default';
}

function checkBody(corpus: Corpus, operation: OperationView, response: ResponseView, at: Site, report: Report): void {
  const content = response.value.content;
  const what = `the ${response.status} response of ${describeOperation(operation)}`;
  if (!isRecord(content) || Object.keys(content).length === 0) {
    report({ location: siteLocation(at), messageId: 'no-body', data: { response: what }, hint: envelopeHint(at) });
    return;
  }
  for (const [mediaType, media] of Object.entries(content)) {
    const mediaSite = child(response.defined, 'content', mediaType);
    const schema = isRecord(media) ? media.schema : undefined;
    const verdict = schema === undefined ? 'it declares no schema' : envelopeVerdict(corpus, child(mediaSite, 'schema'), schema);
    if (verdict === undefined) continue;
    report({ location: siteLocation(schema === undefined ? mediaSite : child(mediaSite, 'schema')), messageId: 'not-envelope', data: { response: what, mediaType, reason: verdict }, hint: envelopeHint(at) });
  }
}

function envelopeHint(at: Site): string {
  const depth = at.file.path.split('/').length - 1;
  return `set its schema to $ref: '${'../'.repeat(depth)}${ERROR_ENVELOPE_PATH}' (directly or through a components.schemas entry)`;
}

/** undefined when the schema is (a chain of references to) the envelope; otherwise why not. */
function envelopeVerdict(corpus: Corpus, site: Site, schema: unknown): string | undefined {
  let currentSite = site;
  let current = schema;
  for (let hops = 0; hops < 32; hops++) {
    const ref = refOf(current);
    if (ref === undefined) return 'it is an inline schema';
    // Naming the envelope is enough: whether the file exists yet is api/valid's concern.
    if (namesEnvelope(corpus, currentSite, ref)) return undefined;
    const result = resolveRef(corpus, currentSite, ref);
    if (!result.ok) return `its $ref does not resolve (${result.message})`;
    // A reference that lands on the envelope document itself, by whatever URL, is the envelope.
    if (result.site.file.path === ERROR_ENVELOPE_PATH && result.site.segments.length === 0) return undefined;
    currentSite = result.site;
    current = result.value;
  }
  return 'its $ref chain does not end';
}

function namesEnvelope(corpus: Corpus, site: Site, ref: string): boolean {
  // By its $id, which the layout's $id base for its folder gives (upstream's is .../spec/v2/, not .../schemas/v2/).
  if (ref === expectedSchemaId(ERROR_ENVELOPE_PATH, corpus.config.layout.schemaIds)) return true;
  if (ref.startsWith('#')) return false;
  const target = resolveLink(site.file.path, ref);
  return target.kind === 'local' && target.target === ERROR_ENVELOPE_PATH && (target.fragment === undefined || target.fragment === '');
}

function checkCodeList(response: ResponseView, report: Report): void {
  const listed = response.value[ERROR_CODES_EXTENSION];
  if (listed === undefined || (Array.isArray(listed) && listed.every((code) => typeof code === 'string'))) return;
  report({
    location: siteLocation(child(response.defined, ERROR_CODES_EXTENSION)),
    messageId: 'codes-not-a-list',
    data: { status: response.status, extension: ERROR_CODES_EXTENSION },
    hint: `write it as a list: ${ERROR_CODES_EXTENSION}: [not_found]`,
  });
}

function checkCodes(corpus: Corpus, response: ResponseView, codes: RegisteredCodes, report: Report): void {
  for (const { code, site } of documentedCodes(corpus, response)) {
    const status = codes.status.get(code);
    if (status === undefined) {
      if (codes.isVendorCode(code)) continue;
      report({ location: siteLocation(site, 'value'), messageId: 'unregistered-code', data: { code: String(code), registry: ERRORS_PATH }, hint: 'register it, or use the registered code that names this state' });
      continue;
    }
    if (response.status === 'default' || statusMatches(response.status, status)) continue;
    report({ location: siteLocation(site, 'value'), messageId: 'status-differs', data: { code: String(code), registered: status, documented: response.status }, hint: `document it under ${status}; a host answers with the registered status` });
  }
}

function statusMatches(documented: string, registered: number): boolean {
  return documented.endsWith('XX') ? documented[0] === String(registered)[0] : Number(documented) === registered;
}

/** The codes a response lists in x-openwop-error-codes and in the `error` of its examples. */
function documentedCodes(corpus: Corpus, response: ResponseView): Array<{ code: string; site: Site }> {
  const found: Array<{ code: string; site: Site }> = [];
  const listed = response.value[ERROR_CODES_EXTENSION];
  if (Array.isArray(listed)) listed.forEach((code, index) => typeof code === 'string' && found.push({ code, site: child(response.defined, ERROR_CODES_EXTENSION, index) }));
  const content = isRecord(response.value.content) ? response.value.content : {};
  for (const [mediaType, media] of Object.entries(content)) {
    if (!isRecord(media)) continue;
    const mediaSite = child(response.defined, 'content', mediaType);
    if (isRecord(media.example) && typeof media.example.error === 'string') found.push({ code: media.example.error, site: child(mediaSite, 'example', 'error') });
    if (!isRecord(media.examples)) continue;
    for (const [name, example] of Object.entries(media.examples)) {
      let exampleSite = child(mediaSite, 'examples', name);
      let value: unknown = example;
      const ref = refOf(example);
      if (ref !== undefined) {
        const result = resolveRef(corpus, exampleSite, ref);
        if (!result.ok) continue;
        exampleSite = result.site;
        value = result.value;
      }
      if (isRecord(value) && isRecord(value.value) && typeof value.value.error === 'string') found.push({ code: value.value.error, site: child(exampleSite, 'value', 'error') });
    }
  }
  return found;
}

function checkChallenge(operation: OperationView, report: Report, unchallenged: Map<string, { at: Site; operations: OperationView[] }>): void {
  const unauthorized = operation.responses.find((response) => response.status === '401');
  if (operation.authenticated) {
    if (!unauthorized) {
      report({
        location: siteLocation(operation.site),
        messageId: 'no-401',
        data: { operation: describeOperation(operation) },
        hint: "add '401': { $ref: '#/components/responses/Unauthorized' }, whose WWW-Authenticate header carries the Bearer challenge",
      });
    } else if (!hasHeader(unauthorized, 'www-authenticate')) {
      const at = responseSite(unauthorized);
      const entry = unchallenged.get(siteKey(at)) ?? { at, operations: [] };
      entry.operations.push(operation);
      unchallenged.set(siteKey(at), entry);
    }
  }
  const notFound = operation.responses.find((response) => response.status === '404');
  if (notFound && hasHeader(notFound, 'www-authenticate')) {
    const header = notFound.headers.find((h) => headerKey(h.name) === 'www-authenticate');
    report({
      location: siteLocation(header ? header.declared : responseSite(notFound)),
      messageId: 'challenge-on-404',
      data: { operation: describeOperation(operation) },
      hint: 'remove the header from the 404 response',
    });
  }
}

function hasHeader(response: ResponseView, key: string): boolean {
  return response.headers.some((header) => headerKey(header.name) === key);
}
