import { describe, expect, it } from 'vitest';
import { doc, run } from '../../helpers.js';

const CODEMAP = `${JSON.stringify(
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

const openapi = (paths: string, extra = '') => `openapi: 3.1.0
info: { title: t, version: '2.0' }
${extra}paths:
${paths}components:
  securitySchemes:
    ApiKeyAuth: { type: http, scheme: bearer, bearerFormat: API key, description: the key }
`;

const asyncapi = (messages: string, address = '/runs/{runId}/events', scheme = '{ type: http, scheme: bearer, bearerFormat: API key, description: same key }') => `asyncapi: 3.0.0
info: { title: t, version: '2.0' }
servers:
  main: { host: h, protocol: https }
channels:
  runEvents:
    address: ${address}
    messages:
      runEvent: { $ref: '#/components/messages/RunEvent' }
components:
  securitySchemes:
    ApiKeyAuth: ${scheme}
  messages:
    RunEvent: { name: runEvent }
${messages}`;

const GOOD_PATHS = `  /runs/{runId}/events:
    get: { operationId: streamRunEvents, description: 'Streams the events of /runs/{runId}; see spec/v1/events.md §"GET /v1/runs/{runId}/events" for the v1 form.', responses: { '200': { description: ok } } }
`;

const line = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('api/no-v1', () => {
  it('is quiet on a v2-only API: codemap names, a frame name of three v2 words, unversioned paths, channels that are paths, one scheme definition, v1 paths said of the overlap or quoted as a v1 heading', () => {
    const files = {
      'spec/v2/event-codemap.json': CODEMAP,
      'api/v2/openapi.yaml': openapi(GOOD_PATHS),
      'api/v2/asyncapi.yaml': asyncapi('    Started: { name: run.started }\n    Snapshot: { name: state.snapshot }\n    Heartbeat: { name: heartbeat.evaluated }\n    Chunk: { name: ai.message.chunk }\n'),
      'spec/v2/core/runs.md': doc('Runs', 'A run starts with `POST /runs`. The `/v1/v1` defect is why paths carry no version; see spec/v1/runs.md.\n\nThrough the overlap a client MAY still create a run at `/v1/runs` and read it at `/runs`.'),
    };
    expect(run('api/no-v1', files)).toEqual([]);
  });

  it('fires at a v1 message name, a versioned path and address, a channel with no path, a differing scheme and /v1/ operations in prose', () => {
    const paths = `  /v2/runs:
    post: { operationId: createRun, summary: 'Replaces POST /v1/runs.', responses: { '201': { description: ok } } }
`;
    const api = openapi(paths);
    const events = asyncapi('    Resuming: { name: run.resuming }\n    Changed: { name: heartbeat.stateChanged }\n', '/v1/runs/{runId}/events', '{ type: http, scheme: basic, description: other }');
    const prose = doc('Runs', 'Clients that used `/v1/runs` move to `/runs`, as /v1/agents/{agentId} did.');
    const found = run('api/no-v1', { 'spec/v2/event-codemap.json': CODEMAP, 'api/v2/openapi.yaml': api, 'api/v2/asyncapi.yaml': events, 'spec/v2/core/runs.md': prose });
    expect(found.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`)).toEqual([
      `api/v2/asyncapi.yaml:${line(events, 'address:')}:14 channel address \`/v1/runs/{runId}/events\` carries a \`/v1\` segment; a v2 path is unversioned and the contract is selected with OpenWOP-Version`,
      `api/v2/asyncapi.yaml:${line(events, 'address:')}:14 channel runEvents is served at /v1/runs/{runId}/events, which is not a path of api/v2/openapi.yaml`,
      `api/v2/asyncapi.yaml:${line(events, 'ApiKeyAuth')}:5 security scheme \`ApiKeyAuth\` differs from the one of api/v2/openapi.yaml in bearerFormat, scheme; one credential has one definition`,
      `api/v2/asyncapi.yaml:${line(events, 'run.resuming')}:23 message name \`run.resuming\` is the v1 spelling; the v2 type is \`run.resume-started\` (spec/v2/event-codemap.json)`,
      `api/v2/asyncapi.yaml:${line(events, 'heartbeat.stateChanged')}:22 message name \`heartbeat.stateChanged\` is not a v2 event type: it does not match the codemap grammar ^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*$`,
      `api/v2/openapi.yaml:${line(api, '/v2/runs')}:3 path \`/v2/runs\` carries a \`/v2\` segment; a v2 path is unversioned and the contract is selected with OpenWOP-Version`,
      `api/v2/openapi.yaml:${line(api, 'Replaces')}:46 summary: \`/v1/runs\` names an operation by its v1 path; v2 paths are unversioned`,
      'spec/v2/core/runs.md:7:19 `/v1/runs` names an operation by its v1 path; v2 paths are unversioned',
      'spec/v2/core/runs.md:7:50 `/v1/agents/{agentId}` names an operation by its v1 path; v2 paths are unversioned',
    ]);
    expect(found.find((d) => d.message.includes('/v1/agents'))?.hint).toBe('write `/agents/{agentId}` (the v2 path) or the operationId; a v1 path belongs in the migration notes');
  });
  it('does not hold a host event to the run-event grammar: a message carried only on a channel that is not a run\'s keeps its name; on the run channel it is judged', () => {
    const hostChannel = (address: string) =>
      asyncapi('    Changed: { name: heartbeat.stateChanged }\n').replace(
        'components:\n',
        `  hostEvents:\n    address: ${address}\n    messages:\n      changed: { $ref: '#/components/messages/Changed' }\ncomponents:\n`,
      );
    const paths = `${GOOD_PATHS}  /host/events:\n    get: { operationId: streamHostEvents, responses: { '200': { description: ok } } }\n  /runs/{runId}/heartbeat:\n    get: { operationId: streamRunHeartbeat, responses: { '200': { description: ok } } }\n`;
    const files = (address: string) => ({ 'spec/v2/event-codemap.json': CODEMAP, 'api/v2/openapi.yaml': openapi(paths), 'api/v2/asyncapi.yaml': hostChannel(address) });
    expect(run('api/no-v1', files('/host/events'))).toEqual([]);
    expect(run('api/no-v1', files('/runs/{runId}/heartbeat')).map((d) => d.message.split(':')[0])).toEqual(['message name `heartbeat.stateChanged` is not a v2 event type']);
  });
});
