/**
 * generated/drift over a headers.md generated whole by another generator: a header described per
 * operation may have any neutral sentence of its own, and a header whose name differs only in case is
 * one changed row wherever a case-sensitive sort put it. But a Meaning cut at the description's first
 * line, or left empty, are the defects the table exists to prevent (both shipped in a published upstream release), whoever wrote them.
 */
import { fixRule, testRule } from '../../rule-tester.js';

const DOC = 'spec/v2/core/headers.md';
const OPENAPI = 'api/v2/openapi.yaml';

/** Two operations: a header described over two lines, one described on one operation and bare on the other, one described once. */
const API = `openapi: 3.1.0
info:
  title: Fixture
  version: 2.0.0
paths:
  /runs:
    post:
      operationId: createRun
      parameters:
        - name: OpenWOP-Version
          in: header
          description: |-
            Selects the contract: one of the versions the host lists.
            An unlisted value is refused with 406.
          schema: { type: string }
      responses:
        '201':
          description: Created.
          headers:
            OpenWOP-Idempotent-Replay:
              description: Set when the response came from the idempotency cache.
              schema: { type: boolean }
            Cache-Control:
              description: Revalidate before reuse.
              schema: { type: string }
            Retry-After:
              description: Seconds to wait before retrying.
              schema: { type: integer }
  /runs/{runId}:
    get:
      operationId: getRun
      parameters:
        - { name: runId, in: path, required: true, schema: { type: string } }
      responses:
        '200':
          description: The run.
          headers:
            Cache-Control: { schema: { type: string } }
`;

const replay = (name: string): string => `| \`${name}\` | 1 | Set when the response came from the idempotency cache. |`;

/** The headers document generated whole under a banner, with the Meanings given. */
function headersDoc(rows: { version: string; cache: string; replay?: string }): string {
  return [
    '# Headers',
    '',
    '> **Status: Stable.** Generated from `api/v2/openapi.yaml` by `scripts/derive-v2-api.py`; do not edit.',
    '',
    '## Why this exists',
    '',
    'The tables list every header.',
    '',
    '## Request headers',
    '',
    '| Header | Operations | Meaning |',
    '| --- | --- | --- |',
    `| \`OpenWOP-Version\` | 1 | ${rows.version} |`,
    '',
    '## Response headers',
    '',
    '| Header | Operations | Meaning |',
    '| --- | --- | --- |',
    `| \`Cache-Control\` | 2 | ${rows.cache} |`,
    // Upstream's earlier generator sorted case-sensitively, so a lower-case spelling came last.
    ...(rows.replay ? [] : [replay('OpenWOP-Idempotent-Replay')]),
    '| `Retry-After` | 1 | Seconds to wait before retrying. |',
    ...(rows.replay ? [replay(rows.replay)] : []),
    '',
  ].join('\n');
}

/** The path manifest the API above generates, so that drift in the cases is the headers document's alone. */
const MANIFEST_PATH = 'spec/v2/path-manifest.json';
const MANIFEST =
  fixRule('generated/drift', { files: { [OPENAPI]: API } }).files.find((file) => file.path === MANIFEST_PATH)?.after ??
  '';
const api = { [OPENAPI]: API, [MANIFEST_PATH]: MANIFEST };

const WHOLE = 'Selects the contract: one of the versions the host lists. An unlisted value is refused with 406.';
const FIRST_LINE = 'Selects the contract: one of the versions the host lists.';
const NEUTRAL = 'Described per operation: each operation that declares it states what it means there.';
const OWN_NEUTRAL = 'Caching directive chosen per operation; read each operation for its value.';

testRule('generated/drift', {
  valid: [
    {
      name: 'the whole description, folded to one line, and the neutral Meaning',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL }) },
    },
    {
      name: 'a neutral sentence of its own for a header one operation describes and another declares bare',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: OWN_NEUTRAL }) },
    },
  ],
  invalid: [
    {
      name: "a Meaning cut at the description's first line",
      files: { ...api, [DOC]: headersDoc({ version: FIRST_LINE, cache: NEUTRAL }) },
      errors: [{ messageId: 'stale-changed', file: DOC, line: 13, column: 1 }],
      output: { [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL }) },
    },
    {
      name: 'an empty Meaning, even for a header described per operation',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: '' }) },
      errors: [{ messageId: 'stale-changed', file: DOC, line: 19, column: 1 }],
      output: { [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL }) },
    },
    {
      name: 'a Meaning cut short inside a line of the description',
      files: { ...api, [DOC]: headersDoc({ version: 'Selects the contract: one of the', cache: NEUTRAL }) },
      errors: [{ messageId: 'stale-changed', file: DOC, line: 13, column: 1 }],
      output: { [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL }) },
    },
    {
      name: 'a header spelt in another case: one changed row, not a missing one and an extra one',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL, replay: 'openwop-Idempotent-Replay' }) },
      errors: [{ messageId: 'stale-changed', file: DOC, line: 21, column: 1 }],
      // Corrected where it stands: the order of the rows is layout, not a fact.
      output: { [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL, replay: 'OpenWOP-Idempotent-Replay' }) },
    },
  ],
});
