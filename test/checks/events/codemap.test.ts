import { describe, expect, it } from 'vitest';
import { run, where } from '../../helpers.js';
import { at, CLOSED, CODEMAP, decided, EVENTS_MD, eventsCorpus, eventsFiles, PAYLOADS, withPayloads, withRow } from '../../events/helpers.js';

const RULE = 'events/codemap';
const base = eventsFiles();
const codemap = base[CODEMAP] ?? '';
const payloads = base[PAYLOADS] ?? '';
const events = base[EVENTS_MD] ?? '';

/** The codemap with `row` appended, and the findings of the gate on it. */
function withExtraRow(row: Record<string, unknown>, extraDefs: Record<string, unknown> = {}) {
  const text = withRow(codemap, row);
  const overrides: Record<string, string> = { [CODEMAP]: text };
  if (Object.keys(extraDefs).length > 0) overrides[PAYLOADS] = withPayloads(payloads, extraDefs);
  return { text, found: run(RULE, eventsCorpus(overrides)) };
}

describe('events/codemap', () => {
  it('is quiet on a consistent codemap, payload registry and prose', () => {
    expect(run(RULE, eventsCorpus())).toEqual([]);
  });

  it('says nothing when a corpus has no codemap', () => {
    expect(run(RULE, eventsCorpus({ [CODEMAP]: null }))).toEqual([]);
  });

  it('fires on a three-segment type at its v2 value', () => {
    const { text, found } = withExtraRow(decided('ai.message.chunk', 'outputChunk'));
    expect(where(found)).toEqual([at(CODEMAP, text, '"v2":"ai.message.chunk"', 5)]);
    expect(found[0]?.message).toMatch(/has 3 segments; a protocol type has exactly two/);
    expect(found[0]?.hint).toContain('ai.message-chunk');
  });

  it('fires on a type under a pack namespace or the reserved prefix', () => {
    const pack = withExtraRow(decided('core.node-started', 'leaseLifecycle'));
    expect(where(pack.found)).toEqual([at(CODEMAP, pack.text, '"v2":"core.node-started"', 5)]);
    expect(pack.found[0]?.message).toMatch(/`core\.`, a pack namespace, not an event namespace/);
    const reserved = withExtraRow(decided('openwop.run-started', 'leaseLifecycle'));
    expect(reserved.found.map((d) => d.message)).toEqual([expect.stringMatching(/under `openwop\.`, the prefix the protocol reserves/)]);
  });

  it('fires on a domain.noun type with no recorded exception, and accepts it with a note that opens "artifact event"', () => {
    const bare = withExtraRow(decided('voice.transcript', 'outputChunk'));
    expect(where(bare.found)).toEqual([at(CODEMAP, bare.text, '"v2":"voice.transcript"', 5)]);
    expect(bare.found[0]?.message).toMatch(/is not past tense/);
    expect(bare.found[0]?.hint).toMatch(/a note that opens with "artifact event"/);
    const noted = withExtraRow(decided('voice.transcript', 'outputChunk', { note: 'artifact event; noun form permitted' }));
    expect(noted.found).toEqual([]);
    const other = withExtraRow(decided('voice.transcript', 'outputChunk', { note: 'separator normalised' }));
    expect(other.found.map((d) => d.message)).toEqual([expect.stringMatching(/`voice\.transcript` is not past tense/)]);
  });

  it('no longer admits an `exception` member: the note is the one place an exception is recorded', () => {
    const old = withExtraRow(decided('voice.transcript', 'outputChunk', { exception: { form: 'domain.noun', reason: 'An emitted artifact: a transcript segment.' } }));
    expect(old.found.map((d) => d.message)).toEqual([expect.stringMatching(/`voice\.transcript` is not past tense/), expect.stringMatching(/\/rows\/\d+: property "exception" is not allowed/)]);
  });

  it('takes the reason for a rename from `notes` as well as from `note`', () => {
    const renamed = (extra: Record<string, unknown>) => withExtraRow(decided('voice.speech-started', 'outputChunk', { v1: 'voice.speech_started', ...extra }));
    expect(renamed({ notes: ['case/separator normalised'] }).found).toEqual([]);
    const bare = renamed({ notes: [] });
    expect(where(bare.found)).toEqual([at(CODEMAP, bare.text, '"v1":"voice.speech_started"', 0)]);
    expect(bare.found[0]?.message).toBe('`voice.speech_started` is renamed to `voice.speech-started` with no `note` saying why');
  });

  it('fires on an exception recorded for a type that follows the rule', () => {
    const { text, found } = withExtraRow(decided('voice.cancelled', 'outputChunk', { note: 'artifact event; not one at all, in fact' }));
    expect(where(found)).toEqual([at(CODEMAP, text, '"artifact event; not one', 0)]);
    expect(found[0]?.message).toMatch(/records a naming exception, but it follows the rule/);
  });

  it('fires on a duplicate type and on an era-2 name mapped twice', () => {
    const type = withExtraRow(decided('lease.acquired', 'leaseLifecycle', { v1: 'lease.taken', note: 'A second row for one type.' }));
    expect(where(type.found)).toEqual([at(CODEMAP, type.text, '"v2":"lease.acquired"', 5)]);
    expect(type.found[0]?.message).toMatch(/also the type of the row at line \d+/);
    const v1 = withExtraRow(decided('run.resume-failed', 'runResumeStarted', { v1: 'run.resuming', note: 'Another rename of the same v1 name.' }));
    expect(where(v1.found)).toEqual([at(CODEMAP, v1.text, '"v1":"run.resuming"', 5)]);
    expect(v1.found[0]?.message).toMatch(/era-2 name `run\.resuming` is mapped again/);
  });

  it('fires on a row that is not decided, one marked for review, a v2 that disagrees with its override, and a rename with no note', () => {
    const text = withRow(
      withRow(withRow(codemap, decided('lease.renewed', 'leaseLifecycle', { status: 'proposed', review: true })), decided('lease.handed-over', 'leaseLifecycle', { v1: 'lease.handed-off', v2Override: 'lease.handed-off' })),
      decided('node.started', 'leaseLifecycle', { v1: 'node.starting' }),
    );
    const found = run(RULE, eventsCorpus({ [CODEMAP]: text }));
    expect(where(found)).toEqual([
      at(CODEMAP, text, '"status":"proposed"', 9),
      at(CODEMAP, text, '"review":true', 9),
      at(CODEMAP, text, '"v2":"lease.handed-over"', 5),
      at(CODEMAP, text, '"v1":"node.starting"', 0),
    ]);
    expect(found.map((d) => d.severity)).toEqual(['error', 'warning', 'error', 'error']);
    expect(found[2]?.message).toMatch(/the override wins/);
    expect(found[3]?.message).toMatch(/renamed to `node\.started` with no `note`/);
  });

  it('fires on a payloadDef that names no $defs entry, with a suggestion', () => {
    const { text, found } = withExtraRow(decided('lease.renewed', 'leaseLifecycel'));
    expect(where(found)).toEqual([at(CODEMAP, text, '"leaseLifecycel"', 0)]);
    expect(found[0]?.hint).toBe('did you mean `leaseLifecycle`?');
  });

  it('fires on a payload entry with additionalProperties: true, at that keyword', () => {
    const open = withPayloads(payloads, { leaseLifecycle: { ...CLOSED({ holder: { type: 'string' } }), additionalProperties: true } });
    const found = run(RULE, eventsCorpus({ [PAYLOADS]: open }));
    expect(where(found)).toEqual([at(PAYLOADS, open, '"additionalProperties": true', 0)]);
    expect(found[0]?.message).toMatch(/payload `leaseLifecycle` is open: additionalProperties is true/);
  });

  it('fires on an entry that is not closed, one composing an open entry, and one widening a closed base', () => {
    const text = withPayloads(payloads, {
      leaseLifecycle: { type: 'object', properties: { holder: { type: 'string' } } },
      approvalRequested: { type: 'object', $ref: '#/$defs/interruptRequested', properties: { kind: { const: 'approval' }, approver: { type: 'string' } } },
    });
    const found = run(RULE, eventsCorpus({ [PAYLOADS]: text }));
    expect(where(found)).toEqual([at(PAYLOADS, text, '"approver"', 0), at(PAYLOADS, text, '"leaseLifecycle": {', 0)]);
    expect(found[0]?.message).toMatch(/composes the closed `interruptRequested` but adds `approver`/);
    expect(found[1]?.message).toMatch(/is not closed/);
    const viaOpen = withPayloads(payloads, { interruptRequested: { type: 'object', additionalProperties: {}, properties: { kind: {} } } });
    expect(run(RULE, eventsCorpus({ [PAYLOADS]: viaOpen })).map((d) => d.message)).toEqual([
      expect.stringMatching(/`interruptRequested` is open: additionalProperties is \{\}/),
      expect.stringMatching(/`approvalRequested` composes `interruptRequested`, which is not closed/),
    ]);
  });

  it('fires on a payload entry no row uses or composes, and accepts one that is only composed', () => {
    const text = withPayloads(payloads, { orphan: CLOSED() });
    const found = run(RULE, eventsCorpus({ [PAYLOADS]: text }));
    expect(where(found)).toEqual([at(PAYLOADS, text, '"orphan"', 0)]);
    expect(found[0]?.message).toMatch(/neither the payloadDef of a codemap row nor composed into one/);
    // outputMeta is named by no row: outputChunk composes it.
    expect(payloads).toContain('"outputMeta"');
  });

  it('reports a codemap that does not match its schema, and still checks the rows it can read', () => {
    const text = codemap.replace('"status": "decided", "review": false },\n    { "v1": "run.completed"', '"status": "maybe", "review": false },\n    { "v1": "run.completed"');
    const found = run(RULE, eventsCorpus({ [CODEMAP]: text }));
    // A schema finding points at the member whose value is wrong.
    expect(found.map((d) => d.file)).toEqual([EVENTS_MD, CODEMAP, CODEMAP]);
    expect(where(found.slice(1, 2))).toEqual([at(CODEMAP, text, '"status": "maybe"', 0)]);
    // The row is read as it is: undecided, so its type is not yet registered.
    expect(found[2]?.message).toBe('`run.started` is `maybe`; every row of the codemap is decided before it ships');
    expect(found[0]?.message).toMatch(/`run\.started` is not a registered event type/);
    expect(found[1]?.message).toMatch(/does not match spec\/v2\/event-codemap\.schema\.json: \/rows\/0\/status: must be one of "decided", "proposed"/);
  });

  it('says a value that fails two keywords of one subschema once, and values that fail different subschemas each at its place', () => {
    const schema = JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/spec/v2/event-codemap.schema.json', type: 'object', properties: { version: { type: 'integer', const: 1 }, updated: { type: 'string', pattern: '^\\d{4}-' } } }, null, 2);
    const text = codemap.replace('"updated": "2026-11-29"', '"updated": 2026');
    const found = run(RULE, eventsCorpus({ [CODEMAP]: text, 'spec/v2/event-codemap.schema.json': schema })).filter((d) => d.message.startsWith('does not match'));
    expect(found.map((d) => `${d.line} ${d.message}`)).toEqual([
      `${at(CODEMAP, text, '"version"', 0).split(':')[1]} does not match spec/v2/event-codemap.schema.json: /version: must be integer, and must be 1`,
      `${at(CODEMAP, text, '"updated"', 0).split(':')[1]} does not match spec/v2/event-codemap.schema.json: /updated: must be string`,
    ]);
  });

  it('fires on an unregistered protocol type named in an event column or an event example', () => {
    const text = events.replace('| `run.started` |', '| `run.begun` |').replace('"type": "acme.widget-built"', '"type": "lease.acquird"');
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: text }));
    expect(where(found)).toEqual([at(EVENTS_MD, text, '`run.begun`', 1), at(EVENTS_MD, text, '"lease.acquird"', 1)]);
    expect(found[0]?.message).toMatch(/`run\.begun` is not a registered event type/);
    expect(found[1]?.hint).toBe('did you mean `lease.acquired`?');
  });

  it('fires on a three-segment event type in any code span of prose: a v1 name the codemap renames, or a domain transition', () => {
    const renamed = codemap.replace('"v1": "run.resuming"', '"v1": "run.resume.started"');
    const prose = `${events}\nA host emits \`run.resume.started\`, then \`lease.renewal.failed\`; \`run.cancelled.reason\` and \`ctx.storage.kv\` are no types.\n`;
    const found = run(RULE, eventsCorpus({ [CODEMAP]: renamed, [EVENTS_MD]: prose }));
    expect(where(found)).toEqual([at(EVENTS_MD, prose, '`run.resume.started`', 1), at(EVENTS_MD, prose, '`lease.renewal.failed`', 1)]);
    expect(found[0]?.message).toBe('`run.resume.started` is the v1 name of an event type (3 segments); in v2 it is `run.resume-started`');
    expect(found[1]?.message).toMatch(/`lease\.renewal\.failed` is not a registered event type/);
    const fixed = prose.replace('`run.resume.started`', '`run.resume-started`').replace('`lease.renewal.failed`', '`lease.lost`');
    expect(run(RULE, eventsCorpus({ [CODEMAP]: renamed, [EVENTS_MD]: fixed }))).toEqual([]);
  });

  it('fires on a v1 name of two segments the codemap renames, in v2 prose and descriptions, except where the sentence, section or column cites v1', () => {
    const line = 'A host MAY emit `run.resuming` once the run resumes.';
    const prose = `${events}\n${line}\n`;
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: prose }));
    expect(where(found)).toEqual([`${EVENTS_MD}:${prose.split('\n').indexOf(line) + 1}:18`]);
    expect(found[0]?.message).toBe('`run.resuming` is the v1 name of an event type (2 segments); in v2 it is `run.resume-started`');
    const schema = '{ "description": "Emitted as `run.resuming` when the run resumes." }';
    expect(where(run(RULE, eventsCorpus({ 'schemas/v2/extra.schema.json': schema })))).toEqual(['schemas/v2/extra.schema.json:1:31']);
    // Quoted in v1's terms: the sentence cites v1, the section heading does, a column is headed by the era-2 name, a generated region.
    const quoted = [
      `${events}`,
      'A v1 host wrote `run.resuming` where v2 writes `run.resume-started`.',
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
      '',
    ].join('\n');
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: quoted })).filter((d) => d.message.includes('run.resuming'))).toEqual([]);
  });

  it('compares a count of the codemap\'s rows in prose with its size, in any phrasing that names it; other rows are not its', () => {
    const rows = (JSON.parse(codemap) as { rows: unknown[] }).rows.length;
    const said = (count: number) => `${events}\nThe codemap \`spec/v2/event-codemap.json\` has ${count} rows, one per v1 name. The table below has ${count + 5} rows.\n`;
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: said(rows + 1) })).map((d) => d.message);
    expect(found).toEqual([`"${rows + 1} rows" gives the size of the codemap (spec/v2/event-codemap.json) as ${rows + 1}; it has ${rows}`]);
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: said(rows) }))).toEqual([]);
    // Rows of another table the sentence names after the codemap are that table's.
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: `${events}\nThe renamed table of the codemap has 6 rows.\n` }))).toEqual([]);
  });

  it('fires on a two-segment name in no codemap row where the text says it is an event, and not on the same name said otherwise', () => {
    const said = `${events}\nEvery outcome MUST emit a \`negotiation.decided\` event, then the \`output.harvested\` event.\n`;
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: said }));
    expect(found.map((d) => `${where([d])[0]} ${d.message}`)).toEqual([
      `${at(EVENTS_MD, said, '`negotiation.decided`', 1)} \`negotiation.decided\` is written as an event, but no row of spec/v2/event-codemap.json registers it`,
      `${at(EVENTS_MD, said, '`output.harvested`', 1)} \`output.harvested\` is not a registered event type (\`output.\` is a protocol domain, so it is no vendor type either)`,
    ]);
    const unsaid = `${events}\nThe \`negotiation.decided\` flag is a field. A host emits \`payload.outputs\` with it.\n`;
    expect(run(RULE, eventsCorpus({ [EVENTS_MD]: unsaid }))).toEqual([]);
  });

  it('fires on a three-segment event type in a code span of a JSON or YAML string, at the name', () => {
    const renamed = codemap.replace('"v1": "run.resuming"', '"v1": "run.resume.started"');
    const schema = '{ "description": "Emitted after \\u2014 `run.resume.started`; `run.cancelled.reason` is a field." }';
    const found = run(RULE, eventsCorpus({ [CODEMAP]: renamed, 'schemas/v2/extra.schema.json': schema }));
    expect(where(found)).toEqual(['schemas/v2/extra.schema.json:1:41']);
    expect(run(RULE, eventsCorpus({ [CODEMAP]: renamed, 'schemas/v2/extra.schema.json': schema.replace('run.resume.started', 'run.resume-started') }))).toEqual([]);
  });

  it('leaves v1 type names to a file shared by both versions that cites v1 documents (upstream\'s SECURITY/invariants.yaml)', () => {
    const renamed = codemap.replace('"v1": "run.resuming"', '"v1": "run.resume.started"');
    const invariants = (cites: string) => `invariants:\n  - id: resume-audit\n    note: |\n      Hosts emitting \`run.resume.started\` MUST log it${cites}.\n`;
    const found = (cites: string) => where(run(RULE, eventsCorpus({ [CODEMAP]: renamed, 'SECURITY/invariants.yaml': invariants(cites) })));
    expect(found(' (per `spec/v1/runs.md`)')).toEqual([]);
    expect(found('')).toEqual(['SECURITY/invariants.yaml:4:23']);
  });

  it('fires on a wildcard of no known domain, and on a name that is no event type at all', () => {
    const text = events.replace('| `lease.*` |', '| `leases.*` |').replace('| `state.snapshot` |', '| `Run.Started` |');
    const found = run(RULE, eventsCorpus({ [EVENTS_MD]: text }));
    expect(where(found)).toEqual([at(EVENTS_MD, text, '`leases.*`', 1)]);
    // `Run.Started` is not lowercase dotted: it is not read as a name at all.
    const malformed = events.replace('"type": "acme.widget-built"', '"type": "acme.widget_built"');
    const second = run(RULE, eventsCorpus({ [EVENTS_MD]: malformed }));
    expect(where(second)).toEqual([at(EVENTS_MD, malformed, '"acme.widget_built"', 1)]);
    expect(second[0]?.message).toMatch(/neither a registered protocol type nor a well-formed vendor type/);
  });
});

