import { testRule } from '../../rule-tester.js';
import { api, OPENAPI, openapi } from './helpers.js';

/** The base with one more path item, `/<id>`, written before its components (line 140). */
const apiWithOperation = (id: string, method: string, responses: string, extra = '') =>
  api([openapi('\ncomponents:\n', `\n  /${id}:\n    ${method}:\n      operationId: ${id}\n${extra}      responses:\n${responses}components:\n`)]);
const KEYED = "      parameters:\n        - $ref: '#/components/parameters/IdempotencyKey'\n";
const BODY = '          content:\n            application/json:\n              schema: { type: object }\n';
const ok = (status: string, headers = '', body = BODY) => `        '${status}':\n          description: Done.\n${headers}${body}`;
const REPLAY_REF = "          headers:\n            OpenWOP-Idempotent-Replay: { $ref: '#/components/headers/OpenWOP-Idempotent-Replay' }\n";
const REPLAY_INLINE = '          headers:\n            OpenWOP-Idempotent-Replay: { description: Served from the cache., schema: { type: boolean } }\n';
/** The key of createRun (line 43), taken away. */
const NO_KEY = openapi("        - $ref: '#/components/parameters/IdempotencyKey'\n        - name: OpenWOP-Dedup", '        - name: OpenWOP-Dedup');

const missing = (operation: string, method: string, evidence: string, shown: string, line = 141) => ({
  messageId: 'key-missing',
  file: OPENAPI,
  line,
  column: 5,
  data: { operation, method, evidence, shown },
});

testRule('api/idempotency-coverage', {
  valid: [
    { name: 'a keyed POST that creates, marking replays with the shared header; GETs without the key', base: 'api/good' },
    { name: 'a PUT without the key: HTTP makes it idempotent, so a retry cannot do its work twice', ...apiWithOperation('replace', 'put', ok('200')) },
    { name: 'a DELETE without the key, answering 204: idempotent by its method', ...apiWithOperation('remove', 'delete', ok('204', '', '')) },
    {
      name: 'a POST that answers a representation and shows no effect (a render): the document does not say whether it changes state',
      ...apiWithOperation('render', 'post', ok('200') + "        '400':\n          description: Bad bindings.\n"),
    },
    {
      name: 'a keyed POST without the replay header, where the document declares it inline where it chooses rather than as a shared component',
      ...api([
        openapi("            OpenWOP-Idempotent-Replay: { $ref: '#/components/headers/OpenWOP-Idempotent-Replay' }", '            OpenWOP-Idempotent-Replay: { description: Served from the cache., schema: { type: boolean } }'),
        openapi('\ncomponents:\n', `\n  /cancel:\n    post:\n      operationId: cancel\n${KEYED}      responses:\n${ok('200')}components:\n`),
      ]),
    },
  ],
  invalid: [
    {
      name: 'a POST that answers 201 Created without the key',
      ...api([NO_KEY]),
      errors: [missing('createRun (POST /runs)', 'POST', 'created', 'it answers 201 Created', 40)],
    },
    {
      name: 'a POST that answers 202 Accepted without the key',
      ...apiWithOperation('enqueue', 'post', ok('202')),
      errors: [missing('enqueue (POST /enqueue)', 'POST', 'accepted', 'it answers 202 Accepted')],
    },
    {
      name: 'a POST that names the resource it made in Location, without the key',
      ...apiWithOperation('mint', 'post', ok('200', '          headers:\n            Location: { description: The new thing., schema: { type: string } }\n')),
      errors: [missing('mint (POST /mint)', 'POST', 'location', 'a response names a new resource in Location')],
    },
    {
      name: 'a POST that marks a reply from the idempotency cache, without the key that makes one',
      ...apiWithOperation('settle', 'post', ok('200', REPLAY_INLINE)),
      errors: [missing('settle (POST /settle)', 'POST', 'replay', 'a response declares OpenWOP-Idempotent-Replay, the mark of a reply from the idempotency cache')],
    },
    {
      name: 'a POST whose every success has no body: its effect is all it does',
      ...apiWithOperation('reset', 'post', ok('204', '', '') + ok('200', '', '')),
      errors: [missing('reset (POST /reset)', 'POST', 'no-body', 'no success answer carries a body, so its effect is all it does')],
    },
    {
      name: 'a PATCH that answers 200 with a body, without the key: PATCH changes its target by definition',
      ...apiWithOperation('edit', 'patch', ok('200')),
      errors: [missing('edit (PATCH /edit)', 'PATCH', 'patch', 'PATCH applies a change to its target (RFC 5789)')],
    },
    {
      name: 'a GET that takes the key on the operation: at the declaration',
      ...api([openapi("      operationId: getRun\n      parameters:\n", "      operationId: getRun\n      parameters:\n        - $ref: '#/components/parameters/IdempotencyKey'\n")]),
      errors: [{ messageId: 'key-on-safe', file: OPENAPI, line: 84, column: 11, data: { operation: 'getRun (GET /runs/{runId})', method: 'GET' } }],
    },
    {
      name: 'a GET that inherits the key from its path item: at the declaration, once for each safe operation',
      ...api([openapi("  /runs/{runId}:\n    parameters:\n", "  /runs/{runId}:\n    parameters:\n      - $ref: '#/components/parameters/IdempotencyKey'\n")]),
      errors: [{ messageId: 'key-inherited-on-safe', file: OPENAPI, line: 78, column: 9, data: { operation: 'getRun (GET /runs/{runId})', method: 'GET' } }],
    },
    {
      name: 'keyed operations whose success does not declare the replay header the document shares: at each response',
      ...api([openapi('\ncomponents:\n', `\n  /cancel:\n    post:\n      operationId: cancel\n${KEYED}      responses:\n${ok('200')}    put:\n      operationId: update\n${KEYED}      responses:\n${ok('200', REPLAY_REF)}${ok('202')}components:\n`)]),
      errors: [
        { messageId: 'replay-header-missing', file: OPENAPI, line: 146, column: 9, data: { operation: 'cancel (POST /cancel)', status: '200', method: 'POST' } },
        { messageId: 'replay-header-missing', file: OPENAPI, line: 163, column: 9, data: { operation: 'update (PUT /cancel)', status: '202', method: 'PUT' } },
      ],
    },
  ],
});
