import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { idFields, kindRef } from '../../../core/registries/id-kinds.js';
import { cli, lineOf } from '../../helpers.js';
import { check, evidenceCorpus, evidenceDirectory, findings, fixtureFiles, replaceOnce, supportFiles, type Files } from '../../evidence/support.js';
import { corpusFromFiles, type Corpus } from '../../../core/model/corpus.js';
import { fixture } from '../../helpers.js';
import { defaultConfig, type Config } from '../../../core/config/index.js';

describe('ids/bindings', { timeout: 60_000 }, () => {
  it('fires at each misclassified or unbound id field, and at each bad map entry', () => {
    expect(findings(check('ids/bindings', evidenceCorpus('ids-defects')))).toEqual([
      'api/v2/openapi.yaml:12:17 parameter `agentId` is bound to the kind `agentId`, but its schema does not $ref it',
      'schemas/v2/run.schema.json:9:5 property `childRunId` is bound to the kind `runId`, but its schema does not $ref it',
      'schemas/v2/run.schema.json:10:5 property `sessionId` is an id field that spec/v2/id-field-bindings.json does not classify',
      'schemas/v2/run.schema.json:11:5 property `causationId` is recorded in notAKind, yet it $refs the kind `eventId`',
      'schemas/v2/run.schema.json:12:5 property `spanId` is bound to the kind `spanId`, but its schema $refs `traceId` instead',
      'schemas/v2/run.schema.json:13:5 property `nodeIds` (a list of ids) is bound to the kind `nodeId`, but its items do not $ref it',
      'schemas/v2/run.schema.json:14:5 property `stepIds` (a list of ids) is bound to the kind `nodeId`, but its items do not $ref it',
      'spec/v2/id-field-bindings.json:10:5 `workflowId` names no id field of any v2 schema or API document; the entry is stale',
      'spec/v2/id-field-bindings.json:10:19 `workflowId` is bound to `flowId`, which is not a kind of schemas/v2/ids.schema.json',
      'spec/v2/id-field-bindings.json:14:5 `runId` is both bound to `runId` and recorded in notAKind',
    ]);
  });

  it('tells the author how to classify a field, and which $ref binds it', () => {
    const found = check('ids/bindings', evidenceCorpus('ids-defects'));
    expect(found.find((d) => d.message.includes('sessionId'))?.hint).toMatch(/^classify it: bind it to a kind .* or record why no kind governs it in `notAKind`$/);
    expect(found.find((d) => d.message.includes('childRunId'))?.hint).toBe('make its schema { "$ref": "ids.schema.json#/$defs/runId" }');
    expect(found.find((d) => d.message.includes('agentId'))?.hint).toBe('make its schema { "$ref": "../../schemas/v2/ids.schema.json#/$defs/agentId" }');
  });

  it('is quiet when every field is classified and bound: directly, through allOf, through a local $ref, as list items', () => {
    expect(check('ids/bindings', evidenceCorpus('ids-good'))).toEqual([]);
  });

  it('asks no classification of a list whose items $ref a kind (upstream lists `runIds` nowhere), but does of a list of bare strings', () => {
    const run = readFileSync(path.join(fixture('evidence/ids-good'), 'schemas/v2/run.schema.json'), 'utf8');
    const lists = replaceOnce(
      run,
      '"interruptIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/interruptId" } }',
      '"interruptIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/interruptId" } },\n    "runIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/runId" } },\n    "stepIds": { "type": "array", "items": { "type": "string" } }',
    );
    expect(findings(check('ids/bindings', evidenceCorpus('ids-good', { 'schemas/v2/run.schema.json': lists })))).toEqual([
      `schemas/v2/run.schema.json:${lineOf(lists, '"stepIds"')}:5 property \`stepIds\` (a list of ids) is an id field that spec/v2/id-field-bindings.json does not classify`,
    ]);
  });

  it('finds id fields in schemas and API documents, not in examples or conditional refinements', () => {
    const fields = idFields(evidenceCorpus('ids-good')).map((f) => `${f.file} ${f.kind} ${f.name}`);
    expect(fields).toEqual([
      'api/v2/openapi.yaml property runId',
      'api/v2/openapi.yaml parameter runId',
      'schemas/v2/run.schema.json property parentRunId',
      'schemas/v2/run.schema.json property childRunId',
      'schemas/v2/run.schema.json property traceId',
      'schemas/v2/run.schema.json property ownerId',
      'schemas/v2/run.schema.json property causationId',
      'schemas/v2/run.schema.json property interruptIds',
    ]);
  });

  it('holds each kind to a pattern and a minter', () => {
    const ids = JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/schemas/v2/ids.schema.json', $defs: { runId: { type: 'string', 'x-openwop-minted': 'host', pattern: '^.+$' }, traceId: { type: 'string', 'x-openwop-minted': 'w3c' }, subjectId: { type: 'string', pattern: '^.+$' }, interruptId: { type: 'string', pattern: '^.+$', 'x-openwop-minted': 'host' } } }, null, 2);
    expect(findings(check('ids/bindings', evidenceCorpus('ids-good', { 'schemas/v2/ids.schema.json': ids }))).filter((line) => line.startsWith('schemas/v2/ids'))).toEqual([
      'schemas/v2/ids.schema.json:10:5 the kind `traceId` has no pattern and x-openwop-minted "w3c" (host, author or registry)',
      'schemas/v2/ids.schema.json:14:5 the kind `subjectId` has x-openwop-minted missing (host, author or registry)',
    ]);
  });

  it('takes a helper def that is no id field\'s kind (`opaque`: not an `*Id` name, no minter) for a building block, not a kind', () => {
    const defs = (opaque: Record<string, unknown>) =>
      JSON.stringify({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/schemas/v2/ids.schema.json', $defs: { opaque, runId: { type: 'string', 'x-openwop-minted': 'host', pattern: '^.+$' }, interruptId: { type: 'string', pattern: '^.+$', 'x-openwop-minted': 'host' } } }, null, 2);
    const ids = (opaque: Record<string, unknown>) => findings(check('ids/bindings', evidenceCorpus('ids-good', { 'schemas/v2/ids.schema.json': defs(opaque) }))).filter((line) => line.startsWith('schemas/v2/ids'));
    expect(ids({ type: 'string', pattern: '^[A-Za-z0-9._~-]{16,128}$' })).toEqual([]);
    // One that records a minter says it is a kind, and is held to what a kind is.
    expect(ids({ type: 'string', 'x-openwop-minted': 'w3c' })).toEqual(['schemas/v2/ids.schema.json:5:5 the kind `opaque` has no pattern and x-openwop-minted "w3c" (host, author or registry)']);
  });

  it('reads the message payloads of an AsyncAPI document as schemas', () => {
    const asyncapi = 'asyncapi: 3.0.0\ncomponents:\n  messages:\n    ping:\n      payload:\n        type: object\n        properties:\n          hostId: { type: string }\n';
    expect(findings(check('ids/bindings', evidenceCorpus('ids-good', { 'api/v2/asyncapi.yaml': asyncapi })))).toEqual([
      'api/v2/asyncapi.yaml:8:11 property `hostId` is an id field that spec/v2/id-field-bindings.json does not classify',
    ]);
  });

  it('reports a missing map once, and says nothing on a corpus without id fields', () => {
    const files = fixtureFiles('ids-good');
    delete files['spec/v2/id-field-bindings.json'];
    expect(findings(check('ids/bindings', evidenceCorpus(files)))).toEqual(['spec/v2/id-field-bindings.json:1:1 spec/v2/id-field-bindings.json is missing, so none of the 8 id fields of the corpus is classified']);
    expect(check('ids/bindings', evidenceCorpus({}))).toEqual([]);
  });

  it('validates the map against its schema, and reads the entries it can', () => {
    const good = readFileSync(fixture('evidence/ids-good/spec/v2/id-field-bindings.json'), 'utf8');
    const text = good.replace('"runId": "runId"', '"runId": 7');
    const found = check('ids/bindings', evidenceCorpus('ids-good', { 'spec/v2/id-field-bindings.json': text }));
    // The entry is there, unreadable: the runId fields are not reported again as unclassified.
    expect(findings(found)).toEqual([`spec/v2/id-field-bindings.json:${text.split('\n').findIndex((line) => line.includes('"runId": 7')) + 1}:5 does not match spec/v2/id-field-bindings.schema.json: /bindings/runId: must be string`]);
  });

  it('holds a registry whose schema the corpus does not ship to the schema the tool carries', () => {
    const without = (overrides: Files = {}): Corpus => {
      const files: Files = { ...supportFiles(), ...fixtureFiles('ids-good'), ...overrides };
      delete files['spec/v2/id-field-bindings.schema.json'];
      return corpusFromFiles('/evidence-fixture', files);
    };
    expect(check('ids/bindings', without())).toEqual([]);
    const found = check('ids/bindings', without({ 'spec/v2/id-field-bindings.json': '{ "bindings": {} }\n' }));
    expect(findings(found).filter((line) => line.startsWith('spec/v2/id-field-bindings.json'))).toEqual(['spec/v2/id-field-bindings.json:1:1 does not match the schema openwop-spec carries for it (the corpus has no spec/v2/id-field-bindings.schema.json): (root): required property "notAKind" is missing']);
  });

  it('writes the $ref a hint proposes relative to the file', () => {
    expect(kindRef('schemas/v2/run.schema.json', 'runId')).toBe('ids.schema.json#/$defs/runId');
    expect(kindRef('api/v2/openapi.yaml', 'runId')).toBe('../../schemas/v2/ids.schema.json#/$defs/runId');
    expect(kindRef('spec/v2/facets/auth.schema.json', 'keyId')).toBe('../../../schemas/v2/ids.schema.json#/$defs/keyId');
  });
});

describe('ids/bindings on the command line', { timeout: 60_000 }, () => {
  it('fails at the property line when a bound id property becomes {type: string, minLength: 1}', async () => {
    const root = evidenceDirectory('ids-good');
    expect((await cli(['check', '--root', root, '--rule', 'ids/bindings'])).status).toBe(0);
    const file = path.join(root, 'schemas/v2/run.schema.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, replaceOnce(text, '"childRunId": { "description": "beside it, bound too", "$ref": "ids.schema.json#/$defs/runId" }', '"childRunId": { "type": "string", "minLength": 1 }'));
    const result = await cli(['check', '--root', root, '--rule', 'ids/bindings']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`schemas/v2/run.schema.json:${lineOf(text, '"childRunId"')}:5  error    property \`childRunId\` is bound to the kind \`runId\`, but its schema does not $ref it  ids/bindings`);
  });

  it('does the same on a copy of the repository corpus: run-snapshot.schema.json parentRunId', async () => {
    const repo = path.resolve(import.meta.dirname, '../../..');
    const files: Record<string, string> = {};
    for (const name of ['schemas/v2/ids.schema.json', 'schemas/v2/run-snapshot.schema.json', 'schemas/v2/subject.schema.json', 'spec/v2/id-field-bindings.json']) {
      files[name] = readFileSync(path.join(repo, name), 'utf8');
    }
    const snapshot = files['schemas/v2/run-snapshot.schema.json'] ?? '';
    const bound = /"parentRunId": \{[^}]*\}/.exec(snapshot)?.[0] ?? 'missing';
    const root = evidenceDirectory(files, { 'schemas/v2/run-snapshot.schema.json': replaceOnce(snapshot, bound, '"parentRunId": {\n      "type": "string",\n      "minLength": 1\n    }') });
    const result = await cli(['check', '--root', root, '--rule', 'ids/bindings', '--format', 'json']);
    const located = JSON.parse(result.stdout).diagnostics.filter((d: { file: string }) => d.file === 'schemas/v2/run-snapshot.schema.json');
    expect(located).toEqual([expect.objectContaining({ line: lineOf(snapshot, '"parentRunId"'), message: 'property `parentRunId` is bound to the kind `runId`, but its schema does not $ref it' })]);
    expect(result.status).toBe(1);
  });

  describe('upstream\'s layout and scope', () => {
    const good = fixtureFiles('ids-good');
    const withIdsUnder = (base: string) => ({ ...good, 'schemas/v2/ids.schema.json': (supportFiles()['schemas/v2/ids.schema.json'] ?? '').replace('"https://openwop.dev/schemas/v2/ids.schema.json"', `"${base}ids.schema.json"`) });
    const upstream = (): Config => ({ ...defaultConfig(), layout: { schemaIds: [['schemas/v2/', 'https://openwop.dev/spec/v2/'], ['spec/v2/', 'https://openwop.dev/spec/v2/']], stamp: 'CORPUS-STAMP.json' } });
    const corpusOf = (files: Files, config?: Config) => corpusFromFiles('/evidence-fixture', { ...supportFiles(), ...files }, config);

    it('follows an API document\'s path-relative $ref to a schema whose $id the layout puts elsewhere', () => {
      const files = withIdsUnder('https://openwop.dev/spec/v2/');
      expect(findings(check('ids/bindings', corpusOf(files, upstream())))).toEqual([]);
    });

    it('finds an id field typed `type: string` in the OpenAPI document', () => {
      const api = (good['api/v2/openapi.yaml'] ?? '').replace("        runId: { $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' }", '        runId:\n          type: string\n          minLength: 1');
      const found = findings(check('ids/bindings', corpusOf({ ...good, 'api/v2/openapi.yaml': api })));
      expect(found).toEqual([`api/v2/openapi.yaml:${lineOf(api, '        runId:')}:9 property \`runId\` is bound to the kind \`runId\`, but its schema does not $ref it`]);
    });

    it('leaves registry schemas and seam documents out, and calls no entry stale while a $ref leads out of the corpus', () => {
      const registrySchema = '{\n  "$schema": "https://json-schema.org/draft/2020-12/schema",\n  "$id": "https://openwop.dev/spec/v2/thing.schema.json",\n  "type": "object",\n  "properties": { "peerDependencyId": { "type": "string" } }\n}\n';
      const seams = 'openapi: 3.1.0\ninfo: { title: seams, version: 2.0.0 }\npaths: {}\ncomponents:\n  schemas:\n    Seam:\n      type: object\n      properties:\n        seamId: { type: string }\n';
      expect(findings(check('ids/bindings', corpusOf({ ...good, 'spec/v2/thing.schema.json': registrySchema, 'spec/v2/thing.json': '{}\n', 'api/seams-v2.yaml': seams })))).toEqual([]);
      // The same schema with no registry beside it is a protocol schema: its id field needs classifying.
      expect(findings(check('ids/bindings', corpusOf({ ...good, 'spec/v2/thing.schema.json': registrySchema })))).toEqual([
        'spec/v2/thing.schema.json:5:19 property `peerDependencyId` is an id field that spec/v2/id-field-bindings.json does not classify',
      ]);
      const bindings = (good['spec/v2/id-field-bindings.json'] ?? '').replace('"traceId": "traceId"', '"traceId": "traceId",\n    "ghostId": "runId"');
      const stale = findings(check('ids/bindings', corpusOf({ ...good, 'spec/v2/id-field-bindings.json': bindings })));
      expect(stale).toEqual([`spec/v2/id-field-bindings.json:${lineOf(bindings, '"ghostId"')}:5 \`ghostId\` names no id field of any v2 schema or API document; the entry is stale`]);
      const api = (good['api/v2/openapi.yaml'] ?? '').replace("schema: { $ref: '#/components/schemas/Run' }", "schema: { $ref: '../../schemas/v2/run-snapshot.schema.json' }");
      expect(findings(check('ids/bindings', corpusOf({ ...good, 'spec/v2/id-field-bindings.json': bindings, 'api/v2/openapi.yaml': api }))).filter((line) => line.includes('stale'))).toEqual([]);
    });
  });
});