describe('events/codemap: the streamMode pattern against api/v2/openapi.yaml', () => {
  const openapi = (pattern: string) => `openapi: 3.1.0
info: { title: t, version: '2.0' }
paths:
  /runs/{runId}/events:
    get:
      operationId: streamRunEvents
      parameters:
        - $ref: '#/components/parameters/StreamMode'
      responses:
        '200': { description: ok }
components:
  parameters:
    StreamMode:
      name: streamMode
      in: query
      schema:
        type: string
        pattern: '${pattern}'
`;
  const prose = '^(values|(updates|messages|debug)(,(updates|messages|debug))*)$';

  it('is quiet when the two agree, and when there is no OpenAPI document yet', () => {
    expect(run(RULE, eventsCorpus({ 'api/v2/openapi.yaml': openapi(prose) }))).toEqual([]);
  });

  it('fires at the OpenAPI pattern when it differs from events.md', () => {
    const text = openapi('^(updates|values|messages|debug)$');
    const found = run(RULE, eventsCorpus({ 'api/v2/openapi.yaml': text }));
    expect(where(found)).toEqual([at('api/v2/openapi.yaml', text, "'^(updates", 0)]);
    expect(found[0]?.message).toContain(`differs from the one events.md states at line ${at(EVENTS_MD, events, prose).split(':')[1]}`);
  });

  it('fires when streamRunEvents has no streamMode parameter', () => {
    const text = openapi(prose).replace("        - $ref: '#/components/parameters/StreamMode'\n", '        []\n').replace('      parameters:\n        []\n', '      parameters: []\n');
    const found = run(RULE, eventsCorpus({ 'api/v2/openapi.yaml': text }));
    expect(found.map((d) => d.message)).toEqual([expect.stringMatching(/streamRunEvents declares no `streamMode` query parameter/)]);
    expect(where(found)).toEqual([at('api/v2/openapi.yaml', text, 'get:', 0)]);
  });
});
