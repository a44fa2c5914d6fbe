/**
 * A resolved view of an OpenAPI 3.1 document: its operations, each with its parameters (path-item
 * and operation level merged, through `$ref`s), its responses and their headers (through `$ref`s),
 * and where each of them is written. The headers and path-manifest generators and the api/* gates
 * read this view; none of them walks `$ref`s itself.
 */
import { defineService, type Corpus, type DataFile, type Service } from '../model/index.js';
import { child, follow, isRecord, refOf, siteLocation, type Site, type SiteLocation } from './refs.js';

export const OPENAPI_PATH = 'api/v2/openapi.yaml';
export const ASYNCAPI_PATH = 'api/v2/asyncapi.yaml';
export const SEAMS_PATH = 'api/seams-v2.yaml';
export const SEAMS_PREFIX = '/conformance/seams/';

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
type HttpMethod = (typeof HTTP_METHODS)[number];
/** Methods whose operations change state; `Idempotency-Key` applies to exactly these. */
export const MUTATING_METHODS: ReadonlySet<string> = new Set(['post', 'put', 'patch', 'delete']);

/** One declaration of a header for an operation: a header parameter, or a header of a response. */
export interface HeaderDeclaration {
  /** The header name as written. */
  name: string;
  /** Where the operation (or its path item, or its response) lists it. */
  declared: Site;
  /**
   * The object that describes it: the end of its `$ref` chain, or the declaration itself when the
   * `$ref` carries a description of its own (OpenAPI 3.1 lets a reference override it).
   */
  defined: Site;
  /** The component name when `defined` is under `components.parameters` or `components.headers`. */
  component: string | undefined;
  /** The description, trimmed; undefined when absent or blank. */
  description: string | undefined;
  /** Where the defining object names the header: a parameter's `name`, or a header's key (its component's key). */
  nameAt: SiteLocation;
  /**
   * When a `$ref` declaration overrides the description, the object it references (which keeps its
   * own text): a shared component's description outranks a per-use override.
   */
  overrides?: { defined: Site; component: string | undefined; description: string | undefined; nameAt: SiteLocation };
}

export interface ParameterView extends HeaderDeclaration {
  in: string;
  required: boolean;
  value: Record<string, unknown>;
  level: 'path-item' | 'operation';
}

export interface ResponseView {
  /** `200`, `4XX`, `default`. */
  status: string;
  declared: Site;
  defined: Site;
  value: Record<string, unknown>;
  headers: HeaderDeclaration[];
}

export interface OperationView {
  file: DataFile;
  path: string;
  method: HttpMethod;
  operationId: string | undefined;
  /** `paths.<path>.<method>`. */
  site: Site;
  value: Record<string, unknown>;
  parameters: ParameterView[];
  responses: ResponseView[];
  requestBody: boolean;
  /** The security requirements in force: the operation's own, else the document's. */
  security: unknown[];
  /** Whether a credential is required: some requirement applies and none of them is the empty `{}`. */
  authenticated: boolean;
  tags: string[];
}

interface ReferenceProblem {
  site: Site;
  message: string;
}

export interface OpenApiModel {
  file: DataFile;
  operations: OperationView[];
  /** `$ref`s met while building the view that do not resolve, or loop. */
  problems: ReferenceProblem[];
}

/** The view of the OpenAPI document at each path asked for, a service per path (most corpora have one), so that what building it reads is charged to every gate that uses it. */
const OpenApiModels = new Map<string, Service<OpenApiModel | undefined>>();

/** The view of the OpenAPI document at `path`, or undefined when it is absent, unparsable or not OpenAPI. */
export function openApiModel(corpus: Corpus, path: string = OPENAPI_PATH): OpenApiModel | undefined {
  let service = OpenApiModels.get(path);
  if (!service) {
    service = defineService(`OpenAPI model of ${path}`, (model: Corpus) => {
      const file = model.data(path);
      return file && isRecord(file.value) && 'openapi' in file.value ? buildModel(model, file) : undefined;
    });
    OpenApiModels.set(path, service);
  }
  return corpus.service(service);
}

/** Header names compare case-insensitively (RFC 9110 §5.1). */
export function headerKey(name: string): string {
  return name.toLowerCase();
}

export function requestHeaders(operation: OperationView): ParameterView[] {
  return operation.parameters.filter((parameter) => parameter.in === 'header');
}

