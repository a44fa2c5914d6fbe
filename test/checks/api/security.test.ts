import { testRule } from '../../rule-tester.js';
import { api, ASYNCAPI, OPENAPI, openapi } from './helpers.js';

const VOCABULARY = `${JSON.stringify({ rows: [{ scope: 'runs:read', meaning: 'read runs' }, { scope: 'runs:create', meaning: 'start runs' }] }, null, 2)}\n`;
const SCOPES = 'spec/v2/scopes.json';
const OTHER_SCOPES = 'spec/v2/auth/scopes.json';
/** A second scheme beside the base's bearer (line 142). */
const MUTUAL_TLS = openapi('    bearer: { type: http, scheme: bearer }\n', '    bearer: { type: http, scheme: bearer }\n    mutualTLS: { type: mutualTLS }\n');
/** The document-level requirement (line 12) accepting both schemes. */
const BOTH_AT_ROOT = openapi('security:\n  - { bearer: [] }\n', 'security:\n  - { bearer: [] }\n  - { mutualTLS: [] }\n');
/** An operation's own requirement, written after its operationId. */
const own = (operationId: string, requirements: string[]) => openapi(`      operationId: ${operationId}\n`, `      operationId: ${operationId}\n      security:\n${requirements.map((r) => `        - { ${r} }\n`).join('')}`);
const CREATE_BOTH = own('createRun', ['bearer: [runs:create]', 'mutualTLS: [runs:create]']);

