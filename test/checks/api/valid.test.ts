import { testRule } from '../../rule-tester.js';
import { api, ASYNCAPI, OPENAPI, openapi } from './helpers.js';

const OPENAPI_SCHEMA = 'the OpenAPI 3.1 schema';
const ABSENT = '../../schemas/v2/absent.schema.json';
const unresolved = (line: number, column: number, ref: string, missing: string) => ({ messageId: 'unresolved-ref', file: OPENAPI, line, column, data: { ref, reason: `${missing} (the target of ${ref})` } });
const circular = (line: number, column: number, to: string, back: string) => ({
  messageId: 'circular-ref',
  file: OPENAPI,
  line,
  column,
  data: { ref: `#/components/responses/${to}`, reason: `the chain of $refs starting here comes back to #/components/responses/${back}` },
});
/** The base with more shared responses (after line 222, its last). */
const responses = (more: string) => openapi('  responses:\n    NotModified:\n', `  responses:\n${more}    NotModified:\n`);
const REMOTE = openapi("schema: { $ref: '../../schemas/v2/run-snapshot.schema.json' }\n        '304'", "schema: { $ref: 'https://schemas.example/run.json' }\n        '304'");

testRule('api/valid', {
  valid: [
    { name: 'a valid OpenAPI 3.1 and AsyncAPI 3.0 document whose references resolve', base: 'api/good' },
    { name: 'a remote reference where the config allows them', ...api([REMOTE]), config: { allowRemoteRefs: true } },
  ],
  invalid: [
    {
      name: 'a property the official OpenAPI schema does not allow: at the key',
      ...api([openapi('      operationId: getRun\n', '      operationId: getRun\n      resposnes: {}\n')]),
      errors: [{ messageId: 'schema-mismatch', file: OPENAPI, line: 83, column: 7, data: { schema: OPENAPI_SCHEMA, error: '/paths/~1runs~1{runId}/get: property "resposnes" is not allowed here' } }],
    },
    {
      name: 'a property the official AsyncAPI schema does not allow: at the key',
      ...api([{ file: ASYNCAPI, find: "    address: '/runs/{runId}/events'\n", replace: "    address: '/runs/{runId}/events'\n    colour: red\n" }]),
      errors: [{ messageId: 'schema-mismatch', file: ASYNCAPI, line: 12, column: 5, data: { schema: 'the AsyncAPI 3.0.0 schema', error: '/channels/runEvents: property "colour" is not allowed here' } }],
    },
    {
      name: 'a value of the wrong type under a numeric-looking key (a response status): at the key',
      ...api([openapi("        '406':\n          $ref: '#/components/responses/VersionUnsupported'", "        '406': 7")]),
      errors: [{ messageId: 'schema-mismatch', file: OPENAPI, line: 34, column: 9, data: { schema: OPENAPI_SCHEMA, error: '/paths/~1.well-known~1openwop/get/responses/406: must be object' } }],
    },
    {
      name: 'a version with no published schema: at the version',
      ...api([openapi('openapi: 3.1.0', 'openapi: 3.0.3')]),
      errors: [{ messageId: 'unknown-version', file: OPENAPI, line: 2, column: 10, data: { kind: 'openapi', version: '3.0.3' } }],
    },
    {
      name: 'references that do not resolve, local and cross-file, to a missing file or a missing pointer: at each $ref',
      ...api([
        openapi("schema: { $ref: '../../schemas/v2/run-snapshot.schema.json' }\n        '304'", "schema: { $ref: '#/components/schemas/Missing' }\n        '304'"),
        openapi("schema: { $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' }", `schema: { $ref: '${ABSENT}' }`),
        openapi("schema: { $ref: '../../schemas/v2/run-snapshot.schema.json' }", "schema: { $ref: '../../schemas/v2/ids.schema.json#/$defs/nothing' }"),
      ]),
      errors: [
        unresolved(61, 31, '../../schemas/v2/ids.schema.json#/$defs/nothing', 'schemas/v2/ids.schema.json has nothing at #/$defs/nothing'),
        unresolved(95, 31, '#/components/schemas/Missing', 'api/v2/openapi.yaml has nothing at #/components/schemas/Missing'),
        { messageId: 'unresolved-ref', file: OPENAPI, line: 172, column: 23, data: { ref: ABSENT, reason: `schemas/v2/absent.schema.json (the target of ${ABSENT}) does not exist` } },
      ],
    },
    {
      name: 'a remote reference, never fetched: at the $ref',
      ...api([REMOTE]),
      errors: [{ messageId: 'remote-ref', file: OPENAPI, line: 95, column: 31, data: { ref: 'https://schemas.example/run.json' } }],
    },
    {
      name: 'a cycle of references: at each reference of it, without hanging',
      ...api([responses("    Loop:\n      $ref: '#/components/responses/Pool'\n    Pool:\n      $ref: '#/components/responses/Loop'\n"), openapi("        '404':\n          $ref: '#/components/responses/NotFound'", "        '404':\n          $ref: '#/components/responses/Loop'")]),
      errors: [
        circular(101, 17, 'Loop', 'Pool'),
        circular(191, 13, 'Pool', 'Pool'),
        circular(193, 13, 'Loop', 'Loop'),
      ],
    },
    {
      name: 'an operationId used twice: at the second',
      ...api([openapi('operationId: streamHostEvents', 'operationId: getRun')]),
      errors: [{ messageId: 'duplicate-operation-id', file: OPENAPI, line: 129, column: 20, data: { operationId: 'getRun', previous: 'GET /runs/{runId}' } }],
    },
    {
      name: 'an operation without an operationId: at the operation',
      ...api([openapi('      operationId: streamHostEvents\n', '')]),
      errors: [{ messageId: 'no-operation-id', file: OPENAPI, line: 128, column: 5, data: { operation: 'GET /host/events' } }],
    },
    {
      name: 'a path variable no parameter declares, and a path parameter the path does not use',
      ...api([
        openapi("      - $ref: '#/components/parameters/RunId'\n    get:\n      operationId: streamRunEvents", '    get:\n      operationId: streamRunEvents'),
        openapi("  /host/events:\n    parameters:\n", "  /host/events:\n    parameters:\n      - $ref: '#/components/parameters/RunId'\n"),
      ]),
      errors: [
        { messageId: 'undeclared-path-parameter', file: OPENAPI, line: 106, column: 5, data: { operation: 'streamRunEvents (GET /runs/{runId}/events)', parameter: 'runId' } },
        { messageId: 'unused-path-parameter', file: OPENAPI, line: 168, column: 13, data: { operation: 'streamHostEvents (GET /host/events)', parameter: 'runId', path: '/host/events' } },
      ],
    },
  ],
});
