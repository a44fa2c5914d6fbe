/**
 * events/codemap on small corpora: the events fixture (eight rows, their payloads, events.md) with
 * a row, a payload or a sentence added; each finding by id, data and place, the place worked out
 * from the case's own text.
 */
import {
  CLOSED,
  CODEMAP,
  decided,
  EVENTS_MD,
  eventsFiles,
  PAYLOADS,
  position,
  eventsCase,
  withPayloads,
  withRow,
} from '../../events/helpers.js';
import { testRule, type ExpectedFinding, type InvalidCase } from '../../rule-tester.js';

const RULE = 'events/codemap';
const base = eventsFiles();
const codemap = base[CODEMAP] ?? '';
const payloads = base[PAYLOADS] ?? '';
const events = base[EVENTS_MD] ?? '';
const SIZE = 8;
/** A finding at `needle` (the `occurrence`th) in `text` of `file`, `offset` columns in. */
function findingAt(
  file: string,
  text: string,
  needle: string,
  messageId: string,
  data: ExpectedFinding['data'],
  offset = 0,
  occurrence = 1,
): ExpectedFinding {
  const { line, column } = position(text, needle, occurrence);
  return { messageId, file, line, column: column + offset, ...(data ? { data } : {}) };
}

/** events.md with `lines` appended. */
const eventsMdWith = (...lines: string[]) => `${events}\n${lines.join('\n')}\n`;
/** The codemap with `rows` appended. */
const codemapWithRows = (...added: Array<Record<string, unknown>>) =>
  added.reduce((text, row) => withRow(text, row), codemap);
/** events.md with an event example of several lines, fenced inside a list item (so indented). */
const LEASE_EXAMPLE_MD = eventsMdWith(
  '- A lease event:',
  '',
  '  ```json',
  '  {',
  '    "eventId": "evt_1",',
  '    "sequence": 4,',
  '    "payload": {},',
  '    "type": "lease.acquird"',
  '  }',
  '  ```',
);
/** A codemap whose `run.resuming` row has another v1 name. */
const renamedFrom = (v1: string) => codemap.replace('"v1": "run.resuming"', `"v1": "${v1}"`);

const ORCHESTRATOR = decided('orchestrator.decided', 'runStarted', {
  v1: 'supervisor.decided',
  note: 'the domain is the orchestrator',
});
const openapiWithStreamMode = (pattern: string) =>
  `openapi: 3.1.0\ninfo: { title: t, version: '2.0' }\npaths:\n  /runs/{runId}/events:\n    get:\n      operationId: streamRunEvents\n      parameters:\n        - $ref: '#/components/parameters/StreamMode'\n      responses:\n        '200': { description: ok }\ncomponents:\n  parameters:\n    StreamMode:\n      name: streamMode\n      in: query\n      schema:\n        type: string\n        pattern: '${pattern}'\n`;
/** An AsyncAPI document declaring `output.streamed` as a message, carried by the host channel or by none. */
const asyncapiCarrying = (carried: boolean) =>
  `asyncapi: 3.1.0\ninfo: { title: t, version: '2.0' }\nchannels:\n  hostEvents:\n    address: /host/events\n    messages:\n${carried ? "      streamed: { $ref: '#/components/messages/Streamed' }\n" : "      other: { $ref: '#/components/messages/Other' }\n"}components:\n  messages:\n    Streamed: { name: output.streamed }\n    Other: { name: host.pinged }\n`;
/** events.md with a table whose Emits column names `output.streamed`. */
const EMITS_STREAMED = '| Mode | Emits |\n| --- | --- |\n| `messages` | `output.streamed` chunks |';
const STREAM_MODE = '^(values|(updates|messages|debug)(,(updates|messages|debug))*)$';