export function responseHeaders(operation: OperationView): HeaderDeclaration[] {
  return operation.responses.flatMap((response) => response.headers);
}

/** `GET /runs/{runId}` (and the operationId when it has one), for messages. */
export function describeOperation(operation: OperationView): string {
  const name = `${operation.method.toUpperCase()} ${operation.path}`;
  return operation.operationId ? `${operation.operationId} (${name})` : name;
}

function buildModel(corpus: Corpus, file: DataFile): OpenApiModel {
  const root = file.value as Record<string, unknown>;
  const problems: ReferenceProblem[] = [];
  const rootSite: Site = { file, segments: [] };
  const operations: OperationView[] = [];
  const paths = isRecord(root.paths) ? root.paths : {};
  const rootSecurity = Array.isArray(root.security) ? root.security : [];
  const headersBySite: HeadersBySite = new Map();

  const resolve = (site: Site, value: unknown) => {
    const result = follow(corpus, site, value);
    if (!result.ok) {
      problems.push({ site: result.site, message: result.message });
      return undefined;
    }
    return result.followed;
  };

  for (const [path, rawItem] of Object.entries(paths)) {
    const itemSite = child(rootSite, 'paths', path);
    const item = resolve(itemSite, rawItem);
    if (!item || !isRecord(item.value)) continue;
    const pathItem = item.value;
    const pathItemParameters = parameterList(item.site, pathItem.parameters, 'path-item', resolve);
    for (const method of HTTP_METHODS) {
      const raw = pathItem[method];
      if (!isRecord(raw)) continue;
      const site = child(item.site, method);
      const operationParameters = parameterList(site, raw.parameters, 'operation', resolve);
      // An operation-level parameter overrides a path-level one with the same name and location.
      const overridden = new Set(operationParameters.map((p) => `${p.in}:${p.in === 'header' ? headerKey(p.name) : p.name}`));
      const parameters = [...pathItemParameters.filter((p) => !overridden.has(`${p.in}:${p.in === 'header' ? headerKey(p.name) : p.name}`)), ...operationParameters];
      const security = Array.isArray(raw.security) ? raw.security : rootSecurity;
      operations.push({
        file,
        path,
        method,
        operationId: typeof raw.operationId === 'string' ? raw.operationId : undefined,
        site,
        value: raw,
        parameters,
        responses: responseList(site, raw.responses, resolve, headersBySite),
        requestBody: raw.requestBody !== undefined,
        security,
        authenticated: security.length > 0 && !security.some((requirement) => isRecord(requirement) && Object.keys(requirement).length === 0),
        tags: Array.isArray(raw.tags) ? raw.tags.filter((tag): tag is string => typeof tag === 'string') : [],
      });
    }
  }
  return { file, operations, problems };
}

type Resolve = (site: Site, value: unknown) => { site: Site; value: unknown; via: Site[] } | undefined;

function parameterList(owner: Site, list: unknown, level: ParameterView['level'], resolve: Resolve): ParameterView[] {
  if (!Array.isArray(list)) return [];
  const parameters: ParameterView[] = [];
  list.forEach((entry, index) => {
    const declared = child(owner, 'parameters', index);
    const followed = resolve(declared, entry);
    if (!followed || !isRecord(followed.value)) return;
    const value = followed.value;
    if (typeof value.name !== 'string' || typeof value.in !== 'string') return;
    const { defined, description, component, overrides } = describedBy(declared, entry, followed, 'parameters');
    const targetNameAt = siteLocation(child(followed.site, 'name'), 'value');
    // A reference that describes the header itself is where its text is; otherwise the parameter's `name`.
    const nameAt = overrides ? siteLocation(declared, 'value') : targetNameAt;
    parameters.push({
      name: value.name,
      in: value.in,
      required: value.required === true,
      value,
      level,
      declared,
      defined,
      component,
      description,
      nameAt,
      ...(overrides ? { overrides: { ...overrides, nameAt: targetNameAt } } : {}),
    });
  });
  return parameters;
}

/**
 * A response's headers depend only on the object that defines it, so a shared response (a
 * component most operations use) has its headers worked out once and its one list shared.
 */
type HeadersBySite = Map<string, HeaderDeclaration[]>;

