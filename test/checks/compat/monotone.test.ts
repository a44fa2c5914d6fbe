import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../checks/index.js';
import { corpusFromFiles } from '../../../core/model/index.js';
import { runChecks } from '../../../core/run/index.js';
import { cli, REPO } from '../../helpers.js';

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
const check = CHECKS.find((c) => c.id === 'compat/monotone')!;

const manifest = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  json({ $schema: 'https://json-schema.org/draft/2020-12/schema', $id: 'https://openwop.dev/schemas/v2/pack.schema.json', type: 'object', additionalProperties: true, properties, ...extra });

const OLD_PROPERTIES = {
  name: { type: 'string' },
  signing: { type: 'object', additionalProperties: true, properties: { publicKeyRef: { type: 'string' } } },
  transport: { enum: ['sse', 'http'] },
};

const openapi = (paths: string) => `openapi: 3.1.0\ninfo: { title: t, version: '2.0' }\npaths:\n${paths}`;
const OLD_PATHS = "  /runs:\n    get: { operationId: listRuns, responses: { '200': { description: ok } } }\n  /packs:\n    get: { operationId: listPacks, responses: { '200': { description: ok } } }\n";

const register = (pointers: string[]) => json({ version: 1, updated: '2026-12-01', rows: pointers.length > 0 ? [{ id: 'openwop.correction.v2.1', pointers }] : [] });

function previousRelease(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'openwop-monotone-'));
  const put = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), text);
  };
  put('schemas/v2/pack.schema.json', manifest(OLD_PROPERTIES));
  put('api/v2/openapi.yaml', openapi(OLD_PATHS));
  return dir;
}

const runOn = (files: Record<string, string>, baseline?: string) => runChecks(corpusFromFiles('/nonexistent-root', files), [check], baseline ? { previousRelease: baseline } : {});

describe('compat/monotone', { timeout: 60_000 }, () => {
  const before = previousRelease();

  it('is quiet when the surface only grows', () => {
    const files = {
      'schemas/v2/pack.schema.json': manifest({ ...OLD_PROPERTIES, added: { type: 'string' }, transport: { enum: ['sse', 'http', 'streamable-http'] } }),
      'api/v2/openapi.yaml': openapi(`${OLD_PATHS}  /agents:\n    get: { operationId: listAgents, responses: { '200': { description: ok } } }\n`),
    };
    expect(runOn(files, before)).toEqual([]);
  });

  it('fires at a removed property, enum member and operation, and at a new required, a closed object and a narrowed type', () => {
    const files = {
      'schemas/v2/pack.schema.json': manifest({ name: { type: 'integer' }, transport: { enum: ['sse'] } }, { additionalProperties: false, required: ['name'] }),
      'api/v2/openapi.yaml': openapi("  /runs:\n    get: { operationId: listRuns, responses: { '200': { description: ok } } }\n"),
    };
    const found = runOn(files, before).map((d) => `${d.file}:${d.line}:${d.column} ${d.severity} ${d.message.replace(before, '<previous>')}`);
    const unlicensed = 'and no row of spec/v2/corrections.json or spec/v2/migrations.json licenses it';
    const narrowed = 'a document the previous release accepted can now fail, which a v2 minor may not do';
    expect(found).toEqual([
      `api/v2/openapi.yaml:1:1 error operation listPacks (GET /packs) was removed since <previous> (line 7 there), ${unlicensed}`,
      `schemas/v2/pack.schema.json:5:1 error the document was closed: additionalProperties is now false since <previous>: ${narrowed}`,
      // A removal is placed where the property would be now: its parent's \`properties\`.
      `schemas/v2/pack.schema.json:6:1 error property "signing" of the document was removed since <previous> (line 10 there), ${unlicensed}`,
      `schemas/v2/pack.schema.json:8:1 error \`/name\` changed type from string to integer since <previous>: ${narrowed}`,
      `schemas/v2/pack.schema.json:11:1 error \`/transport\` no longer admits "http" since <previous> (line 20 there), ${unlicensed}`,
      `schemas/v2/pack.schema.json:16:1 error property "name" of the document is now required since <previous>: ${narrowed}`,
    ]);
  });

  it('lets a correction or migration row license a removal at the pointer it names, and nothing else', () => {
    const files = {
      'schemas/v2/pack.schema.json': manifest({ name: { type: 'string' }, transport: { enum: ['sse'] } }),
      'api/v2/openapi.yaml': openapi("  /runs:\n    get: { operationId: listRuns, responses: { '200': { description: ok } } }\n"),
      'spec/v2/corrections.json': register(['schemas/v2/pack.schema.json#/signing', 'schemas/v2/pack.schema.json#/transport']),
      'spec/v2/migrations.json': register(['api/v2/openapi.yaml#GET /packs']),
    };
    expect(runOn(files, before)).toEqual([]);
    const partial = { ...files, 'spec/v2/corrections.json': register(['schemas/v2/pack.schema.json#/transport']) };
    expect(runOn(partial, before).map((d) => d.message)).toEqual([expect.stringMatching(/signing.*no row of spec\/v2\/corrections\.json or spec\/v2\/migrations\.json licenses it/)]);
  });

  it('says nothing while the run names no previous release', () => {
    expect(runOn({ 'spec/v2/release.json': json({ version: '2.0.0', corpusTag: null, updated: '2026-12-01' }), 'schemas/v2/pack.schema.json': manifest({}) })).toEqual([]);
  });

  it('says which previous release it cannot read', () => {
    const found = runOn({ 'schemas/v2/pack.schema.json': manifest({}) }, '/nonexistent-release');
    expect(found.map((d) => `${d.file}:${d.line} ${d.severity}`)).toEqual(['.:1 error']);
    expect(found[0]?.message).toMatch(/^the previous release \/nonexistent-release cannot be read: /);
  });

  it('compares this repository with a git ref through check --previous-release', async () => {
    const result = await cli(['check', '--rule', 'compat/monotone', '--previous-release', 'git:HEAD', '--no-cache', '--format', 'json'], REPO);
    expect(JSON.parse(result.stdout).diagnostics).toEqual([]);
    expect(result.status).toBe(0);
  });
});
