import { testRule } from '../../rule-tester.js';
import { ASYNCAPI, OPENAPI, STREAMS } from './streams.js';

testRule('api/shared-schemes', {
  valid: [
    { name: 'one scheme, defined alike but for its description', files: STREAMS },
    { name: 'a scheme only one document defines', files: STREAMS, edits: [{ file: ASYNCAPI, find: '    ApiKeyAuth:', replace: '    StreamKey:' }] },
  ],
  invalid: [
    {
      name: 'a scheme both documents define differently',
      files: STREAMS,
      edits: [{ file: ASYNCAPI, find: 'scheme: bearer, bearerFormat: API key, description', replace: 'scheme: basic, description' }],
      errors: [{ messageId: 'security-scheme-differs', file: ASYNCAPI, line: 20, column: 5, data: { scheme: 'ApiKeyAuth', target: OPENAPI, differing: 'bearerFormat, scheme' } }],
    },
  ],
});
