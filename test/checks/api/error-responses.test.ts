import { testRule } from '../../rule-tester.js';
import { api, OPENAPI, openapi } from './helpers.js';

const CODES = 'x-openwop-error-codes: [run_already_active]';
const ENVELOPE = 'schemas/v2/error-envelope.schema.json';
/** The 406 of the base names the envelope by path; these cases name it by an `$id`. */
const byId = (id: string) => openapi("          schema: { $ref: '../../schemas/v2/error-envelope.schema.json' }", `          schema: { $ref: '${id}' }`);
const DEFAULT_ID = 'https://openwop.dev/schemas/v2/error-envelope.schema.json';
const LAYOUT_ID = 'https://specs.example/v2/error-envelope.schema.json';
const LAYOUT = { layout: { schemaIds: { 'schemas/v2/': 'https://specs.example/v2/', '': 'https://specs.example/' } } };
const CREATE_409 = 'the 409 response of createRun (POST /runs)';
/** streamHostEvents's 401 (line 138), written otherwise. */
const hostEvents401 = (replace: string) => openapi("      operationId: streamHostEvents\n      responses:\n        '200':\n          description: The stream.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n          content:\n            text/event-stream:\n              schema: { type: string }\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n", `      operationId: streamHostEvents\n      responses:\n        '200':\n          description: The stream.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n          content:\n            text/event-stream:\n              schema: { type: string }\n${replace}`);

testRule('api/error-responses', {
  valid: [
    { name: 'every error body is the envelope, every code registered under its status, 401s challenge and 404s do not', base: 'api/good' },
    { name: 'a well-formed vendor code, which no registry lists', ...api([openapi(CODES, 'x-openwop-error-codes: [run_already_active, acme.custom_failure]')]) },
    { name: 'the envelope named by the $id the default layout gives it', ...api([byId(DEFAULT_ID)]) },
    { name: 'the envelope named by its $id, the file absent: naming it is enough', ...api([byId(DEFAULT_ID)], { [ENVELOPE]: null }) },
    { name: 'the envelope named by the $id under the base the layout gives its folder', ...api([byId(LAYOUT_ID)]), config: LAYOUT },
    { name: 'the envelope named by the $id of the layout, the file absent', ...api([byId(LAYOUT_ID)], { [ENVELOPE]: null }), config: LAYOUT },
  ],
  invalid: [
    {
      name: 'an unregistered code and a code registered under another status, in the code list: at each code',
      ...api([openapi(CODES, 'x-openwop-error-codes: [run_already_active, not_found, no_such_code]')]),
      errors: [
        { messageId: 'status-differs', file: OPENAPI, line: 69, column: 55, data: { code: 'not_found', registered: 404, documented: '409' } },
        { messageId: 'unregistered-code', file: OPENAPI, line: 69, column: 66, data: { code: 'no_such_code', registry: 'spec/v2/errors.json' } },
      ],
    },
    {
      name: 'the code of an example registered under another status: at the code',
      ...api([openapi('value: { error: run_already_active', 'value: { error: not_found')]),
      errors: [{ messageId: 'status-differs', file: OPENAPI, line: 75, column: 35, data: { code: 'not_found', registered: 404, documented: '409' } }],
    },
    {
      name: 'a code list that is not a list: at the extension',
      ...api([openapi(CODES, 'x-openwop-error-codes: run_already_active')]),
      errors: [{ messageId: 'codes-not-a-list', file: OPENAPI, line: 69, column: 11, data: { status: '409', extension: 'x-openwop-error-codes' } }],
    },
    {
      name: 'an error body with an inline schema: at the schema',
      ...api([openapi("              schema: { $ref: '#/components/schemas/ErrorEnvelope' }\n              examples:", '              schema: { type: object }\n              examples:')]),
      errors: [{ messageId: 'not-envelope', file: OPENAPI, line: 72, column: 15, data: { response: CREATE_409, mediaType: 'application/json', reason: 'it is an inline schema' } }],
    },
    {
      name: 'an $id the layout does not give the envelope, without the file: the $ref does not resolve',
      ...api([byId(LAYOUT_ID)], { [ENVELOPE]: null }),
      errors: [
        {
          messageId: 'not-envelope',
          file: OPENAPI,
          line: 219,
          column: 11,
          data: {
            response: 'the 406 response of getDiscovery (GET /.well-known/openwop)',
            mediaType: 'application/json',
            reason: `its $ref does not resolve (${LAYOUT_ID} is outside the corpus and cannot be resolved offline)`,
          },
        },
      ],
    },
    {
      name: 'an error response with no body: at the response',
      ...api([openapi(/ {10}x-openwop-error-codes: \[run_already_active\]\n(?: {10,}.*\n)+/, '')]),
      errors: [{ messageId: 'no-body', file: OPENAPI, line: 64, column: 9, data: { response: CREATE_409 } }],
    },
    {
      name: 'a 404 that carries a challenge: at the header',
      ...api([openapi("      description: Nothing here.\n      headers:\n", "      description: Nothing here.\n      headers:\n        WWW-Authenticate: { $ref: '#/components/headers/WWW-Authenticate' }\n")]),
      errors: [{ messageId: 'challenge-on-404', file: OPENAPI, line: 207, column: 9, data: { operation: 'getRun (GET /runs/{runId})' } }],
    },
    {
      name: 'a shared 401 without its challenge: once, where it is defined, naming the operations that share it',
      ...api([openapi("        OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n        WWW-Authenticate: { $ref: '#/components/headers/WWW-Authenticate' }\n", "        OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n")]),
      errors: [{ messageId: 'no-challenge-shared', file: OPENAPI, line: 195, column: 5, data: { operation: 'createRun (POST /runs)', others: '3 other operations', sharedBy: 4 } }],
    },
    {
      name: 'a 401 of one operation without its challenge: at the response',
      ...api([hostEvents401("        '401':\n          description: No valid credential.\n          content:\n            application/json:\n              schema: { $ref: '#/components/schemas/ErrorEnvelope' }\n")]),
      errors: [{ messageId: 'no-challenge', file: OPENAPI, line: 138, column: 9, data: { operation: 'streamHostEvents (GET /host/events)' } }],
    },
    {
      name: 'a protected operation that documents no 401: at the operation',
      ...api([hostEvents401('')]),
      errors: [{ messageId: 'no-401', file: OPENAPI, line: 128, column: 5, data: { operation: 'streamHostEvents (GET /host/events)' } }],
    },
  ],
});