testRule('api/security', {
  valid: [
    { name: 'one scheme every protected operation accepts, and a public one', base: 'api/good' },
    { name: 'two schemes, each operation public or accepting both with the same registered scopes', ...api([MUTUAL_TLS, BOTH_AT_ROOT, CREATE_BOTH], { [SCOPES]: VOCABULARY }) },
    { name: 'scopes and no vocabulary: nothing to judge them against', ...api([MUTUAL_TLS, BOTH_AT_ROOT, own('createRun', ['bearer: [runs:start]', 'mutualTLS: [runs:start]'])]) },
    { name: 'scopes registered in the vocabulary the option names', ...api([MUTUAL_TLS, BOTH_AT_ROOT, CREATE_BOTH], { [OTHER_SCOPES]: VOCABULARY }), config: { rules: { 'api/security': ['error', { vocabulary: OTHER_SCOPES }] } } },
    { name: 'an optional credential ({}): whether that is meant cannot be told', ...api([MUTUAL_TLS, BOTH_AT_ROOT, own('createRun', ['bearer: []', ''])]) },
  ],
  invalid: [
    {
      name: 'a scheme left out, scopes that differ between schemes, a scope not in the vocabulary and an undefined scheme',
      ...api([MUTUAL_TLS, BOTH_AT_ROOT, own('createRun', ['bearer: [runs:create]']), own('getRun', ['bearer: [runs:read]', 'mutualTLS: [runs:list]']), own('streamHostEvents', ['apiKey: []'])], { [SCOPES]: VOCABULARY }),
      errors: [
        { messageId: 'partial-schemes', file: OPENAPI, line: 43, column: 7, data: { operation: 'createRun (POST /runs)', required: '`bearer`', missing: '`mutualTLS`' } },
        { messageId: 'different-scopes', file: OPENAPI, line: 86, column: 7, data: { operation: 'getRun (GET /runs/{runId})', scopes: 'bearer: [runs:read]; mutualTLS: [runs:list]' } },
        { messageId: 'unknown-scope', file: OPENAPI, line: 88, column: 25, data: { scope: 'runs:list', target: SCOPES } },
        { messageId: 'undefined-scheme', file: OPENAPI, line: 137, column: 13, data: { scheme: 'apiKey' } },
      ],
    },
    {
      name: 'a scheme the document-level requirement leaves out: at each operation that inherits it',
      ...api([MUTUAL_TLS, CREATE_BOTH]),
      errors: [
        { messageId: 'partial-schemes-inherited', file: OPENAPI, line: 84, column: 5, data: { operation: 'getRun (GET /runs/{runId})', required: '`bearer`', missing: '`mutualTLS`' } },
        { messageId: 'partial-schemes-inherited', file: OPENAPI, line: 110, column: 5, data: { operation: 'streamRunEvents (GET /runs/{runId}/events)', required: '`bearer`', missing: '`mutualTLS`' } },
        { messageId: 'partial-schemes-inherited', file: OPENAPI, line: 131, column: 5, data: { operation: 'streamHostEvents (GET /host/events)', required: '`bearer`', missing: '`mutualTLS`' } },
      ],
    },
    {
      name: 'scopes that differ through the document-level requirement',
      ...api([MUTUAL_TLS, openapi('security:\n  - { bearer: [] }\n', 'security:\n  - { bearer: [runs:read] }\n  - { mutualTLS: [] }\n'), CREATE_BOTH]),
      errors: [
        { messageId: 'different-scopes-inherited', file: OPENAPI, line: 85, column: 5, data: { operation: 'getRun (GET /runs/{runId})', scopes: 'bearer: [runs:read]; mutualTLS: []' } },
        { messageId: 'different-scopes-inherited', file: OPENAPI, line: 111, column: 5, data: { operation: 'streamRunEvents (GET /runs/{runId}/events)', scopes: 'bearer: [runs:read]; mutualTLS: []' } },
        { messageId: 'different-scopes-inherited', file: OPENAPI, line: 132, column: 5, data: { operation: 'streamHostEvents (GET /host/events)', scopes: 'bearer: [runs:read]; mutualTLS: []' } },
      ],
    },
    {
      name: 'an AsyncAPI scheme reference to a scheme it does not define',
      ...api([{ file: ASYNCAPI, find: '    protocol: https\n', replace: "    protocol: https\n    security: [{ $ref: '#/components/securitySchemes/ApiKey' }]\n" }]),
      errors: [{ messageId: 'undefined-scheme-ref', file: ASYNCAPI, line: 9, column: 24, data: { scheme: '#/components/securitySchemes/ApiKey' } }],
    },
    {
      name: 'a scope not in the vocabulary the option names',
      ...api([MUTUAL_TLS, BOTH_AT_ROOT, own('createRun', ['bearer: [runs:start]', 'mutualTLS: [runs:start]'])], { [OTHER_SCOPES]: VOCABULARY }),
      config: { rules: { 'api/security': ['error', { vocabulary: OTHER_SCOPES }] } },
      errors: [
        { messageId: 'unknown-scope', file: OPENAPI, line: 44, column: 22, data: { scope: 'runs:start', target: OTHER_SCOPES } },
        { messageId: 'unknown-scope', file: OPENAPI, line: 45, column: 25, data: { scope: 'runs:start', target: OTHER_SCOPES } },
      ],
    },
    {
      name: 'a vocabulary that does not match its schema: scopes are not judged until it does',
      ...api([MUTUAL_TLS, BOTH_AT_ROOT, own('createRun', ['bearer: [runs:start]', 'mutualTLS: [runs:start]'])], {
        [SCOPES]: `${JSON.stringify({ rows: [{ scope: 'runs:read' }, { scope: 7 }] }, null, 2)}\n`,
        'spec/v2/scopes.schema.json': JSON.stringify({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: 'https://openwop.dev/spec/v2/scopes.schema.json',
          type: 'object',
          properties: { rows: { type: 'array', items: { type: 'object', properties: { scope: { type: 'string' } } } } },
        }),
      }),
      errors: [{ messageId: 'schema-mismatch', file: SCOPES, line: 7, column: 7, data: { schema: 'spec/v2/scopes.schema.json', against: 'spec/v2/scopes.schema.json', error: '/rows/1/scope: must be string', places: 1 } }],
    },
  ],
});
