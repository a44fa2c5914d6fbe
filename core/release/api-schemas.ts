/**
 * Where the API descriptions of a release use schemas, and in which direction the data flows:
 * a request body or parameter is written by a client and read by a host (`request`); a
 * response body or header, and an event message, is written by a host and read by a client
 * (`response`). The semantic diff judges a schema change by the direction of what it constrains,
 * as the protocol's growth rule does: a producer may send only what is registered, a consumer
 * must accept what it does not recognize.
 */
import { isObject, type PathSegment } from '../model/index.js';
import { ASYNCAPI_PATH, HTTP_METHODS, OPENAPI_PATH } from '../api/index.js';

export type Flow = 'request' | 'response';

export interface ApiSchemaEntry {
  /** Names the entry across releases: `POST /runs request application/json`, `message runEvent payload`. */
  key: string;
  file: string;
  at: PathSegment[];
  flow: Flow;
}

/** The API documents a release's schemas are used from. */
export const API_DOCUMENTS = [OPENAPI_PATH, ASYNCAPI_PATH] as const;

export function apiSchemaEntries(file: string, document: unknown): ApiSchemaEntry[] {
  if (file === OPENAPI_PATH) return openApiEntries(document);
  if (file === ASYNCAPI_PATH) return asyncApiEntries(document);
  return [];
}

/** Follows a local `$ref` (`#/components/...`) to the object it names, with its path. */
function local(document: unknown, value: unknown, at: PathSegment[]): { value: unknown; at: PathSegment[] } {
  let current = { value, at };
  for (
    let hops = 0;
    hops < 16 &&
    isObject(current.value) &&
    typeof current.value.$ref === 'string' &&
    current.value.$ref.startsWith('#/');
    hops++
  ) {
    const segments = current.value.$ref
      .slice(2)
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~'));
    let target: unknown = document;
    for (const segment of segments)
      target = isObject(target) ? target[segment] : Array.isArray(target) ? target[Number(segment)] : undefined;
    if (target === undefined) break;
    current = { value: target, at: segments };
  }
  return current;
}

function openApiEntries(document: unknown): ApiSchemaEntry[] {
  const entries: ApiSchemaEntry[] = [];
  if (!isObject(document) || !isObject(document.paths)) return entries;
  const add = (key: string, at: PathSegment[], flow: Flow) => entries.push({ key, file: OPENAPI_PATH, at, flow });
  const content = (owner: { value: unknown; at: PathSegment[] }, key: string, flow: Flow) => {
    if (!isObject(owner.value) || !isObject(owner.value.content)) return;
    for (const [media, entry] of Object.entries(owner.value.content))
      if (isObject(entry) && entry.schema !== undefined)
        add(`${key} ${media}`, [...owner.at, 'content', media, 'schema'], flow);
  };
  for (const [route, item] of Object.entries(document.paths)) {
    if (!isObject(item)) continue;
    const shared = Array.isArray(item.parameters)
      ? item.parameters.map((_, i) => ['paths', route, 'parameters', i] as PathSegment[])
      : [];
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const at: PathSegment[] = ['paths', route, method];
      const label = `${method.toUpperCase()} ${route}`;
      const own = Array.isArray(operation.parameters)
        ? operation.parameters.map((_, i) => [...at, 'parameters', i] as PathSegment[])
        : [];
      for (const where of [...shared, ...own]) {
        const parameter = local(document, valueAt(document, where), where);
        if (isObject(parameter.value) && parameter.value.schema !== undefined)
          add(
            `${label} parameter ${String(parameter.value.in)} ${String(parameter.value.name)}`,
            [...parameter.at, 'schema'],
            'request',
          );
      }
      if (operation.requestBody !== undefined)
        content(local(document, operation.requestBody, [...at, 'requestBody']), `${label} request`, 'request');
      if (isObject(operation.responses)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const resolved = local(document, response, [...at, 'responses', status]);
          content(resolved, `${label} response ${status}`, 'response');
          if (isObject(resolved.value) && isObject(resolved.value.headers)) {
            for (const [name, header] of Object.entries(resolved.value.headers)) {
              const declared = local(document, header, [...resolved.at, 'headers', name]);
              if (isObject(declared.value) && declared.value.schema !== undefined)
                add(`${label} response ${status} header ${name.toLowerCase()}`, [...declared.at, 'schema'], 'response');
            }
          }
        }
      }
    }
  }
  return entries;
}

/** Every message payload, wherever the document declares the message; a host sends them all. */
function asyncApiEntries(document: unknown): ApiSchemaEntry[] {
  const entries: ApiSchemaEntry[] = [];
  if (!isObject(document)) return entries;
  const messages = (owner: unknown, at: PathSegment[], prefix: string) => {
    if (!isObject(owner)) return;
    for (const [name, message] of Object.entries(owner)) {
      if (isObject(message) && message.payload !== undefined)
        entries.push({
          key: `message ${prefix}${name} payload`,
          file: ASYNCAPI_PATH,
          at: [...at, name, 'payload'],
          flow: 'response',
        });
    }
  };
  if (isObject(document.components)) messages(document.components.messages, ['components', 'messages'], '');
  if (isObject(document.channels))
    for (const [name, channel] of Object.entries(document.channels))
      if (isObject(channel)) messages(channel.messages, ['channels', name, 'messages'], `${name}/`);
  return entries;
}

function valueAt(document: unknown, at: readonly PathSegment[]): unknown {
  let value = document;
  for (const segment of at)
    value = isObject(value) ? value[segment as string] : Array.isArray(value) ? value[segment as number] : undefined;
  return value;
}
