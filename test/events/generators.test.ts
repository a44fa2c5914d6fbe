import { describe, expect, it } from 'vitest';
import type { Corpus } from '../../core/model/corpus.js';
import { planGeneration } from '../../core/run/generation.js';
import { corpusSchemas } from '../../core/schemas/json-schema.js';
import eventRenderings, { cloudEventsAttribute } from '../../generators/event-renderings.js';
import eventTypes from '../../generators/event-types.js';
import {
  CLOSED,
  CLOUDEVENT,
  CODEMAP,
  DECLARATION,
  decided,
  EVENTS_MD,
  eventsCorpus,
  eventsFiles,
  PAYLOADS,
  RUN_EVENT,
  WEBHOOK,
  withPayloads,
  withRow,
} from './helpers.js';

const GENERATORS = [eventTypes, eventRenderings];
const base = eventsFiles();

function planEvents(corpus: Corpus) {
  const result = planGeneration(corpus, GENERATORS);
  const after = new Map(result.files.map((file) => [file.path, file.after]));
  return { ...result, after, json: (path: string) => JSON.parse(after.get(path) ?? 'null') };
}

const owner = { tenant: 't1', subject: { issuer: 'https://idp.example', subjectId: 'u-1' } };
const event = {
  eventId: 'evt_0123456789abcdef',
  runId: 't1/run_0123456789abcdef',
  timestamp: '2026-11-29T10:00:00Z',
  sequence: 7,
  schemaVersion: 1,
};

/** The same event in the three renderings. */
function renderings(type: string, payload: unknown) {
  return {
    stream: { ...event, type, payload },
    cloudEvent: {
      specversion: '1.0',
      source: `/runs/${event.runId}`,
      datacontenttype: 'application/json',
      id: event.eventId,
      runid: event.runId,
      type,
      data: payload,
      time: event.timestamp,
      sequence: event.sequence,
      schemaversion: 1,
    },
    delivery: {
      deliveryId: 't1/dlv_0123456789abcdef',
      subscriptionId: 't1/sub_0123456789abcdef',
      ...event,
      type,
      payload,
    },
  };
}

describe('event-types and event-renderings generators', () => {
  it('leave the fixture as it is: its generated parts are current', () => {
    const result = planEvents(eventsCorpus());
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(result.files.filter((file) => file.before !== file.after).map((file) => file.path)).toEqual([]);
    expect(result.files.map((file) => file.path)).toEqual(
      [CLOUDEVENT, PAYLOADS, RUN_EVENT, WEBHOOK, EVENTS_MD, CODEMAP].sort(),
    );
  });

  it('generate the enum, the vendor branch, _typeIndex and the counts from the codemap', () => {
    const result = planEvents(eventsCorpus());
    const eventType = result.json(RUN_EVENT).$defs.eventType;
    expect(eventType.oneOf[0].enum).toEqual([
      'approval.requested',
      'interrupt.requested',
      'lease.acquired',
      'lease.lost',
      'output.chunk',
      'run.completed',
      'run.resume-started',
      'run.started',
    ]);
    expect(eventType.oneOf[1].pattern).toBe(
      '^(?:acme|example)\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?:\\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*)?$',
    );
    expect(result.json(PAYLOADS)._typeIndex).toEqual({
      'approval.requested': 'approvalRequested',
      'interrupt.requested': 'interruptRequested',
      'lease.acquired': 'leaseLifecycle',
      'lease.lost': 'leaseLifecycle',
      'output.chunk': 'outputChunk',
      'run.completed': 'runCompleted',
      'run.resume-started': 'runResumeStarted',
      'run.started': 'runStarted',
    });
    expect(result.json(CODEMAP).counts).toEqual({ rows: 8, review: 0, overridden: 1, renamed: 1 });
    expect(result.after.get(EVENTS_MD)).toContain(
      '<!-- generated: count/event-codemap -->**8**<!-- /generated: count/event-codemap -->',
    );
  });

  it('keep a proposed row out of the enum and the index, but count it', () => {
    const codemap = withRow(base[CODEMAP] ?? '', decided('lease.renewed', 'leaseLifecycle', { status: 'proposed' }));
    const result = planEvents(eventsCorpus({ [CODEMAP]: codemap }));
    expect(result.json(RUN_EVENT).$defs.eventType.oneOf[0].enum).not.toContain('lease.renewed');
    expect(result.json(PAYLOADS)._typeIndex).not.toHaveProperty('lease.renewed');
    expect(result.json(CODEMAP).counts.rows).toBe(9);
  });

  it('are deterministic: the order of rows and orgs changes nothing', () => {
    const codemap = JSON.parse(base[CODEMAP] ?? '') as { rows: unknown[] };
    codemap.rows.reverse();
    const declaration = JSON.parse(base[DECLARATION] ?? '') as { extensions: Record<string, unknown> };
    declaration.extensions = Object.fromEntries(Object.entries(declaration.extensions).reverse());
    const shuffled = planEvents(
      eventsCorpus({ [CODEMAP]: JSON.stringify(codemap), [DECLARATION]: JSON.stringify(declaration) }),
    );
    const original = planEvents(eventsCorpus());
    for (const path of [RUN_EVENT, PAYLOADS, CLOUDEVENT, WEBHOOK, EVENTS_MD])
      expect(shuffled.after.get(path), path).toBe(original.after.get(path));
  });

  it('leave the vendor branch empty when no org is registered', () => {
    const declaration = JSON.parse(base[DECLARATION] ?? '') as { extensions: Record<string, unknown> };
    declaration.extensions = {};
    const branch = planEvents(eventsCorpus({ [DECLARATION]: JSON.stringify(declaration) })).json(RUN_EVENT).$defs
      .eventType.oneOf[1];
    expect(branch).toEqual({ description: expect.stringMatching(/no vendor type is valid/), not: {} });
  });

  it('generate nothing from a codemap that does not match its schema, and say so once', () => {
    const broken = (base[CODEMAP] ?? '').replace('"payloadDef": "runStarted"', '"payloadDef": 7');
    const result = planEvents(eventsCorpus({ [CODEMAP]: broken }));
    expect(result.files.filter((file) => file.path !== EVENTS_MD)).toEqual([]);
    expect(result.diagnostics.filter((d) => d.rule.startsWith('generate/'))).toEqual([
      expect.objectContaining({
        rule: 'generate/event-types',
        file: CODEMAP,
        message: expect.stringMatching(
          /nothing is generated from spec\/v2\/event-codemap\.json while it does not match/,
        ),
      }),
    ]);
  });

  it('refuse a RunEventDoc member that has no CloudEvents attribute name', () => {
    expect(cloudEventsAttribute('eventId')).toBe('id');
    expect(cloudEventsAttribute('causationId')).toBe('causationid');
    const runEvent = JSON.parse(base[RUN_EVENT] ?? '') as { properties: Record<string, unknown> };
    runEvent.properties.specVersion = { type: 'string' };
    const result = planEvents(eventsCorpus({ [RUN_EVENT]: JSON.stringify(runEvent, null, 2) }));
    expect(result.after.has(CLOUDEVENT)).toBe(false);
    expect(result.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(
        /RunEventDoc member "specVersion" has no usable CloudEvents attribute name \("specversion"\)/,
      ),
    );
  });
});