const cases = {
  valid: [
    eventsCase('a consistent codemap, payload registry and prose', {}),
    eventsCase('a domain.noun type whose note opens "artifact event"', {
      [CODEMAP]: codemapWithRows(
        decided('voice.transcript', 'outputChunk', { note: 'artifact event; noun form permitted' }),
      ),
    }),
    eventsCase('a rename whose reason is in `notes`', {
      [CODEMAP]: codemapWithRows(
        decided('voice.speech-started', 'outputChunk', {
          v1: 'voice.speech_started',
          notes: ['case/separator normalised'],
        }),
      ),
    }),
    eventsCase('the v2 names of renamed types, and three-segment names that are fields', {
      [CODEMAP]: renamedFrom('run.resume.started'),
      [EVENTS_MD]: eventsMdWith(
        'A host emits `run.resume-started`, then `lease.lost`; `run.cancelled.reason` and `ctx.storage.kv` are no types.',
      ),
    }),
    eventsCase('a two-segment name the text does not say is an event', {
      [EVENTS_MD]: eventsMdWith('The `negotiation.decided` flag is a field. A host emits `payload.outputs` with it.'),
    }),
    eventsCase('a name in an Emits column that a channel of the AsyncAPI document carries', {
      'api/v2/asyncapi.yaml': asyncapiCarrying(true),
      [EVENTS_MD]: eventsMdWith(EMITS_STREAMED),
    }),
    eventsCase('a name in an Emits column that the prose states is a frame name, not a type', {
      'api/v2/asyncapi.yaml': asyncapiCarrying(false),
      [EVENTS_MD]: eventsMdWith(
        EMITS_STREAMED,
        '',
        'Two frame names are not types: `state.snapshot` and `output.streamed`.',
      ),
    }),
    eventsCase('a name in a simple past where the sentence says nothing fires or is emitted', {
      [EVENTS_MD]: eventsMdWith('The `phase` field reads `dispatch.began` once the worker starts.'),
    }),
    eventsCase(
      'a v1 name quoted where the sentence, the section heading or the column cites v1, or in a generated region',
      {
        [CODEMAP]: codemapWithRows(ORCHESTRATOR),
        [EVENTS_MD]: eventsMdWith(
          'A v1 host wrote `run.resuming` where v2 writes `run.resume-started`, and `supervisor.decided` in a v1 log.',
          '',
          '## Reading a v1 log',
          '',
          'The log may hold `run.resuming`.',
          '',
          '## Renames',
          '',
          '| Era-2 name | v2 type |',
          '| --- | --- |',
          '| `run.resuming` | `run.resume-started` |',
          '',
          '<!-- generated: events/x from spec/v2/event-codemap.json; do not edit -->',
          'Renamed: `run.resuming`.',
          '<!-- /generated: events/x -->',
        ),
      },
    ),
    eventsCase('a v1 name in a file shared by both versions whose sentence cites a v1 document', {
      [CODEMAP]: renamedFrom('run.resume.started'),
      'SECURITY/invariants.yaml':
        'invariants:\n  - id: resume-audit\n    note: |\n      Hosts emitting `run.resume.started` MUST log it (per `spec/v1/runs.md`).\n',
    }),
    eventsCase('a right count of the codemap, and rows of another table', {
      [EVENTS_MD]: eventsMdWith(
        `The codemap \`spec/v2/event-codemap.json\` has ${SIZE} rows, one per v1 name. The table below has ${SIZE + 5} rows.`,
        '',
        'The renamed table of the codemap has 6 rows.',
        '',
        'A v1 log may hold 3 distinct v1 names the table does not list.',
      ),
    }),
    eventsCase('a streamMode pattern the same as events.md states', {
      'api/v2/openapi.yaml': openapiWithStreamMode(STREAM_MODE),
    }),
  ],
  invalid: [
    eventsCase(
      'a three-segment type, at its v2 value',
      { [CODEMAP]: codemapWithRows(decided('ai.message.chunk', 'outputChunk')) },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(decided('ai.message.chunk', 'outputChunk')),
            '"v2":"ai.message.chunk"',
            'segments',
            { type: 'ai.message.chunk', segments: 3 },
            5,
          ),
        ],
      },
    ),
    eventsCase(
      'a type under a pack namespace and one under the reserved prefix',
      {
        [CODEMAP]: codemapWithRows(
          decided('core.node-started', 'leaseLifecycle'),
          decided('openwop.run-started', 'leaseLifecycle'),
        ),
      },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(decided('core.node-started', 'leaseLifecycle')),
            '"v2":"core.node-started"',
            'pack-namespace',
            { type: 'core.node-started', namespace: 'core' },
            5,
          ),
          findingAt(
            CODEMAP,
            codemapWithRows(
              decided('core.node-started', 'leaseLifecycle'),
              decided('openwop.run-started', 'leaseLifecycle'),
            ),
            '"v2":"openwop.run-started"',
            'reserved-prefix',
            { type: 'openwop.run-started', prefix: 'openwop' },
            5,
          ),
        ],
      },
    ),
    eventsCase(
      'a domain.noun type whose note records no exception',
      { [CODEMAP]: codemapWithRows(decided('voice.transcript', 'outputChunk', { note: 'separator normalised' })) },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(decided('voice.transcript', 'outputChunk', { note: 'separator normalised' })),
            '"v2":"voice.transcript"',
            'tense',
            { type: 'voice.transcript' },
            5,
          ),
        ],
      },
    ),
    eventsCase(
      'an exception recorded for a type that follows the rule',
      {
        [CODEMAP]: codemapWithRows(
          decided('voice.cancelled', 'outputChunk', { note: 'artifact event; not one at all, in fact' }),
        ),
      },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(
              decided('voice.cancelled', 'outputChunk', { note: 'artifact event; not one at all, in fact' }),
            ),
            '"artifact event; not one',
            'needless-exception',
            { type: 'voice.cancelled' },
          ),
        ],
      },
    ),
    eventsCase(
      'a type given a second row',
      {
        [CODEMAP]: codemapWithRows(
          decided('lease.acquired', 'leaseLifecycle', { v1: 'lease.taken', note: 'A second row for one type.' }),
        ),
      },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(
              decided('lease.acquired', 'leaseLifecycle', { v1: 'lease.taken', note: 'A second row for one type.' }),
            ),
            '"v2":"lease.acquired"',
            'duplicate-type',
            { type: 'lease.acquired', line: position(codemap, '"v1": "lease.acquired"').line },
            5,
          ),
        ],
      },
    ),
    eventsCase(
      'an era-2 name mapped twice',
      {
        [CODEMAP]: codemapWithRows(
          decided('run.resume-failed', 'runResumeStarted', {
            v1: 'run.resuming',
            note: 'Another rename of the same v1 name.',
          }),
        ),
      },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(
              decided('run.resume-failed', 'runResumeStarted', {
                v1: 'run.resuming',
                note: 'Another rename of the same v1 name.',
              }),
            ),
            '"v1":"run.resuming"',
            'duplicate-v1',
            { v1: 'run.resuming', line: position(codemap, '"v1": "run.resuming"').line, type: 'run.resume-started' },
            5,
          ),
        ],
      },
    ),
    eventsCase(
      'a row not decided and under review, a v2 that disagrees with its override, and a rename with no note',
      {
        [CODEMAP]: codemapWithRows(
          decided('lease.renewed', 'leaseLifecycle', { status: 'proposed', review: true }),
          decided('lease.handed-over', 'leaseLifecycle', { v1: 'lease.handed-off', v2Override: 'lease.handed-off' }),
          decided('node.started', 'leaseLifecycle', { v1: 'node.starting' }),
        ),
      },
      {
        errors: (() => {
          const text = codemapWithRows(
            decided('lease.renewed', 'leaseLifecycle', { status: 'proposed', review: true }),
            decided('lease.handed-over', 'leaseLifecycle', { v1: 'lease.handed-off', v2Override: 'lease.handed-off' }),
            decided('node.started', 'leaseLifecycle', { v1: 'node.starting' }),
          );
          return [
            findingAt(
              CODEMAP,
              text,
              '"status":"proposed"',
              'undecided',
              { type: 'lease.renewed', status: 'proposed' },
              9,
            ),
            {
              ...findingAt(CODEMAP, text, '"review":true', 'under-review', { type: 'lease.renewed' }, 9),
              severity: 'warning' as const,
            },
            findingAt(
              CODEMAP,
              text,
              '"v2":"lease.handed-over"',
              'override-differs',
              { v2: 'lease.handed-over', override: 'lease.handed-off' },
              5,
            ),
            findingAt(CODEMAP, text, '"v1":"node.starting"', 'rename-without-note', {
              v1: 'node.starting',
              type: 'node.started',
            }),
          ];
        })(),
      },
    ),
    eventsCase(
      'a payloadDef that names no $defs entry',
      { [CODEMAP]: codemapWithRows(decided('lease.renewed', 'leaseLifecycel')) },
      {
        errors: [
          findingAt(
            CODEMAP,
            codemapWithRows(decided('lease.renewed', 'leaseLifecycel')),
            '"leaseLifecycel"',
            'unknown-payload',
            {
              payloadDef: 'leaseLifecycel',
              type: 'lease.renewed',
              target: PAYLOADS,
            },
          ),
        ],
      },
    ),
    // The payloads file is one events/types only splices `_typeIndex` into: a finding in its
    // hand-written `$defs` stays there, though a generated file writes the same text
    // (`"additionalProperties": true`); core/run/relocate.ts moves only what lies in a spliced member.
    eventsCase(
      'a payload with additionalProperties: true, in the hand-written part of a spliced file',
      {
        [PAYLOADS]: withPayloads(payloads, {
          leaseLifecycle: { type: 'object', properties: { holder: { type: 'string' } }, additionalProperties: true },
        }),
      },
      {
        errors: [
          findingAt(
            PAYLOADS,
            withPayloads(payloads, {
              leaseLifecycle: {
                type: 'object',
                properties: { holder: { type: 'string' } },
                additionalProperties: true,
              },
            }),
            '"additionalProperties": true',
            'open-payload',
            { payload: 'leaseLifecycle', keyword: 'additionalProperties', value: 'true' },
          ),
        ],
      },
    ),
    eventsCase(
      'a payload with unevaluatedProperties: true',
      {
        [PAYLOADS]: withPayloads(payloads, {
          leaseLifecycle: { type: 'object', properties: { holder: { type: 'string' } }, unevaluatedProperties: true },
        }),
      },
      {
        errors: [
          findingAt(
            PAYLOADS,
            withPayloads(payloads, {
              leaseLifecycle: {
                type: 'object',
                properties: { holder: { type: 'string' } },
                unevaluatedProperties: true,
              },
            }),
            '"unevaluatedProperties": true',
            'open-payload',
            { payload: 'leaseLifecycle', keyword: 'unevaluatedProperties', value: 'true' },
          ),
        ],
      },
    ),
    eventsCase(
      'a payload not closed, and one widening a closed base',
      {
        [PAYLOADS]: withPayloads(payloads, {
          leaseLifecycle: { type: 'object', properties: { holder: { type: 'string' } } },
          approvalRequested: {
            type: 'object',
            $ref: '#/$defs/interruptRequested',
            properties: { kind: { const: 'approval' }, approver: { type: 'string' } },
          },
        }),
      },
      {
        errors: (() => {
          const text = withPayloads(payloads, {
            leaseLifecycle: { type: 'object', properties: { holder: { type: 'string' } } },
            approvalRequested: {
              type: 'object',
              $ref: '#/$defs/interruptRequested',
              properties: { kind: { const: 'approval' }, approver: { type: 'string' } },
            },
          });
          return [
            findingAt(PAYLOADS, text, '"approver"', 'widens-base', {
              payload: 'approvalRequested',
              base: 'interruptRequested',
              extra: '`approver`',
            }),
            findingAt(PAYLOADS, text, '"leaseLifecycle": {', 'unclosed-payload', { payload: 'leaseLifecycle' }),
          ];
        })(),
      },
    ),
    eventsCase(
      'a payload composing an open one',
      {
        [PAYLOADS]: withPayloads(payloads, {
          interruptRequested: { type: 'object', unevaluatedProperties: {}, properties: { kind: {} } },
        }),
      },
      {
        errors: (() => {
          const text = withPayloads(payloads, {
            interruptRequested: { type: 'object', unevaluatedProperties: {}, properties: { kind: {} } },
          });
          return [
            findingAt(PAYLOADS, text, '"unevaluatedProperties": {}', 'open-payload', {
              payload: 'interruptRequested',
              keyword: 'unevaluatedProperties',
              value: '{}',
            }),
            findingAt(PAYLOADS, text, '"$ref": "#/$defs/interruptRequested"', 'open-base', {
              payload: 'approvalRequested',
              base: 'interruptRequested',
            }),
          ];
        })(),
      },
    ),
    eventsCase(
      'a payload no row uses or composes',
      { [PAYLOADS]: withPayloads(payloads, { orphan: CLOSED() }) },
      {
        errors: [
          findingAt(PAYLOADS, withPayloads(payloads, { orphan: CLOSED() }), '"orphan"', 'orphan-payload', {
            payload: 'orphan',
          }),
        ],
      },
    ),
    eventsCase(
      'an unregistered protocol type in an event column and in an event example',
      {
        [EVENTS_MD]: events
          .replace('| `run.started` |', '| `run.begun` |')
          .replace('"type": "acme.widget-built"', '"type": "lease.acquird"'),
      },
      {
        errors: (() => {
          const text = events
            .replace('| `run.started` |', '| `run.begun` |')
            .replace('"type": "acme.widget-built"', '"type": "lease.acquird"');
          return [
            findingAt(EVENTS_MD, text, '`run.begun`', 'unregistered-type', { type: 'run.begun', domain: 'run' }, 1),
            findingAt(
              EVENTS_MD,
              text,
              '"lease.acquird"',
              'unregistered-type',
              { type: 'lease.acquird', domain: 'lease' },
              1,
            ),
          ];
        })(),
      },
    ),
    eventsCase(
      'an unregistered protocol type in an event example of several lines, fenced inside a list item',
      {
        [EVENTS_MD]: LEASE_EXAMPLE_MD,
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            LEASE_EXAMPLE_MD,
            '"lease.acquird"',
            'unregistered-type',
            { type: 'lease.acquird', domain: 'lease' },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a three-segment v1 name the codemap renames, and a three-segment domain transition, in prose',
      {
        [CODEMAP]: renamedFrom('run.resume.started'),
        [EVENTS_MD]: eventsMdWith('A host emits `run.resume.started`, then `lease.renewal.failed`.'),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith('A host emits `run.resume.started`, then `lease.renewal.failed`.'),
            '`run.resume.started`',
            'v1-type',
            { type: 'run.resume.started', v2: 'run.resume-started', segments: 3 },
            1,
          ),
          findingAt(
            EVENTS_MD,
            eventsMdWith('A host emits `run.resume.started`, then `lease.renewal.failed`.'),
            '`lease.renewal.failed`',
            'unregistered-type',
            { type: 'lease.renewal.failed', domain: 'lease' },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a two-segment v1 name the codemap renames to another domain, in v2 prose outside the sentence that cites v1',
      {
        [CODEMAP]: codemapWithRows(ORCHESTRATOR),
        [EVENTS_MD]: eventsMdWith(
          'Each turn records one decision as `supervisor.decided`. A v1 log wrote `supervisor.decided` too.',
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith('Each turn records one decision as `supervisor.decided`.'),
            '`supervisor.decided`',
            'v1-type',
            { type: 'supervisor.decided', v2: 'orchestrator.decided', segments: 2 },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a two-segment v1 name in its own section of a v2 document that cites a v1 document in another',
      {
        [EVENTS_MD]: eventsMdWith(
          '## Reading old logs',
          '',
          'The translation of an era-2 log follows [the v1 events document](../../v1/events.md).',
          '',
          '## Resumption',
          '',
          'A host MAY emit `run.resuming` once the run resumes.',
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith(
              '## Reading old logs',
              '',
              'The translation of an era-2 log follows [the v1 events document](../../v1/events.md).',
              '',
              '## Resumption',
              '',
              'A host MAY emit `run.resuming` once the run resumes.',
            ),
            '`run.resuming` once',
            'v1-type',
            { type: 'run.resuming', v2: 'run.resume-started', segments: 2 },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a two-segment v1 name in a schema description',
      { 'schemas/v2/extra.schema.json': '{ "description": "Emitted as `run.resuming` when the run resumes." }\n' },
      {
        errors: [
          {
            messageId: 'v1-type',
            file: 'schemas/v2/extra.schema.json',
            line: 1,
            column: 31,
            data: { type: 'run.resuming', v2: 'run.resume-started', segments: 2 },
          },
        ],
      },
    ),
    eventsCase(
      'a three-segment v1 name in a code span of a JSON string',
      {
        [CODEMAP]: renamedFrom('run.resume.started'),
        'schemas/v2/extra.schema.json':
          '{ "description": "Emitted after \\u2014 `run.resume.started`; `run.cancelled.reason` is a field." }\n',
      },
      {
        errors: [
          {
            messageId: 'v1-type',
            file: 'schemas/v2/extra.schema.json',
            line: 1,
            column: 41,
            data: { type: 'run.resume.started', v2: 'run.resume-started', segments: 3 },
          },
        ],
      },
    ),
    eventsCase(
      'a v1 name in a file shared by both versions whose sentence cites no v1 document',
      {
        [CODEMAP]: renamedFrom('run.resume.started'),
        'SECURITY/invariants.yaml':
          'invariants:\n  - id: resume-audit\n    note: |\n      Hosts emitting `run.resume.started` MUST log it.\n',
      },
      {
        errors: [
          {
            messageId: 'v1-type',
            file: 'SECURITY/invariants.yaml',
            line: 4,
            column: 23,
            data: { type: 'run.resume.started', v2: 'run.resume-started', segments: 3 },
          },
        ],
      },
    ),
    eventsCase(
      'names in no codemap row where the text says a host emits them or they fire',
      {
        [EVENTS_MD]: eventsMdWith(
          'Every outcome MUST emit a `negotiation.decided` event.',
          '',
          '- `result.harvested` fires exactly when a child completes.',
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith('Every outcome MUST emit a `negotiation.decided` event.'),
            '`negotiation.decided`',
            'unregistered-event',
            { type: 'negotiation.decided', codemap: CODEMAP },
            1,
          ),
          findingAt(
            EVENTS_MD,
            eventsMdWith(
              'Every outcome MUST emit a `negotiation.decided` event.',
              '',
              '- `result.harvested` fires exactly when a child completes.',
            ),
            '`result.harvested`',
            'unregistered-event',
            { type: 'result.harvested', codemap: CODEMAP },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a name in a simple past under a protocol domain and one under none, in a sentence that says something fires',
      {
        [EVENTS_MD]: eventsMdWith(
          'The host MUST fire a `clarification` interrupt before any `lease.began` for that decision, and `quota.broke` fires after.',
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith('The host MUST fire a `clarification` interrupt before any `lease.began` for that decision'),
            '`lease.began`',
            'unregistered-type',
            { type: 'lease.began', domain: 'lease' },
            1,
          ),
          findingAt(
            EVENTS_MD,
            eventsMdWith(
              'The host MUST fire a `clarification` interrupt before any `lease.began` for that decision, and `quota.broke` fires after.',
            ),
            '`quota.broke`',
            'unregistered-event',
            { type: 'quota.broke', codemap: CODEMAP },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a name in an Emits column that the AsyncAPI document declares but no channel carries and no sentence calls a frame',
      { 'api/v2/asyncapi.yaml': asyncapiCarrying(false), [EVENTS_MD]: eventsMdWith(EMITS_STREAMED) },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith(EMITS_STREAMED),
            '`output.streamed`',
            'unregistered-type',
            { type: 'output.streamed', domain: 'output' },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      "a count of the codemap's rows that is not its size",
      {
        [EVENTS_MD]: eventsMdWith(
          `The codemap \`spec/v2/event-codemap.json\` is a bijection: it has ${SIZE + 1} rows.`,
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith(`The codemap \`spec/v2/event-codemap.json\` is a bijection: it has ${SIZE + 1} rows.`),
            `${SIZE + 1} rows`,
            'count-wrong',
            { registry: `the codemap (${CODEMAP})`, phrase: `${SIZE + 1} rows`, count: SIZE, written: SIZE + 1 },
          ),
        ],
      },
    ),
    eventsCase(
      "a count of the codemap's names, v1 and v2, in the sentence that calls it a bijection",
      {
        [EVENTS_MD]: eventsMdWith(
          `The codemap \`spec/v2/event-codemap.json\` is a bijection: ${SIZE} rows, ${SIZE + 1} distinct \`v1\` names, ${SIZE} distinct \`v2\` names.`,
        ),
      },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            eventsMdWith(
              `The codemap \`spec/v2/event-codemap.json\` is a bijection: ${SIZE} rows, ${SIZE + 1} distinct`,
            ),
            `${SIZE + 1} distinct`,
            'count-wrong',
            {
              registry: `the codemap (${CODEMAP})`,
              phrase: `${SIZE + 1} distinct \`v1\` names`,
              count: SIZE,
              written: SIZE + 1,
            },
          ),
        ],
      },
    ),
    eventsCase(
      "a count of the codemap's rows in a schema description",
      {
        'schemas/v2/extra.schema.json': `{ "description": "The codemap (spec/v2/event-codemap.json) has ${SIZE + 2} entries." }\n`,
      },
      {
        errors: [
          {
            messageId: 'count-wrong',
            file: 'schemas/v2/extra.schema.json',
            line: 1,
            column: 64,
            data: {
              registry: `the codemap (${CODEMAP})`,
              phrase: `${SIZE + 2} entries`,
              count: SIZE,
              written: SIZE + 2,
            },
          },
        ],
      },
    ),
    eventsCase(
      'a wildcard of no known domain',
      { [EVENTS_MD]: events.replace('| `lease.*` |', '| `leases.*` |') },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            events.replace('| `lease.*` |', '| `leases.*` |'),
            '`leases.*`',
            'unknown-domain',
            { type: 'leases.*' },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a name that is neither a protocol type nor a well-formed vendor type',
      { [EVENTS_MD]: events.replace('"type": "acme.widget-built"', '"type": "acme.widget_built"') },
      {
        errors: [
          findingAt(
            EVENTS_MD,
            events.replace('"type": "acme.widget-built"', '"type": "acme.widget_built"'),
            '"acme.widget_built"',
            'malformed-type',
            { type: 'acme.widget_built' },
            1,
          ),
        ],
      },
    ),
    eventsCase(
      'a streamMode pattern that differs from events.md',
      { 'api/v2/openapi.yaml': openapiWithStreamMode('^(updates|values|messages|debug)$') },
      {
        errors: [
          findingAt(
            'api/v2/openapi.yaml',
            openapiWithStreamMode('^(updates|values|messages|debug)$'),
            "'^(updates",
            'stream-mode-differs',
            {
              pattern: '^(updates|values|messages|debug)$',
              stated: STREAM_MODE,
              line: position(events, STREAM_MODE).line,
            },
          ),
        ],
      },
    ),
    eventsCase(
      'a streamRunEvents without a streamMode parameter',
      {
        'api/v2/openapi.yaml': openapiWithStreamMode(STREAM_MODE).replace(
          "      parameters:\n        - $ref: '#/components/parameters/StreamMode'\n",
          '      parameters: []\n',
        ),
      },
      {
        errors: [
          findingAt('api/v2/openapi.yaml', openapiWithStreamMode(STREAM_MODE), 'get:', 'no-stream-mode', undefined),
        ],
      },
    ),
    eventsCase(
      'a codemap that does not match its schema, its rows still read',
      {
        [CODEMAP]: codemap.replace(
          '"status": "decided", "review": false },\n    { "v1": "run.completed"',
          '"status": "maybe", "review": false },\n    { "v1": "run.completed"',
        ),
      },
      {
        errors: (() => {
          const text = codemap.replace(
            '"status": "decided", "review": false },\n    { "v1": "run.completed"',
            '"status": "maybe", "review": false },\n    { "v1": "run.completed"',
          );
          return [
            findingAt(
              EVENTS_MD,
              events,
              '`run.started`',
              'unregistered-type',
              { type: 'run.started', domain: 'run' },
              1,
            ),
            findingAt(CODEMAP, text, '"status": "maybe"', 'schema-mismatch', undefined),
            findingAt(CODEMAP, text, '"status": "maybe"', 'undecided', { type: 'run.started', status: 'maybe' }, 10),
          ];
        })(),
      },
    ),
  ] as InvalidCase[],
};

testRule(RULE, cases);
