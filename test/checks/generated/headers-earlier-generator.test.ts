/**
 * generated/drift over a headers.md generated whole by upstream's earlier generator: its rows are the
 * same facts in that generator's rendering (a description's first line, an empty cell for a header
 * described per operation), and a header whose name differs only in case is one changed row, wherever the
 * earlier generator's case-sensitive sort put it.
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

testRule('generated/drift', {
  valid: [
    {
      name: 'the whole description, folded to one line, and the neutral Meaning',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: NEUTRAL }) },
    },
    {
      name: "the description's first line, as upstream's earlier generator wrote a Meaning",
      files: { ...api, [DOC]: headersDoc({ version: FIRST_LINE, cache: NEUTRAL }) },
    },
    {
      name: 'an empty Meaning for a header one operation describes and another declares bare',
      files: { ...api, [DOC]: headersDoc({ version: WHOLE, cache: '' }) },
    },
  ],
  invalid: [
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
