/**
 * The semantic model of a release: what a consumer can depend on, read through the shared corpus
 * views (error codes, event types, operations and their headers, channels, schemas, requirement
 * ids). `diff` compares two of these; it never compares registries as text.
 */
import {
  asyncApiChannels,
  ASYNCAPI_PATH,
  describeOperation,
  headerKey,
  OPENAPI_PATH,
  openApiModel,
  requestHeaders,
  responseHeaders,
} from '../api/index.js';
import type { Corpus, PathSegment } from '../model/index.js';
import {
  ERRORS_PATH,
  readErrorsRegistry,
  CODEMAP_PATH,
  decidedRows,
  effectiveType,
  eventCodemap,
} from '../registries/index.js';
import { isObject } from '../model/index.js';
import { isSchemaPath } from '../schemas/index.js';

export const REQUIREMENTS_PATH = 'conformance/requirements.json';
const REQUIREMENT_ALIASES_PATH = 'conformance/requirement-aliases.json';

/** A registry the model reads: absent, present but unreadable (compared as a file), or read. */
export type View<T> = { state: 'absent' } | { state: 'unreadable' } | { state: 'read'; entries: Map<string, T> };

interface ErrorEntry {
  httpStatus: number;
  retriable: boolean;
  deprecated: boolean;
  at: PathSegment[];
}

interface EventEntry {
  type: string;
  v1: string;
  /** The `$defs` entry of the payload schema that holds its payload. */
  payloadDef: string;
  at: PathSegment[];
}

export interface OperationEntry {
  label: string;
  /** Lower-case name -> the header as written and whether a request must carry it. */
  requestHeaders: Map<string, { name: string; required: boolean }>;
  responseHeaders: Map<string, { name: string }>;
  /** Query, path and cookie parameters by `in name`, and whether a request must carry each. */
  parameters: Map<string, { name: string; in: string; required: boolean }>;
  /** Whether a request must carry a body; undefined when the operation takes none. */
  bodyRequired: boolean | undefined;
  at: PathSegment[];
}

interface ChannelEntry {
  address: string | undefined;
  at: PathSegment[];
}

export interface ReleaseModel {
  errors: View<ErrorEntry>;
  /** Keyed by v2 type. */
  events: View<EventEntry>;
  /** Keyed by `METHOD /path`. */
  operations: View<OperationEntry>;
  channels: View<ChannelEntry>;
  requirements: View<{ at: PathSegment[] }>;
  /** Old requirement id -> the id that replaces it. */
  requirementAliases: Map<string, string>;
  /** Schema path -> parsed schema. */
  schemas: Map<string, unknown>;
}

/** The files whose meaning the model reads; a change to one is reported through the model. */
export const MODELLED_FILES = [
  ERRORS_PATH,
  CODEMAP_PATH,
  OPENAPI_PATH,
  ASYNCAPI_PATH,
  REQUIREMENTS_PATH,
  REQUIREMENT_ALIASES_PATH,
] as const;

export function releaseModel(corpus: Corpus): ReleaseModel {
  return {
    errors: errorsView(corpus),
    events: eventsView(corpus),
    operations: operationsView(corpus),
    channels: channelsView(corpus),
    requirements: requirementsView(corpus),
    requirementAliases: aliasesOf(corpus),
    schemas: new Map(
      corpus
        .dataFiles()
        .filter((file) => isSchemaPath(file.path))
        .map((file) => [file.path, file.value]),
    ),
  };
}

function absentOrUnreadable<T>(corpus: Corpus, file: string): View<T> {
  return corpus.get(file) ? { state: 'unreadable' } : { state: 'absent' };
}

function errorsView(corpus: Corpus): View<ErrorEntry> {
  const read = readErrorsRegistry(corpus);
  if (read.state !== 'valid') return read.state === 'absent' ? { state: 'absent' } : { state: 'unreadable' };
  const entries = new Map<string, ErrorEntry>();
  for (const row of read.registry.rows) {
    entries.set(row.code, {
      httpStatus: row.httpStatus,
      retriable: row.retriable,
      deprecated: row.deprecated !== undefined,
      at: ['rows', row.index, 'code'],
    });
  }
  return { state: 'read', entries };
}

function eventsView(corpus: Corpus): View<EventEntry> {
  const codemap = eventCodemap(corpus);
  if (!codemap) return absentOrUnreadable(corpus, CODEMAP_PATH);
  const entries = new Map<string, EventEntry>();
  for (const row of decidedRows(codemap)) {
    const type = effectiveType(row);
    if (!entries.has(type))
      entries.set(type, { type, v1: row.v1, payloadDef: row.payloadDef, at: ['rows', row.index] });
  }
  return { state: 'read', entries };
}

function operationsView(corpus: Corpus): View<OperationEntry> {
  const model = openApiModel(corpus);
  if (!model) return absentOrUnreadable(corpus, OPENAPI_PATH);
  const entries = new Map<string, OperationEntry>();
  for (const operation of model.operations) {
    const request = new Map<string, { name: string; required: boolean }>();
    for (const header of requestHeaders(operation))
      request.set(headerKey(header.name), { name: header.name, required: header.required });
    const response = new Map<string, { name: string }>();
    for (const header of responseHeaders(operation)) response.set(headerKey(header.name), { name: header.name });
    const parameters = new Map<string, { name: string; in: string; required: boolean }>();
    for (const parameter of operation.parameters)
      if (parameter.in !== 'header')
        parameters.set(`${parameter.in} ${parameter.name}`, {
          name: parameter.name,
          in: parameter.in,
          required: parameter.required,
        });
    const body = operation.value.requestBody;
    const bodyRequired = operation.requestBody ? isObject(body) && body.required === true : undefined;
    entries.set(`${operation.method.toUpperCase()} ${operation.path}`, {
      label: describeOperation(operation),
      requestHeaders: request,
      responseHeaders: response,
      parameters,
      bodyRequired,
      at: operation.site.segments,
    });
  }
  return { state: 'read', entries };
}

function channelsView(corpus: Corpus): View<ChannelEntry> {
  const channels = asyncApiChannels(corpus);
  if (!channels) return absentOrUnreadable(corpus, ASYNCAPI_PATH);
  return {
    state: 'read',
    entries: new Map(
      channels.map((channel) => [channel.name, { address: channel.address, at: channel.site.segments }]),
    ),
  };
}

function requirementsView(corpus: Corpus): View<{ at: PathSegment[] }> {
  const value = corpus.data(REQUIREMENTS_PATH)?.value;
  if (!isObject(value) || !Array.isArray(value.records)) return absentOrUnreadable(corpus, REQUIREMENTS_PATH);
  const entries = new Map<string, { at: PathSegment[] }>();
  value.records.forEach((record, index) => {
    if (isObject(record) && typeof record.id === 'string') entries.set(record.id, { at: ['records', index, 'id'] });
  });
  return { state: 'read', entries };
}

function aliasesOf(corpus: Corpus): Map<string, string> {
  const value = corpus.data(REQUIREMENT_ALIASES_PATH)?.value;
  const aliases = isObject(value) && isObject(value.aliases) ? value.aliases : {};
  return new Map(Object.entries(aliases).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
