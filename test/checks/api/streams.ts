/**
 * A small API with an event stream, for the rules that read the OpenAPI and AsyncAPI documents
 * together (api/message-names, api/unversioned-paths, api/channels-served, api/shared-schemes):
 * the files a case adds over the `good` base corpus.
 */
export const OPENAPI = 'api/v2/openapi.yaml';
export const ASYNCAPI = 'api/v2/asyncapi.yaml';
export const CODEMAP = 'spec/v2/event-codemap.json';

export const CODEMAP_TEXT = `${JSON.stringify(
  {
    grammar: '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*$',
    frames: ['state.snapshot'],
    rows: [
      { v1: 'run.started', v2: 'run.started', payloadDef: 'runStarted', status: 'decided' },
      { v1: 'run.resuming', v2: 'run.resume-started', payloadDef: 'runResumeStarted', status: 'decided' },
    ],
  },
  null,
  2,
)}\n`;

/** The OpenAPI document: the run stream's path, and the host stream's. */
export const OPENAPI_TEXT = `openapi: 3.1.0
info:
  title: Fixture
  version: 2.0.0
paths:
  /runs/{runId}/events:
    get:
      operationId: streamRunEvents
      responses:
        '200': { description: ok }
  /host/events:
    get:
      operationId: streamHostEvents
      responses:
        '200': { description: ok }
components:
  securitySchemes:
    ApiKeyAuth: { type: http, scheme: bearer, bearerFormat: API key, description: the key }
`;

/** The AsyncAPI document: a run channel and a host channel, each with its messages. */
export const ASYNCAPI_TEXT = `asyncapi: 3.0.0
info:
  title: Fixture
  version: 2.0.0
servers:
  main: { host: h, protocol: https }
channels:
  runEvents:
    address: /runs/{runId}/events
    messages:
      started: { $ref: '#/components/messages/Started' }
      snapshot: { $ref: '#/components/messages/Snapshot' }
      chunk: { $ref: '#/components/messages/Chunk' }
  hostEvents:
    address: /host/events
    messages:
      changed: { $ref: '#/components/messages/Changed' }
components:
  securitySchemes:
    ApiKeyAuth: { type: http, scheme: bearer, bearerFormat: API key, description: 'the same key, worded for streams' }
  messages:
    Started: { name: run.started }
    Snapshot: { name: state.snapshot }
    Chunk: { name: ai.message.chunk }
    Changed: { name: heartbeat.stateChanged }
`;

/** The three files a case of these rules starts from. */
export const STREAMS: Readonly<Record<string, string>> = { [OPENAPI]: OPENAPI_TEXT, [ASYNCAPI]: ASYNCAPI_TEXT, [CODEMAP]: CODEMAP_TEXT };