function responseList(operation: Site, responses: unknown, resolve: Resolve, headersBySite: HeadersBySite): ResponseView[] {
  if (!isRecord(responses)) return [];
  const views: ResponseView[] = [];
  for (const [status, entry] of Object.entries(responses)) {
    const declared = child(operation, 'responses', status);
    const followed = resolve(declared, entry);
    if (!followed || !isRecord(followed.value)) continue;
    let headers = headersBySite.get(siteKey(followed.site));
    if (!headers) {
      headers = headersOfResponse(followed as { site: Site; value: Record<string, unknown> }, resolve);
      headersBySite.set(siteKey(followed.site), headers);
    }
    views.push({ status, declared, defined: followed.site, value: followed.value, headers });
  }
  return views;
}

function headersOfResponse(followed: { site: Site; value: Record<string, unknown> }, resolve: Resolve): HeaderDeclaration[] {
  const headers: HeaderDeclaration[] = [];
  if (isRecord(followed.value.headers)) {
    for (const [name, header] of Object.entries(followed.value.headers)) {
      const headerSite = child(followed.site, 'headers', name);
      const resolvedHeader = resolve(headerSite, header);
      if (!resolvedHeader || !isRecord(resolvedHeader.value)) continue;
      const { defined, description, component, overrides } = describedBy(headerSite, header, resolvedHeader, 'headers');
      headers.push({
        name,
        declared: headerSite,
        defined,
        component,
        description,
        nameAt: siteLocation(defined, 'key'),
        ...(overrides ? { overrides: { ...overrides, nameAt: siteLocation(overrides.defined, 'key') } } : {}),
      });
    }
  }
  return headers;
}

/** Which object describes a declaration, and with what text (see HeaderDeclaration.defined). */
function describedBy(declared: Site, entry: unknown, followed: { site: Site; value: unknown }, kind: 'parameters' | 'headers') {
  const segments = followed.site.segments;
  const component = segments.length === 3 && segments[0] === 'components' && segments[1] === kind ? String(segments[2]) : undefined;
  const target = { defined: followed.site, description: isRecord(followed.value) ? text(followed.value.description) : undefined, component };
  const own = refOf(entry) !== undefined && isRecord(entry) ? text(entry.description) : undefined;
  if (own === undefined) return { ...target, overrides: undefined };
  return { defined: declared, description: own, component: undefined, overrides: target };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Every declaration of one header across a document's operations, in one direction. */
export interface HeaderUsage {
  /** Lower-case name: the grouping key. */
  key: string;
  declarations: HeaderDeclaration[];
  /** The distinct operations that declare it. */
  operations: OperationView[];
}

/**
 * The headers a document declares on requests (header parameters) or on responses (response
 * headers), each with its declarations and the distinct operations declaring it.
 */
export function headerUsage(model: OpenApiModel, direction: 'request' | 'response'): HeaderUsage[] {
  const usages = new Map<string, HeaderUsage>();
  for (const operation of model.operations) {
    const declarations = direction === 'request' ? requestHeaders(operation) : responseHeaders(operation);
    for (const declaration of declarations) {
      const key = headerKey(declaration.name);
      let usage = usages.get(key);
      if (!usage) {
        usage = { key, declarations: [], operations: [] };
        usages.set(key, usage);
      }
      usage.declarations.push(declaration);
      if (!usage.operations.includes(operation)) usage.operations.push(operation);
    }
  }
  return [...usages.values()];
}

/** A stable identity for a site: file and path. */
export function siteKey(site: Site): string {
  return `${site.file.path}#${JSON.stringify(site.segments)}`;
}

/**
 * The responses of `operations` that `selected` picks and that do not declare the response header
 * `header`, each once at the place it is fixed (a shared response is one place, however many
 * operations use it), with the first operation that uses it.
 */
export function responsesWithout(operations: readonly OperationView[], header: string, selected: (response: ResponseView) => boolean = () => true): Array<{ operation: OperationView; response: ResponseView; at: Site }> {
  const key = headerKey(header);
  const seen = new Set<string>();
  const found: Array<{ operation: OperationView; response: ResponseView; at: Site }> = [];
  for (const operation of operations) {
    for (const response of operation.responses) {
      if (!selected(response) || response.headers.some((declared) => headerKey(declared.name) === key)) continue;
      const at = responseSite(response);
      if (seen.has(siteKey(at))) continue;
      seen.add(siteKey(at));
      found.push({ operation, response, at });
    }
  }
  return found;
}

/** Where a response is fixed: its component when it is a shared one, else where the operation declares it. */
export function responseSite(response: ResponseView): Site {
  return siteKey(response.defined) === siteKey(response.declared) ? response.declared : response.defined;
}
