import { describe, expect, it } from 'vitest';
import { fixture, readTree } from '../../helpers.js';
import { runRule, testRule, type CorpusCase, type Edit } from '../../rule-tester.js';

const RULE = 'ids/bindings';
const BASE = 'evidence/ids-good';
const RUN = 'schemas/v2/run.schema.json';
const IDS = 'schemas/v2/ids.schema.json';
const API = 'api/v2/openapi.yaml';
const BINDINGS = 'spec/v2/id-field-bindings.json';
const BINDINGS_SCHEMA = 'spec/v2/id-field-bindings.schema.json';

/** One defect a property and a map entry: the files of test/fixtures/evidence/ids-defects over the base. */
const DEFECTS: CorpusCase = {
  name: 'fires at each misclassified or unbound id field, and at each bad map entry',
  base: BASE,
  files: readTree(fixture('evidence/ids-defects')),
};

const inRun = (find: string, replace: string): Edit => ({ file: RUN, find, replace });
const INTERRUPTS = '"interruptIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/interruptId" } }';
const RUN_IDS = `${INTERRUPTS},\n    "runIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/runId" } }`;

/** The base's kinds file with `defs` as its $defs. */
const kinds = (defs: Record<string, unknown>): string =>
  JSON.stringify(
    {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://openwop.dev/schemas/v2/ids.schema.json',
      $defs: defs,
    },
    null,
    2,
  );
const KIND = { type: 'string', 'x-openwop-minted': 'host', pattern: '^.+$' };
const WITH_OPAQUE = (opaque: Record<string, unknown>) =>
  kinds({ opaque, runId: KIND, interruptId: KIND, traceId: KIND, subjectId: KIND });

const UPSTREAM_LAYOUT = {
  layout: { schemaIds: { 'schemas/v2/': 'https://openwop.dev/spec/v2/', 'spec/v2/': 'https://openwop.dev/spec/v2/' } },
};
const REGISTRY_SCHEMA =
  '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$id": "https://openwop.dev/spec/v2/thing.schema.json",\n  "type": "object",\n  "properties": { "peerDependencyId": { "type": "string" } }\n}\n';
const SEAMS =
  'openapi: 3.1.0\ninfo: { title: seams, version: 2.0.0 }\npaths: {}\ncomponents:\n  schemas:\n    Seam:\n      type: object\n      properties:\n        seamId: { type: string }\n';
const GHOST: Edit = {
  file: BINDINGS,
  find: '"traceId": "traceId"',
  replace: '"traceId": "traceId",\n    "ghostId": "runId"',
};

const unclassified = (file: string, line: number, column: number, field: string) => ({
  messageId: 'unclassified',
  file,
  line,
  column,
  data: { field },
});
const mismatch = (file: string, line: number, column: number, field: string, kind: string, problem: string) => ({
  messageId: 'binding-mismatch',
  file,
  line,
  column,
  data: { field, kind, problem },
});

