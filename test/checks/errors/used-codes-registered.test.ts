/**
 * errors/used-codes-registered on small corpora: the error-registry fixture (six codes) with a
 * file or two added, each case both ways where the rule can be wrong both ways.
 */
import { DECLARATION, errorsCase } from '../../errors/helpers.js';
import { testRule, type InvalidCase } from '../../rule-tester.js';

const RULE = 'errors/used-codes-registered';
const USES = 'spec/v2/core/uses.md';
const OPENAPI = 'api/v2/openapi.yaml';
const SEAMS = 'api/seams-v2.yaml';

/** A markdown document of the specification with `body` as its one paragraph (on line 7). */
const usesDoc = (body: string) => `# Uses\n\n> **Status: Stable.**\n\n## Why this exists\n\n${body}\n`;

/** An OpenAPI document whose one operation answers 409 with `description` (on line 10). */
const openapiWithOperation = (operation: string, response: string) =>
  [
    'openapi: 3.1.0',
    'info: { title: t, version: "2.0" }',
    'paths:',
    '  /runs/{runId}:cancel:',
    '    post:',
    `      description: '${operation}'`,
    '      responses:',
    "        '200': { description: ok }",
    "        '409':",
    `          description: '${response}'`,
    '',
  ].join('\n');

/** An OpenAPI document whose one parameter says `parameter` (on line 10) and whose 400 says `response` (on line 15). */
const withParameter = (parameter: string, response: string) =>
  [
    'openapi: 3.1.0',
    'info: { title: t, version: "2.0" }',
    'paths:',
    '  /prompts/{templateId}:',
    '    parameters:',
    '      - in: query',
    '        name: libraryId',
    '        schema: { type: string }',
    '        description: |',
    `          ${parameter}`,
    '    get:',
    '      responses:',
    "        '200': { description: ok }",
    "        '400':",
    `          description: '${response}'`,
    '',
  ].join('\n');

/** A document generated whole that lists `pack_gone` as a code (not judged itself: generated/drift reads it). */
const GENERATED_CODES =
  '# Error codes\n\n> **Status: Stable.** Generated from `spec/v2/errors.json`; do not edit.\n\nCode | Status\n--- | ---\n`pack_gone` | 410\n';
/** A seams document whose one description names `pack_gone` in a sentence about errors, after `lead`. */
const seamsCatalog = (lead: string) =>
  `paths:\n  /packs:\n    put:\n      description: |\n        ${lead}\n\n        Its error catalog (\`pack_gone\`) MUST be served verbatim.\n      responses:\n        '200': { description: ok }\n`;

/** A `sub_chain_depth_exceeded` row added to the fixture registry. */
const SUB_CHAIN_ROW = {
  file: 'spec/v2/errors.json',
  find: '  "rows": [\n',
  replace:
    '  "rows": [\n    { "code": "sub_chain_depth_exceeded", "httpStatus": 422, "statusSource": "v2 decision", "retriable": false, "details": null, "since": "2.0", "source": "spec/v2/core/errors.md" },\n',
};

