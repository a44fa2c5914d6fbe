import { testRule } from '../../rule-tester.js';
import { api, OPENAPI, openapi, SEAMS } from './helpers.js';

const MANIFEST = 'spec/v2/path-manifest.json';
/** The base with one more path item of the canonical document, written before its components (line 140). */
const openapiWithPath = (path: string, operations: string) => openapi('\ncomponents:\n', `\n  ${path}:\n${operations}components:\n`);
const operation = (method: string, id: string, extra = '') => `    ${method}:\n      operationId: ${id}\n${extra}      responses:\n        '204':\n          description: Done.\n`;

testRule('api/seams-excluded', {
  valid: [
    { name: 'seam operations in the seams document under /conformance/seams/, none in the canonical document or the manifest', base: 'api/good' },
    { name: 'an operation whose path only begins like the seams path space', ...api([openapiWithPath('/conformance/seamstress', operation('get', 'getSeamstress'))]) },
  ],
  invalid: [
    {
      name: 'a seam path in the canonical document: once, at the path, for all its operations',
      ...api([openapiWithPath('/conformance/seams/reset', operation('post', 'resetSeams') + operation('delete', 'dropSeams'))]),
      errors: [{ messageId: 'seam-in-document', file: OPENAPI, line: 140, column: 3, data: { operation: 'resetSeams (POST /conformance/seams/reset)', kind: 'seam', reason: 'its path is under /conformance/seams/', seams: SEAMS } }],
    },
    {
      name: 'a sample-host operation in the canonical document, by its path and by its tag: at the path, and at the operation',
      ...api([openapiWithPath('/sample-host/reset', operation('post', 'resetSample')), openapiWithPath('/samples', operation('get', 'listSamples', '      tags: [sample-host]\n'))]),
      errors: [
        { messageId: 'seam-in-document', file: OPENAPI, line: 140, column: 3, data: { operation: 'resetSample (POST /sample-host/reset)', kind: 'sample-host', reason: 'its path is under /sample-host/', seams: SEAMS } },
        { messageId: 'seam-in-document', file: OPENAPI, line: 147, column: 5, data: { operation: 'listSamples (GET /samples)', kind: 'sample-host', reason: 'it is tagged sample-host', seams: SEAMS } },
      ],
    },
    {
      name: 'seam operations of the canonical document by an operationId the seams document defines, by tag and by marker: at each operation',
      ...api([
        openapiWithPath('/clock', operation('post', 'advanceClock')),
        openapiWithPath('/tick', operation('post', 'tick', '      tags: [conformance-seams]\n') + operation('put', 'setTick', '      x-openwop-seam: true\n') + operation('delete', 'dropTick', '      x-openwop-sample-host: true\n')),
      ]),
      errors: [
        { messageId: 'seam-in-document', file: OPENAPI, line: 141, column: 5, data: { operation: 'advanceClock (POST /clock)', kind: 'seam', reason: 'api/seams-v2.yaml defines advanceClock', seams: SEAMS } },
        { messageId: 'seam-in-document', file: OPENAPI, line: 147, column: 5, data: { operation: 'tick (POST /tick)', kind: 'seam', reason: 'it is tagged conformance-seams', seams: SEAMS } },
        { messageId: 'seam-in-document', file: OPENAPI, line: 153, column: 5, data: { operation: 'setTick (PUT /tick)', kind: 'seam', reason: 'it is marked x-openwop-seam', seams: SEAMS } },
        { messageId: 'seam-in-document', file: OPENAPI, line: 159, column: 5, data: { operation: 'dropTick (DELETE /tick)', kind: 'sample-host', reason: 'it is marked x-openwop-sample-host', seams: SEAMS } },
      ],
    },
    {
      name: 'a seam path in another API document than the seams one',
      ...api([], { 'api/v2/extra.yaml': `openapi: 3.1.0\ninfo: { title: Extra, version: 2.0.0 }\npaths:\n  /conformance/seams/flush:\n${operation('post', 'flush')}` }),
      errors: [{ messageId: 'seam-in-other-document', file: 'api/v2/extra.yaml', line: 4, column: 3, data: { operation: 'flush (POST /conformance/seams/flush)', kind: 'seam', reason: 'its path is under /conformance/seams/', seams: SEAMS } }],
    },
    {
      name: 'the path manifest lists a seam path, a sample-host path and an operationId of the seams document: at each',
      ...api([
        {
          file: MANIFEST,
          find: '  "operations": [\n',
          replace:
            '  "operations": [\n    { "method": "POST", "path": "/conformance/seams/reset", "operationId": "resetSeams" },\n    { "method": "GET", "path": "/sample-host/runs", "operationId": "listSampleRuns" },\n    { "method": "POST", "path": "/maintenance", "operationId": "advanceClock" },\n',
        },
      ]),
      errors: [
        { messageId: 'seam-in-manifest', file: MANIFEST, line: 8, column: 33, data: { path: '/conformance/seams/reset', operationId: 'resetSeams', kind: 'seam' } },
        { messageId: 'seam-in-manifest', file: MANIFEST, line: 9, column: 32, data: { path: '/sample-host/runs', operationId: 'listSampleRuns', kind: 'sample-host' } },
        { messageId: 'seam-id-in-manifest', file: MANIFEST, line: 10, column: 64, data: { path: '/maintenance', operationId: 'advanceClock', seams: SEAMS } },
      ],
    },
    {
      name: 'a seams-document operation outside /conformance/seams/: at its path',
      ...api([{ file: SEAMS, find: '/conformance/seams/clock/advance:', replace: '/testing/clock/advance:' }]),
      errors: [{ messageId: 'outside-seams', file: SEAMS, line: 6, column: 3, data: { operation: 'advanceClock (POST /testing/clock/advance)', prefix: '/conformance/seams/' } }],
    },
  ],
});
