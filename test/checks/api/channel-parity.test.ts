import { testRule } from '../../rule-tester.js';
import { api, ASYNCAPI, asyncapi, HOST_EVENTS_PATH, OPENAPI, openapi } from './helpers.js';

const RUN = { channel: 'runEvents', operationId: 'streamRunEvents' };
const HOST = { channel: 'hostEvents', operationId: 'streamHostEvents' };
const DOCUMENTS = { asyncapi: ASYNCAPI, openapi: OPENAPI };
const RUN_CHANNEL = /  runEvents:\n(?: {4}.*\n)+/;

testRule('api/channel-parity', {
  valid: [
    { name: 'runEvents and hostEvents resolve to the paths of streamRunEvents and streamHostEvents', base: 'api/good' },
    { name: 'a server path on both sides: the absolute paths agree', ...api([asyncapi('    protocol: https', '    protocol: https\n    pathname: /v2'), openapi("  - url: 'https://{host}'", "  - url: 'https://{host}/v2'")]) },
    { name: 'neither hostEvents nor streamHostEvents: the host stream is optional', ...api([asyncapi('  hostEvents:\n    address: /host/events\n', ''), openapi(HOST_EVENTS_PATH, '')]) },
  ],
  invalid: [
    {
      name: 'the runEvents address and the streamRunEvents path differ: at the address',
      ...api([asyncapi("address: '/runs/{runId}/events'", "address: '/runs/{runId}/stream'")]),
      errors: [{ messageId: 'paths-differ', file: ASYNCAPI, line: 11, column: 14, data: { ...RUN, channelPath: '/runs/{runId}/stream', operationPath: '/runs/{runId}/events', operationAt: `${OPENAPI}:102` } }],
    },
    {
      name: 'a server path on one side only: both streams resolve to other absolute paths',
      ...api([asyncapi('    protocol: https', '    protocol: https\n    pathname: /v2')]),
      errors: [
        { messageId: 'paths-differ', file: ASYNCAPI, line: 12, column: 14, data: { ...RUN, channelPath: '/v2/runs/{runId}/events', operationPath: '/runs/{runId}/events', operationAt: `${OPENAPI}:102` } },
        { messageId: 'paths-differ', file: ASYNCAPI, line: 23, column: 14, data: { ...HOST, channelPath: '/v2/host/events', operationPath: '/host/events', operationAt: `${OPENAPI}:124` } },
      ],
    },
    {
      name: 'a hostEvents channel without a streamHostEvents operation: at the paths of the OpenAPI document',
      ...api([openapi(HOST_EVENTS_PATH, '')]),
      errors: [{ messageId: 'no-operation', file: OPENAPI, line: 13, column: 1, data: { ...HOST, address: '/host/events', ...DOCUMENTS } }],
    },
    {
      name: 'a hostEvents channel without an address nor a streamHostEvents operation',
      ...api([openapi(HOST_EVENTS_PATH, ''), asyncapi('  hostEvents:\n    address: /host/events\n', '  hostEvents:\n    description: The host stream.\n')]),
      errors: [{ messageId: 'no-operation-nor-address', file: OPENAPI, line: 13, column: 1, data: { ...HOST, ...DOCUMENTS } }],
    },
    {
      name: 'a streamRunEvents operation without a runEvents channel: at the channels of the AsyncAPI document',
      ...api([asyncapi(RUN_CHANNEL, ''), asyncapi(/operations:\n(?:.*\n)+/, '')]),
      errors: [{ messageId: 'no-channel', file: ASYNCAPI, line: 9, column: 1, data: { ...RUN, path: '/runs/{runId}/events', ...DOCUMENTS } }],
    },
    {
      name: 'neither the runEvents channel nor the streamRunEvents operation, which every corpus has',
      ...api([asyncapi(RUN_CHANNEL, ''), asyncapi(/operations:\n(?:.*\n)+/, ''), openapi(/  \/runs\/\{runId\}\/events:\n(?: {4}.*\n)+/, '')]),
      errors: [{ messageId: 'no-channel-nor-operation', file: ASYNCAPI, line: 9, column: 1, data: { ...RUN, ...DOCUMENTS } }],
    },
    {
      name: 'no AsyncAPI document: at each operation that serves a stream',
      ...api([], { [ASYNCAPI]: null }),
      errors: [
        { messageId: 'no-asyncapi', file: OPENAPI, line: 107, column: 5, data: { ...RUN, path: '/runs/{runId}/events', ...DOCUMENTS } },
        { messageId: 'no-asyncapi', file: OPENAPI, line: 128, column: 5, data: { ...HOST, path: '/host/events', ...DOCUMENTS } },
      ],
    },
    {
      name: 'a runEvents channel without an address: at the channel',
      ...api([asyncapi("    address: '/runs/{runId}/events'\n", '')]),
      errors: [{ messageId: 'no-address', file: ASYNCAPI, line: 10, column: 3, data: { ...RUN, operationPath: '/runs/{runId}/events', operationAt: `${OPENAPI}:102` } }],
    },
  ],
});