testRule(RULE, {
  valid: [
    errorsCase('the fixture: every code it names is registered, with its status', {}),
    errorsCase(
      'a code with its registered status in every form: beside a status, in a list after one, in a code table, in an envelope example',
      {
        [USES]: usesDoc(
          [
            'A host answers `429 rate_limited`, 409 `run_terminal` or `validation_error` (400), and `409` `run_terminal`, `run_terminal` or `run_terminal`.',
            '',
            '| Code | Status | Retriable |',
            '| --- | --- | --- |',
            '| `rate_limited` | 429 | yes |',
            '',
            '```jsonc',
            '{ "error": "internal_error", "message": "…" }',
            '```',
          ].join('\n'),
        ),
      },
    ),
    errorsCase(
      'ordinary identifiers, reason phrases, statuses alone, tables without a status column and JSON that is no envelope',
      {
        [USES]: usesDoc(
          [
            'Fields such as `run_id`, `tenant_id` and `snake_case_word` are not codes; nor is a `409 Conflict`, `5xx`, `429` and `foo_bar`, or error="invalid_token".',
            'A 404 carries no challenge. Status 200 `ok_thing` is not an error. Headers: a 400 `Bad-Request`.',
            '',
            '| Code | Meaning |',
            '| --- | --- |',
            '| `not_a_status_table` | no status column |',
            '',
            '```json',
            '{ "type": "node.failed", "payload": { "error": "timeout" } }',
            '```',
          ].join('\n'),
        ),
      },
    ),
    errorsCase('a snake_case word in a sentence about an error that differs from a code by another word, not a slip', {
      [USES]: usesDoc('A host rejects the stream with `unsupported_stream_kind` when the mode is unknown.'),
    }),
    errorsCase(
      'a snake_case word a parameter description says a host returns, which the corpus never writes as a code',
      {
        [OPENAPI]: withParameter('Hosts MUST return `template_choice` when asked.', 'The request is malformed.'),
      },
    ),
    errorsCase('a word the corpus writes as a code, in a description that quotes a v1 document', {
      'spec/v2/generated/error-codes.md': GENERATED_CODES,
      [SEAMS]: seamsCatalog('Mirror of the publish operation of `spec/v1/packs.md`.'),
    }),
    errorsCase('a list of words after no status is no list of codes', {
      [OPENAPI]: openapiWithOperation('Some words: `not_a_status`, `other_word` are words.', 'The run is over.'),
    }),
    errorsCase('the response examples of the canonical OpenAPI document, which api/error-responses reads', {
      [OPENAPI]: openapiWithOperation('Cancels.', 'The run is over.').replace(
        "'409':\n          description: 'The run is over.'",
        "'409':\n          description: 'The run is over.'\n          content:\n            application/json:\n              example: { error: not_a_code, message: x }",
      ),
    }),
    errorsCase('a document generated whole from the registry, left to generated/drift', {
      'spec/v2/generated/error-codes.md':
        '# Error codes\n\n> **Status: Stable.** Generated from `spec/v2/errors.json`; do not edit.\n\nCode | Status\n--- | ---\n`no_such_thing` | 404\n',
    }),
    errorsCase('no registry to hold codes to', {
      'spec/v2/errors.json': null,
      [USES]: usesDoc('Refused with `409 run_finished`.'),
    }),
    errorsCase('a vendor code of a registered org', {
      'spec/v2/declaration.json': DECLARATION,
      [USES]: usesDoc('Refused with `409 acme.widget_failed`.'),
    }),
  ],
  invalid: [
    errorsCase(
      'a code written with a status that is not registered, in each form',
      {
        [USES]: usesDoc('Refused with `409 run_finished`, and then 404 `no_such_thing`, or `gone_code` (410).'),
      },
      {
        errors: [
          {
            messageId: 'unregistered',
            file: USES,
            line: 7,
            column: 19,
            endLine: 7,
            endColumn: 31,
            data: { code: 'run_finished' },
          },
          { messageId: 'unregistered', file: USES, line: 7, column: 48, data: { code: 'no_such_thing' } },
          { messageId: 'unregistered', file: USES, line: 7, column: 68, data: { code: 'gone_code' } },
        ],
      },
    ),
    errorsCase(
      'a registered code written with another status',
      { [USES]: usesDoc('Throttled with `400 rate_limited`.') },
      {
        errors: [
          {
            messageId: 'status-differs',
            file: USES,
            line: 7,
            column: 21,
            data: { code: 'rate_limited', written: 400, registered: 429 },
          },
        ],
      },
    ),
    errorsCase(
      'a Retriable cell that contradicts the registry',
      {
        [USES]: usesDoc('| Code | Status | Retriable |\n| --- | --- | --- |\n| `internal_error` | 500 | no |'),
      },
      {
        errors: [
          {
            messageId: 'retriable-differs',
            file: USES,
            line: 9,
            column: 4,
            data: { code: 'internal_error', written: 'no', registered: 'yes' },
          },
        ],
      },
    ),
    errorsCase(
      'a code under the reserved prefix',
      { [USES]: usesDoc('Refused with `409 openwop.reserved_thing`.') },
      {
        errors: [
          { messageId: 'reserved-prefix', file: USES, line: 7, column: 19, data: { code: 'openwop.reserved_thing' } },
        ],
      },
    ),
    errorsCase(
      'a vendor code of an org the declaration does not register',
      { 'spec/v2/declaration.json': DECLARATION, [USES]: usesDoc('Refused with `409 zeta.widget_failed`.') },
      {
        errors: [
          {
            messageId: 'unknown-org',
            file: USES,
            line: 7,
            column: 19,
            data: { code: 'zeta.widget_failed', org: 'zeta', declaration: 'spec/v2/declaration.json' },
          },
        ],
      },
    ),
    errorsCase(
      'an envelope example in a jsonc and a yaml block of the prose',
      {
        [USES]: usesDoc(
          '```jsonc\n{ "error": "rate_limted", "message": "…" }\n```\n\n```yaml\nexample:\n  error: unknown_yaml_code\n  details: {}\n```',
        ),
      },
      {
        errors: [
          {
            messageId: 'near-miss',
            file: USES,
            line: 8,
            column: 13,
            data: { code: 'rate_limted', suggestion: 'rate_limited' },
          },
          { messageId: 'unregistered', file: USES, line: 13, column: 10, data: { code: 'unknown_yaml_code' } },
        ],
      },
    ),
    errorsCase(
      'every code of a list in an OpenAPI description, after a status and in a 4xx response',
      {
        [OPENAPI]: openapiWithOperation(
          'Answers 409 (`run_terminal`, `run_finished` or `run_closed`).',
          'The run is `run_terminal`, `run_done_already`, or its stream is `stream_taken`.',
        ),
      },
      {
        errors: [
          { messageId: 'unregistered', file: OPENAPI, line: 6, column: 51, data: { code: 'run_finished' } },
          { messageId: 'unregistered', file: OPENAPI, line: 6, column: 69, data: { code: 'run_closed' } },
          { messageId: 'unregistered', file: OPENAPI, line: 10, column: 53, data: { code: 'run_done_already' } },
          { messageId: 'unregistered', file: OPENAPI, line: 10, column: 90, data: { code: 'stream_taken' } },
        ],
      },
    ),
    errorsCase(
      'every code of a list in a 4xx response description of the seams document',
      {
        [SEAMS]:
          "paths:\n  /packs:\n    put:\n      responses:\n        '400':\n          description: |\n            Rejected: `invalid_pack_name`, `invalid_version` or `validation_error`.\n",
      },
      {
        errors: [
          { messageId: 'unregistered', file: SEAMS, line: 7, column: 24, data: { code: 'invalid_pack_name' } },
          { messageId: 'unregistered', file: SEAMS, line: 7, column: 45, data: { code: 'invalid_version' } },
        ],
      },
    ),
    errorsCase(
      'an unregistered code in a parameter description, which a 400 response of the document answers with',
      {
        [OPENAPI]: withParameter(
          'Hosts MUST return `template_ambiguous` if two packs match.',
          '`template_ambiguous` when libraryId is required.',
        ),
      },
      {
        errors: [
          { messageId: 'unregistered', file: OPENAPI, line: 10, column: 30, data: { code: 'template_ambiguous' } },
          { messageId: 'unregistered', file: OPENAPI, line: 15, column: 26, data: { code: 'template_ambiguous' } },
        ],
      },
    ),
    errorsCase(
      'a word the corpus writes as a code, in an error sentence of a description that cites no v1 document',
      { 'spec/v2/generated/error-codes.md': GENERATED_CODES, [SEAMS]: seamsCatalog('Publishes a pack.') },
      { errors: [{ messageId: 'unregistered', file: SEAMS, line: 7, column: 29, data: { code: 'pack_gone' } }] },
    ),
    errorsCase(
      'a near miss of a registered code, a word more, in a schema description',
      {
        'schemas/v2/chain.schema.json':
          '{ "description": "A chain nested too deep fails with `sub_chain_max_depth_exceeded`." }\n',
      },
      {
        edits: [SUB_CHAIN_ROW],
        errors: [
          {
            messageId: 'near-miss',
            file: 'schemas/v2/chain.schema.json',
            line: 1,
            column: 55,
            data: { code: 'sub_chain_max_depth_exceeded', suggestion: 'sub_chain_depth_exceeded' },
          },
        ],
      },
    ),
    errorsCase(
      'a near miss of a registered code in a list of a 422 response description of the seams document',
      {
        [SEAMS]:
          "paths:\n  /chains:\n    put:\n      responses:\n        '422':\n          description: |\n            Rejected: `sub_chain_depth_exceeded` or `sub_chain_max_depth_exceeded`.\n",
      },
      {
        edits: [SUB_CHAIN_ROW],
        errors: [
          {
            messageId: 'near-miss',
            file: SEAMS,
            line: 7,
            column: 54,
            data: { code: 'sub_chain_max_depth_exceeded', suggestion: 'sub_chain_depth_exceeded' },
          },
        ],
      },
    ),
    errorsCase(
      'a near miss of a registered code, one word misspelt, in prose about an error',
      { [USES]: usesDoc('A host rejects the stream with `unsuported_stream_mode` when the mode is unknown.') },
      {
        errors: [
          {
            messageId: 'near-miss',
            file: USES,
            line: 7,
            column: 33,
            data: { code: 'unsuported_stream_mode', suggestion: 'unsupported_stream_mode' },
          },
        ],
      },
    ),
    errorsCase(
      'a code with a status in the description and comment of a schema',
      {
        'schemas/v2/chain.schema.json':
          '{ "description": "A host refuses with `sub_chain_missing` (422) at author time.",\n  "$comment": "else `409 chain_busy`" }\n',
      },
      {
        errors: [
          {
            messageId: 'unregistered',
            file: 'schemas/v2/chain.schema.json',
            line: 1,
            column: 40,
            data: { code: 'sub_chain_missing' },
          },
          {
            messageId: 'unregistered',
            file: 'schemas/v2/chain.schema.json',
            line: 2,
            column: 26,
            data: { code: 'chain_busy' },
          },
        ],
      },
    ),
    errorsCase(
      'the enum of an error property in OpenAPI',
      {
        [OPENAPI]: openapiWithOperation('Cancels.', 'The run is over.').replace(
          "'409':\n          description: 'The run is over.'",
          "'409':\n          description: 'The run is over.'\n          content:\n            application/json:\n              schema: { type: object, properties: { error: { enum: [run_terminal, run_vanished] } } }",
        ),
      },
      {
        errors: [{ messageId: 'unregistered', file: OPENAPI, line: 13, column: 83, data: { code: 'run_vanished' } }],
      },
    ),
    errorsCase(
      'a document that only looks generated (no banner) is prose',
      {
        'spec/v2/generated/error-codes.md':
          '# Error codes\n\n> **Status: Stable.**\n\nCode | Status\n--- | ---\n`no_such_thing` | 404\n',
      },
      {
        errors: [
          {
            messageId: 'unregistered',
            file: 'spec/v2/generated/error-codes.md',
            line: 7,
            column: 2,
            data: { code: 'no_such_thing' },
          },
        ],
      },
    ),
  ] as InvalidCase[],
});
