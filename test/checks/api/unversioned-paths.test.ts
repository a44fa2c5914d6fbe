import { testRule } from '../../rule-tester.js';
import { ASYNCAPI, OPENAPI, STREAMS } from './streams.js';

testRule('api/unversioned-paths', {
  valid: [
    { name: 'unversioned paths and addresses' , files: STREAMS },
    { name: 'a segment that only starts with v1 is no version', files: STREAMS, edits: [{ file: OPENAPI, find: '/host/events:', replace: '/host/v1beta/events:' }] },
  ],
  invalid: [
    {
      name: 'a versioned path, server url, channel address and server pathname',
      files: STREAMS,
      edits: [
        { file: OPENAPI, find: '/host/events:', replace: '/v2/host/events:' },
        { file: OPENAPI, find: 'paths:\n', replace: 'servers:\n  - url: https://api.example.com/v1\npaths:\n' },
        { file: ASYNCAPI, find: 'address: /host/events', replace: 'address: /v1/host/events' },
        { file: ASYNCAPI, find: 'main: { host: h, protocol: https }', replace: 'main: { host: h, protocol: https, pathname: /v2 }' },
      ],
      errors: [
        { messageId: 'versioned-path', file: ASYNCAPI, line: 6, column: 47, data: { what: 'server pathname', value: '/v2', segment: '/v2' } },
        { messageId: 'versioned-path', file: ASYNCAPI, line: 15, column: 14, data: { what: 'channel address', value: '/v1/host/events', segment: '/v1' } },
        { messageId: 'versioned-path', file: OPENAPI, line: 6, column: 10, data: { what: 'server url', value: 'https://api.example.com/v1', segment: '/v1' } },
        { messageId: 'versioned-path', file: OPENAPI, line: 13, column: 3, data: { what: 'path', value: '/v2/host/events', segment: '/v2' } },
      ],
    },
  ],
});
