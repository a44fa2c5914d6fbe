import { testRule } from '../../rule-tester.js';
import { ASYNCAPI, ASYNCAPI_TEXT, OPENAPI, OPENAPI_TEXT, STREAMS } from './streams.js';

const IDS = 'schemas/v2/ids.schema.json';
const IDS_TEXT = `${JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/schemas/v2/ids.schema.json', $defs: { runId: { type: 'string', 'x-openwop-minted': 'host' }, thingId: { type: 'string', 'x-openwop-minted': 'host' } } }, null, 2)}\n`;

const GRAMMAR = '^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*$';

/** The stream's run channel spelt with another parameter, declared (or not) as a run id. */
const runChannel = (address: string, parameters = ''): Array<{ file: string; find: string; replace: string }> => [
  { file: ASYNCAPI, find: 'address: /runs/{runId}/events', replace: `address: ${address}${parameters}` },
  { file: OPENAPI, find: '/runs/{runId}/events:', replace: `${address}:` },
  // The camelCase name now rides on the run channel too.
  { file: ASYNCAPI, find: "      chunk: { $ref: '#/components/messages/Chunk' }", replace: "      chunk: { $ref: '#/components/messages/Chunk' }\n      changed: { $ref: '#/components/messages/Changed' }" },
];

testRule('api/message-names', {
  valid: [
    { name: 'codemap types, a frame, a three-word frame name and a camelCase host event on the host channel only', files: STREAMS },
    { name: 'no codemap: nothing to judge names by', files: { [OPENAPI]: OPENAPI_TEXT, [ASYNCAPI]: ASYNCAPI_TEXT.replace('run.started', 'run.resuming') } },
    {
      name: 'a channel whose `{id}` is declared nothing is not a run\'s: its messages keep their names',
      files: STREAMS,
      edits: runChannel('/things/{id}/events'),
    },
    {
      name: 'a channel whose `{id}` is declared another kind is not a run\'s',
      files: { ...STREAMS, [IDS]: IDS_TEXT },
      edits: [
        ...runChannel('/things/{id}/events'),
        { file: OPENAPI, find: '      operationId: streamRunEvents', replace: "      operationId: streamRunEvents\n      parameters:\n        - { name: id, in: path, required: true, schema: { $ref: '../../schemas/v2/ids.schema.json#/$defs/thingId' } }" },
      ],
    },
  ],
  invalid: [
    {
      name: 'the v1 spelling of a renamed type, and a camelCase name carried on the run channel',
      files: STREAMS,
      edits: [
        { file: ASYNCAPI, find: 'Started: { name: run.started }', replace: 'Started: { name: run.resuming }' },
        { file: ASYNCAPI, find: "      chunk: { $ref: '#/components/messages/Chunk' }", replace: "      chunk: { $ref: '#/components/messages/Chunk' }\n      changed: { $ref: '#/components/messages/Changed' }" },
      ],
      errors: [
        { messageId: 'v1-message-name', file: ASYNCAPI, line: 23, column: 22, data: { name: 'run.resuming', successor: 'run.resume-started' } },
        { messageId: 'not-v2-type', file: ASYNCAPI, line: 26, column: 22, data: { name: 'heartbeat.stateChanged', grammar: GRAMMAR } },
      ],
    },
    {
      name: 'a run channel spelt `{run_id}` is a run\'s by the name of its parameter',
      files: STREAMS,
      edits: runChannel('/runs/{run_id}/events'),
      errors: [{ messageId: 'not-v2-type', file: ASYNCAPI, line: 26, column: 22, data: { name: 'heartbeat.stateChanged', grammar: GRAMMAR } }],
    },
    {
      name: 'a channel spelt `{id}` is a run\'s when the OpenAPI operation it is served at declares `id` a run id',
      files: { ...STREAMS, [IDS]: IDS_TEXT },
      edits: [
        ...runChannel('/things/{id}/events'),
        { file: OPENAPI, find: '      operationId: streamRunEvents', replace: "      operationId: streamRunEvents\n      parameters:\n        - { name: id, in: path, required: true, schema: { $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' } }" },
      ],
      errors: [{ messageId: 'not-v2-type', file: ASYNCAPI, line: 26, column: 22, data: { name: 'heartbeat.stateChanged', grammar: GRAMMAR } }],
    },
    {
      name: 'a channel spelt `{id}` is a run\'s when its own parameter declaration has a schema of the run id kind',
      files: { ...STREAMS, [IDS]: IDS_TEXT },
      edits: runChannel('/things/{id}/events', "\n    parameters:\n      id: { $ref: '#/components/parameters/Run' }").concat([
        { file: ASYNCAPI, find: 'components:\n', replace: "components:\n  parameters:\n    Run: { schema: { $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' } }\n" },
      ]),
      errors: [{ messageId: 'not-v2-type', file: ASYNCAPI, line: 30, column: 22, data: { name: 'heartbeat.stateChanged', grammar: GRAMMAR } }],
    },
  ],
});
