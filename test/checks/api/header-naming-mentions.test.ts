/**
 * api/header-naming's reading of header names in v2 text, from the mention index: a code span of
 * prose, of a table cell or of a schema description whose letters are a header the OpenAPI
 * document declares is held to its declared spelling, except where the text speaks of v1.
 */
import { API_BASE } from './helpers.js';
import { testRule } from '../../rule-tester.js';

const DOC = 'spec/v2/core/replays.md';
const replaysDoc = (body: string) => `# Replays\n\n> **Status: Stable.**\n\n${body}\n`;

testRule('api/header-naming', {
  valid: [
    { name: 'a header spelled as declared, in a table cell', base: API_BASE, files: { [DOC]: replaysDoc('| Header | When |\n| --- | --- |\n| `OpenWOP-Idempotent-Replay: true` | a replayed answer |') } },
    { name: 'a v1 spelling in a sentence that cites v1', base: API_BASE, files: { [DOC]: replaysDoc('A v1 host sent `openwop-idempotent-replay` instead.') } },
    {
      name: 'a removed header where the text says it was removed or renamed, or cites v1',
      base: API_BASE,
      files: {
        [DOC]: replaysDoc(
          '`X-Dedup` was renamed in this version; `Capabilities-Etag` is absent from the v2 document.\n\n## Removed headers\n\n`X-Force-Engine-Version` and `X-Pack-Sha256`.\n\n## Annotations\n\n`x-openwop-retriable` in the schema mirrors the registry.',
        ),
        'schemas/v2/replay.schema.json': '{ "description": "A v1 client sent `X-Dedup` here." }\n',
      },
    },
  ],
  invalid: [
    {
      name: 'a header spelled in another case, in a table cell',
      base: API_BASE,
      files: { [DOC]: replaysDoc('| Header | When |\n| --- | --- |\n| `openwop-Idempotent-Replay: true` | a replayed answer |') },
      errors: [{ messageId: 'declared-spelling', file: DOC, line: 7, column: 4, endLine: 7, endColumn: 29, data: { header: 'openwop-Idempotent-Replay', declared: 'OpenWOP-Idempotent-Replay', document: 'api/v2/openapi.yaml' } }],
    },
    {
      name: 'a header spelled in another case, in a schema description',
      base: API_BASE,
      files: { 'schemas/v2/replay.schema.json': '{ "description": "Answered with `OPENWOP-IDEMPOTENT-REPLAY` on a replay." }\n' },
      errors: [{ messageId: 'declared-spelling', file: 'schemas/v2/replay.schema.json', line: 1, column: 34, data: { header: 'OPENWOP-IDEMPOTENT-REPLAY', declared: 'OpenWOP-Idempotent-Replay', document: 'api/v2/openapi.yaml' } }],
    },
    {
      name: 'a header removed in v2 named as if in use, in a description of the API document and in prose',
      base: API_BASE,
      files: {
        [DOC]: replaysDoc('A duplicate create answers 409 when `X-Dedup` is set.'),
        'schemas/v2/replay.schema.json': '{ "description": "Opaque correlation id for `X-Dedup` semantics." }\n',
      },
      errors: [
        { messageId: 'removed-mention', file: 'schemas/v2/replay.schema.json', line: 1, column: 46, data: { header: 'X-Dedup', listed: 'X-Dedup' } },
        { messageId: 'removed-mention', file: DOC, line: 5, column: 38, data: { header: 'X-Dedup', listed: 'X-Dedup' } },
      ],
    },
    {
      name: 'a header the headers document lists as removed, named as if in use; the replacement its list names is not',
      base: API_BASE,
      files: {
        'spec/v2/core/headers.md': '# Headers\n\n## Removed in v2\n\n`X-Trace-Hint` (use `OpenWOP-Trace`), `X-Old-Thing` and `If-Range`.\n',
        [DOC]: replaysDoc('A client sends `X-Trace-Hint` with every request, and `If-Range` too.'),
      },
      errors: [{ messageId: 'removed-mention', file: DOC, line: 5, column: 17, data: { header: 'X-Trace-Hint', listed: 'X-Trace-Hint' } }],
    },
  ],
});