describe('the three renderings, validated', () => {
  const corpus = eventsCorpus();
  const schemas = corpusSchemas(corpus);
  const validate = {
    stream: schemas.validator(RUN_EVENT),
    cloudEvent: schemas.validator(CLOUDEVENT),
    delivery: schemas.validator(WEBHOOK),
  };
  const verdicts = (type: string, payload: unknown) => {
    const three = renderings(type, payload);
    return [validate.stream(three.stream), validate.cloudEvent(three.cloudEvent), validate.delivery(three.delivery)];
  };

  it('compile, with every $ref resolved', () => {
    expect(schemas.problems).toEqual([]);
  });

  it('accept the same event in all three, and reject it in all three', () => {
    expect(verdicts('run.started', { owner, workflowId: 'wf.main' })).toEqual([true, true, true]);
    expect(verdicts('run.completed', { outputs: {} })).toEqual([true, true, true]);
    expect(verdicts('run.completed', {})).toEqual([false, false, false]);
    expect(verdicts('run.completed', { outputs: {}, output: 1 })).toEqual([false, false, false]);
    expect(verdicts('run.started', { owner: { tenant: 't1' }, workflowId: 'wf.main' })).toEqual([false, false, false]);
    expect(verdicts('acme.widget-built', { anything: true })).toEqual([true, true, true]);
    expect(verdicts('globex.widget-built', {})).toEqual([false, false, false]);
    expect(verdicts('run.begun', {})).toEqual([false, false, false]);
  });

  it('type approvals as interrupts with their kind fixed, and leases by one shared payload', () => {
    const interrupt = { interruptId: 't1/int_0123456789abcdef', prompt: 'Approve?' };
    expect(verdicts('approval.requested', { ...interrupt, kind: 'approval' })).toEqual([true, true, true]);
    expect(verdicts('approval.requested', { ...interrupt, kind: 'input' })).toEqual([false, false, false]);
    expect(verdicts('approval.requested', { ...interrupt, kind: 'approval', extra: 1 })).toEqual([false, false, false]);
    expect(verdicts('interrupt.requested', { ...interrupt, kind: 'input' })).toEqual([true, true, true]);
    expect(verdicts('lease.lost', { holder: 'w1', fencingToken: 3 })).toEqual([true, true, true]);
    expect(verdicts('lease.lost', { holder: 'w1' })).toEqual([false, false, false]);
  });

  it('keep the envelope closed in each rendering', () => {
    const three = renderings('run.completed', { outputs: {} });
    expect(validate.stream({ ...three.stream, extra: 1 })).toBe(false);
    expect(validate.cloudEvent({ ...three.cloudEvent, eventId: three.stream.eventId })).toBe(false);
    expect(validate.delivery({ ...three.delivery, event: three.stream })).toBe(false);
  });

  it('pick up a new payload entry with the new row', () => {
    const codemap = withRow(base[CODEMAP] ?? '', decided('node.started', 'nodeStarted'));
    const payloads = withPayloads(base[PAYLOADS] ?? '', {
      nodeStarted: CLOSED({ attempt: { type: 'integer', minimum: 1 } }),
    });
    const result = planEvents(eventsCorpus({ [CODEMAP]: codemap, [PAYLOADS]: payloads }));
    const regenerated = eventsCorpus(Object.fromEntries(result.after.entries()));
    const fresh = corpusSchemas(regenerated);
    const [stream, cloudEvent, delivery] = [RUN_EVENT, CLOUDEVENT, WEBHOOK].map((path) => fresh.validator(path));
    const three = renderings('node.started', { attempt: 1 });
    expect([stream?.(three.stream), cloudEvent?.(three.cloudEvent), delivery?.(three.delivery)]).toEqual([
      true,
      true,
      true,
    ]);
    const bad = renderings('node.started', { attempt: 0 });
    expect([stream?.(bad.stream), cloudEvent?.(bad.cloudEvent), delivery?.(bad.delivery)]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
