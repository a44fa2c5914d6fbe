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
  ],
});