testRule(RULE, {
  valid: [
    { name: 'a corpus without id fields', base: 'good' },
    {
      name: 'every field classified and bound: directly, through allOf, through a local $ref, as list items',
      base: BASE,
    },
    {
      name: 'asks no classification of a list whose items $ref a kind',
      base: BASE,
      edits: [inRun(INTERRUPTS, RUN_IDS)],
    },
    {
      name: "takes a helper def that is no id field's kind (no `*Id` name, no minter) for a building block",
      base: BASE,
      files: { [IDS]: WITH_OPAQUE({ type: 'string', pattern: '^[A-Za-z0-9._~-]{16,128}$' }) },
    },
    {
      name: 'holds the map to the schema the tool carries when the corpus ships none',
      base: BASE,
      files: { [BINDINGS_SCHEMA]: null },
    },
    {
      name: "follows an API document's path-relative $ref to a schema whose $id the layout puts elsewhere",
      base: BASE,
      config: UPSTREAM_LAYOUT,
      edits: [
        {
          file: IDS,
          find: '"https://openwop.dev/schemas/v2/ids.schema.json"',
          replace: '"https://openwop.dev/spec/v2/ids.schema.json"',
        },
      ],
    },
    {
      name: 'leaves registry schemas and seam documents out',
      base: BASE,
      files: { 'spec/v2/thing.schema.json': REGISTRY_SCHEMA, 'spec/v2/thing.json': '{}\n', 'api/seams-v2.yaml': SEAMS },
    },
    {
      name: 'calls no entry stale while a $ref leads out of the corpus',
      base: BASE,
      edits: [
        GHOST,
        {
          file: API,
          find: "schema: { $ref: '#/components/schemas/Run' }",
          replace: "schema: { $ref: '../../schemas/v2/run-snapshot.schema.json' }",
        },
      ],
    },
  ],
  invalid: [
    {
      ...DEFECTS,
      errors: [
        mismatch(API, 12, 17, 'parameter `agentId`', 'agentId', 'its schema does not $ref it'),
        mismatch(RUN, 9, 5, 'property `childRunId`', 'runId', 'its schema does not $ref it'),
        unclassified(RUN, 10, 5, 'property `sessionId`'),
        {
          messageId: 'not-a-kind-refs-kind',
          file: RUN,
          line: 11,
          column: 5,
          data: { field: 'property `causationId`', kinds: 'eventId' },
        },
        mismatch(RUN, 12, 5, 'property `spanId`', 'spanId', 'its schema $refs `traceId` instead'),
        mismatch(RUN, 13, 5, 'property `nodeIds` (a list of ids)', 'nodeId', 'its items do not $ref it'),
        mismatch(RUN, 14, 5, 'property `stepIds` (a list of ids)', 'nodeId', 'its items do not $ref it'),
        { messageId: 'stale-entry', file: BINDINGS, line: 10, column: 5, data: { field: 'workflowId' } },
        {
          messageId: 'unknown-kind',
          file: BINDINGS,
          line: 10,
          column: 19,
          data: { field: 'workflowId', kind: 'flowId' },
        },
        {
          messageId: 'bound-and-not-a-kind',
          file: BINDINGS,
          line: 14,
          column: 5,
          data: { field: 'runId', kind: 'runId' },
        },
      ],
    },
    {
      name: 'fails at the property line when a bound id property becomes {type: string, minLength: 1}',
      base: BASE,
      edits: [
        inRun(
          '"childRunId": { "description": "beside it, bound too", "$ref": "ids.schema.json#/$defs/runId" }',
          '"childRunId": { "type": "string", "minLength": 1 }',
        ),
      ],
      errors: [mismatch(RUN, 9, 5, 'property `childRunId`', 'runId', 'its schema does not $ref it')],
    },
    {
      name: 'asks a classification of a list of bare strings',
      base: BASE,
      edits: [inRun(INTERRUPTS, `${RUN_IDS},\n    "stepIds": { "type": "array", "items": { "type": "string" } }`)],
      errors: [unclassified(RUN, 15, 5, 'property `stepIds` (a list of ids)')],
    },
    {
      name: 'holds each kind to a pattern and a minter',
      base: BASE,
      files: {
        [IDS]: kinds({
          runId: KIND,
          traceId: { type: 'string', 'x-openwop-minted': 'w3c' },
          subjectId: { type: 'string', pattern: '^.+$' },
          interruptId: KIND,
        }),
      },
      errors: [
        {
          messageId: 'malformed-kind',
          file: IDS,
          line: 10,
          column: 5,
          data: { kind: 'traceId', problems: 'no pattern and x-openwop-minted "w3c" (host, author or registry)' },
        },
        {
          messageId: 'malformed-kind',
          file: IDS,
          line: 14,
          column: 5,
          data: { kind: 'subjectId', problems: 'x-openwop-minted missing (host, author or registry)' },
        },
      ],
    },
    {
      name: 'holds a helper def that records a minter to what a kind is',
      base: BASE,
      files: { [IDS]: WITH_OPAQUE({ type: 'string', 'x-openwop-minted': 'w3c' }) },
      errors: [
        {
          messageId: 'malformed-kind',
          file: IDS,
          line: 5,
          column: 5,
          data: { kind: 'opaque', problems: 'no pattern and x-openwop-minted "w3c" (host, author or registry)' },
        },
      ],
    },
    {
      name: 'reads the message payloads of an AsyncAPI document as schemas',
      base: BASE,
      files: {
        'api/v2/asyncapi.yaml':
          'asyncapi: 3.0.0\ncomponents:\n  messages:\n    ping:\n      payload:\n        type: object\n        properties:\n          hostId: { type: string }\n',
      },
      errors: [unclassified('api/v2/asyncapi.yaml', 8, 11, 'property `hostId`')],
    },
    {
      name: 'reports a missing map once',
      base: BASE,
      files: { [BINDINGS]: null },
      errors: [
        { messageId: 'bindings-missing', file: BINDINGS, line: 1, column: 1, data: { target: BINDINGS, count: 8 } },
      ],
    },
    {
      name: 'validates the map against its schema, and reads the entries it can: an unreadable entry is not reported again as unclassified',
      base: BASE,
      edits: [{ file: BINDINGS, find: '"runId": "runId"', replace: '"runId": 7' }],
      errors: [
        {
          messageId: 'schema-mismatch',
          file: BINDINGS,
          line: 7,
          column: 5,
          data: {
            schema: BINDINGS_SCHEMA,
            against: BINDINGS_SCHEMA,
            error: '/bindings/runId: must be string',
            places: 1,
          },
        },
      ],
    },
    {
      name: 'holds a map whose schema the corpus does not ship to the schema the tool carries',
      base: BASE,
      files: { [BINDINGS_SCHEMA]: null, [BINDINGS]: '{ "bindings": {} }\n' },
      errors: [
        unclassified(API, 8, 17, 'parameter `runId`'),
        unclassified(API, 23, 9, 'property `runId`'),
        unclassified(RUN, 8, 5, 'property `parentRunId`'),
        unclassified(RUN, 9, 5, 'property `childRunId`'),
        unclassified(RUN, 10, 5, 'property `traceId`'),
        unclassified(RUN, 11, 5, 'property `ownerId`'),
        unclassified(RUN, 12, 5, 'property `causationId`'),
        {
          messageId: 'schema-mismatch',
          file: BINDINGS,
          line: 1,
          column: 1,
          data: {
            schema: BINDINGS_SCHEMA,
            against: `the schema openwop-spec carries for it (the corpus has no ${BINDINGS_SCHEMA})`,
            error: '(root): required property "notAKind" is missing',
            places: 1,
          },
        },
      ],
    },
    {
      name: 'finds an id field typed `type: string` in the OpenAPI document',
      base: BASE,
      edits: [
        {
          file: API,
          find: "        runId: { $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' }",
          replace: '        runId:\n          type: string\n          minLength: 1',
        },
      ],
      errors: [mismatch(API, 23, 9, 'property `runId`', 'runId', 'its schema does not $ref it')],
    },
    {
      name: 'takes a schema with no registry beside it for a protocol schema, whose id field needs classifying',
      base: BASE,
      files: { 'spec/v2/thing.schema.json': REGISTRY_SCHEMA },
      errors: [unclassified('spec/v2/thing.schema.json', 5, 19, 'property `peerDependencyId`')],
    },
    {
      name: 'calls an entry stale that names no id field of a complete corpus',
      base: BASE,
      edits: [GHOST],
      errors: [{ messageId: 'stale-entry', file: BINDINGS, line: 9, column: 5, data: { field: 'ghostId' } }],
    },
  ],
});

describe(RULE, () => {
  it("tells the author how to classify a field, and which $ref binds it, relative to the field's file", () => {
    const hints = Object.fromEntries(
      runRule(RULE, DEFECTS).diagnostics.map((d) => [`${d.messageId} ${String(d.data?.field)}`, d.hint]),
    );
    expect(hints['unclassified property `sessionId`']).toBe(
      'classify it: bind it to a kind in `bindings` (and $ref ids.schema.json#/$defs/<kind>), or record why no kind governs it in `notAKind`',
    );
    expect(hints['binding-mismatch property `childRunId`']).toBe(
      'make its schema { "$ref": "ids.schema.json#/$defs/runId" }',
    );
    expect(hints['binding-mismatch parameter `agentId`']).toBe(
      'make its schema { "$ref": "../../schemas/v2/ids.schema.json#/$defs/agentId" }',
    );
  });
});
