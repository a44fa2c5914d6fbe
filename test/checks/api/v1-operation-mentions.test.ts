import { doc } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';
import { OPENAPI, STREAMS } from './streams.js';

const RUNS = 'spec/v2/core/runs.md';

testRule('api/v1-operation-mentions', {
  valid: [
    {
      name: 'v2 paths, a v1 document, the doubled-prefix defect, a quoted v1 heading and prose about the overlap',
      files: {
        ...STREAMS,
        [RUNS]: doc('Runs', 'A run starts with `POST /runs`. The `/v1/v1` defect is why paths carry no version; see spec/v1/runs.md §"POST /v1/runs".\n\nThrough the overlap a client MAY still create a run at `/v1/runs` and read it at `/runs`.'),
      },
    },
    {
      name: 'a bare name of a corpus document, of a document the corpus never places under v1, and a v1 document in a sentence that cites v1',
      files: {
        ...STREAMS,
        [RUNS]: doc('Runs', 'The v1 options were in `spec/v1/run-options.md`.'),
        'schemas/v2/run.schema.json':
          '{ "description": "See `runs.md` and `stream-modes.md`.", "$defs": { "tags": { "description": "As v1 run-options.md defined them." } } }\n',
      },
    },
    { name: 'prose outside the v2 prefixes is not read', files: { ...STREAMS, 'spec/v1/runs.md': doc('Runs', 'Create a run with `POST /v1/runs`.') } },
  ],
  invalid: [
    {
      name: 'a v1 operation in running text, in a code span and in a summary',
      files: { ...STREAMS, [RUNS]: doc('Runs', 'Clients that used `/v1/runs` move to `/runs`, as /v1/agents/{agentId} did.') },
      edits: [{ file: OPENAPI, find: '      operationId: streamHostEvents', replace: "      operationId: streamHostEvents\n      summary: 'Replaces GET /v1/host/events.'" }],
      errors: [
        { messageId: 'v1-mention', file: OPENAPI, line: 14, column: 16, data: { text: '/v1/host/events', key: 'summary' } },
        { messageId: 'v1-mention-in-prose', file: RUNS, line: 7, column: 19, data: { text: '/v1/runs' } },
        { messageId: 'v1-mention-in-prose', file: RUNS, line: 7, column: 50, data: { text: '/v1/agents/{agentId}' } },
      ],
    },
    {
      name: 'a bare name of a v1 document, which the corpus names under spec/v1/, in v2 descriptions',
      files: {
        ...STREAMS,
        [RUNS]: doc('Runs', 'The v1 options were in `spec/v1/run-options.md`.'),
        'schemas/v2/run.schema.json':
          '{\n  "description": "Tags (see `run-options.md`).",\n  "$defs": { "tags": { "description": "Filter as `runs.md` and run-options.md say." } }\n}\n',
      },
      errors: [
        { messageId: 'v1-document', file: 'schemas/v2/run.schema.json', line: 2, column: 30, data: { key: 'description', name: 'run-options.md', path: 'spec/v1/run-options.md' } },
        { messageId: 'v1-document', file: 'schemas/v2/run.schema.json', line: 3, column: 64, data: { key: 'description', name: 'run-options.md', path: 'spec/v1/run-options.md' } },
      ],
    },
  ],
});
