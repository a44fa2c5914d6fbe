import { testRule } from '../../rule-tester.js';
import { ASYNCAPI, OPENAPI, STREAMS } from './streams.js';

testRule('api/channels-served', {
  valid: [
    { name: 'every channel address is an OpenAPI path', files: STREAMS },
    {
      name: 'an address under its server\'s pathname is the path with that prefix',
      files: STREAMS,
      edits: [
        { file: ASYNCAPI, find: 'main: { host: h, protocol: https }', replace: 'main: { host: h, protocol: https, pathname: /api }' },
        { file: OPENAPI, find: '  /runs/{runId}/events:', replace: '  /api/runs/{runId}/events:' },
        { file: OPENAPI, find: '  /host/events:', replace: '  /api/host/events:' },
      ],
    },
  ],
  invalid: [
    {
      name: 'a channel whose address no OpenAPI operation serves',
      files: STREAMS,
      edits: [{ file: ASYNCAPI, find: 'address: /host/events', replace: 'address: /host/stream' }],
      errors: [{ messageId: 'channel-not-served', file: ASYNCAPI, line: 15, column: 14, data: { channel: 'hostEvents', target: OPENAPI, served: '/host/stream' } }],
    },
  ],
});
