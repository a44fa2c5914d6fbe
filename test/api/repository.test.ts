/**
 * The repository's own API documents, held to the acceptance criteria: the judged
 * scenarios are replayed on in-memory copies of the real files.
 */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { loadCorpus } from '../../core/model/corpus.js';
import { runChecks } from '../../core/run/engine.js';
import { driftDiagnostics } from '../../core/run/generation.js';
import { MUTATING_METHODS, openApiModel } from '../../core/api/openapi.js';
import { HEADERS_DOC } from '../../generators/headers.js';
import { lineOf, REPO } from '../helpers.js';
import { corpusOf, edited, plan, plannedText, corpusTexts, tableRows } from './support.js';

const OPENAPI = 'api/v2/openapi.yaml';
const API_CHECKS = CHECKS.filter((check) => check.id.startsWith('api/'));
const files = corpusTexts(REPO);
const openapi = files[OPENAPI] as string;

/** The headers of the 2.42.8 headers tables (the seed of headers.md): each must be declared, with a Meaning. */
const SEED_REQUEST = ['Accept-Language', 'Idempotency-Key', 'If-None-Match', 'Last-Event-ID', 'OpenWOP-Client-Version', 'OpenWOP-Dedup', 'OpenWOP-Force-Engine-Version', 'OpenWOP-Version'];
const SEED_RESPONSE = ['Cache-Control', 'Content-Encoding', 'Content-Language', 'ETag', 'Location', 'OpenWOP-Idempotent-Replay', 'OpenWOP-Version', 'Retry-After', 'WWW-Authenticate'];

describe('the repository API surface', () => {
  const corpus = loadCorpus(REPO);
  const model = openApiModel(corpus);

  it('has at least 45 operations, each with a unique operationId, and the ones the prose names', () => {
    const ids = model?.operations.map((o) => o.operationId) ?? [];
    expect(ids.length).toBeGreaterThanOrEqual(45);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ['getDiscovery', 'createRun', 'getRun', 'listRuns', 'cancelRun', 'bulkCancelRuns', 'forkRun', 'replayRun', 'streamRunEvents', 'pollRunEvents', 'getRunEffects', 'resolveInterruptByToken', 'resolveRunInterrupt', 'createWebhookSubscription', 'publishPack', 'getPack', 'listPackVersions', 'getPromptTemplate', 'createPromptTemplate', 'getPublicContentPage', 'getWorkspace', 'streamHostEvents']) {
      expect(ids).toContain(id);
    }
  });

  it('passes every api/* gate and leaves the generated headers tables and path manifest current', () => {
    expect(runChecks(corpus, API_CHECKS)).toEqual([]);
    const result = plan(corpus);
    expect(result.diagnostics.filter((d) => d.rule.startsWith('generate/'))).toEqual([]);
    expect(driftDiagnostics(result)).toEqual([]);
  });

  it('declares the 2.42.8 headers, each with a non-empty Meaning in the generated tables', () => {
    const text = plannedText(plan(corpus), HEADERS_DOC);
    for (const [region, expected] of [['headers/request', SEED_REQUEST], ['headers/response', SEED_RESPONSE]] as const) {
      const rows = tableRows(text, region);
      for (const name of expected) {
        const row = rows.find((cells) => cells[0] === `\`${name}\``);
        expect(row, `${name} in ${region}`).toBeDefined();
        expect(Number(row?.[1])).toBeGreaterThan(0);
        expect(row?.[2]?.length, `Meaning of ${name}`).toBeGreaterThan(40);
      }
    }
  });

  it('declares the version headers on every operation, Idempotency-Key exactly on the mutating ones, and a challenge on every protected 401', () => {
    const operations = model?.operations ?? [];
    // Stated first, so that what follows judges operations, not an empty list.
    expect(operations.length).toBeGreaterThanOrEqual(45);
    const headers = (operation: (typeof operations)[number]) => operation.parameters.filter((p) => p.in === 'header').map((p) => p.name);
    const name = (operation: (typeof operations)[number]) => `${operation.method} ${operation.path}`;
    expect(operations.filter((o) => !headers(o).includes('OpenWOP-Version') || !headers(o).includes('OpenWOP-Client-Version')).map(name)).toEqual([]);
    const mutating = operations.filter((o) => MUTATING_METHODS.has(o.method)).map(name);
    expect(mutating.length).toBeGreaterThan(0);
    expect(operations.filter((o) => headers(o).includes('Idempotency-Key')).map(name)).toEqual(mutating);
    const authenticated = operations.filter((o) => o.authenticated);
    expect(authenticated.length).toBeGreaterThan(0);
    expect(authenticated.filter((o) => !o.responses.find((r) => r.status === '401')?.headers.some((h) => h.name === 'WWW-Authenticate')).map(name)).toEqual([]);
  });

  it('carries the grammars of the prose on the parameters that take them', () => {
    const parameter = (name: string) => model?.operations.flatMap((o) => o.parameters).find((p) => p.name === name)?.value.schema as Record<string, unknown>;
    expect(parameter('streamMode').pattern).toBe('^(values|(updates|messages|debug)(,(updates|messages|debug))*)$');
    expect(parameter('Idempotency-Key').pattern).toBe('^[A-Za-z0-9._~-]{22,128}$');
    expect(String(parameter('token').pattern)).toContain('ow2\\.');
    expect(parameter('bufferMs')).toMatchObject({ minimum: 0, maximum: 5000 });
    expect(parameter('timeout')).toMatchObject({ minimum: 1, maximum: 60, default: 30 });
    expect(parameter('runId')).toEqual({ $ref: '../../schemas/v2/ids.schema.json#/$defs/runId' });
  });
});

describe('judged scenarios, on a copy of the repository documents', () => {
  it('a description spread over three lines comes out whole in the Meaning column', () => {
    const three = [
      '      description: |-',
      '        Honored for test keys only; the host emits the run as if executed on this engine version.',
      '        The version must lie within testing.forceEngineVersionRange of the discovery document.',
      '        A production key sending it is refused with 403 force_engine_version_forbidden.',
    ].join('\n');
    const copy = edited(files, OPENAPI, forceEngineDescription(), `${three}\n`);
    const result = plan(corpusOf(copy));
    expect(result.diagnostics.filter((d) => d.rule === 'generate/headers')).toEqual([]);
    const row = tableRows(plannedText(result, HEADERS_DOC), 'headers/request').find((cells) => cells[0] === '`OpenWOP-Force-Engine-Version`');
    expect(row?.[2]).toBe(
      'Honored for test keys only; the host emits the run as if executed on this engine version. The version must lie within testing.forceEngineVersionRange of the discovery document. A production key sending it is refused with 403 force_engine_version_forbidden.',
    );
  });

  it.each([
    ['a header parameter', 'OpenWOPDedup', 'name: OpenWOP-Dedup', 'OpenWOP-Dedup'],
    ['a response header', 'Location', '    Location:', 'Location'],
  ])('deleting the description of %s makes generate report it at the header\'s line', (_kind, component, headerLine, name) => {
    const copy = { ...files, [OPENAPI]: withoutDescription(openapi, component) };
    const text = copy[OPENAPI];
    const findings = plan(corpusOf(copy)).diagnostics.filter((d) => d.rule === 'generate/headers');
    const componentsAt = lineOf(text, 'components:');
    expect(findings).toMatchObject([{ file: OPENAPI, line: lineOf(text, headerLine, componentsAt), message: expect.stringContaining(`${name} has no description`) }]);
  });

  it.each([
    ['a header parameter of an operation', '      parameters:\n        - { $ref: \'#/components/parameters/IdempotencyKey\' }\n', '      parameters:\n        - { $ref: \'#/components/parameters/IdempotencyKey\' }\n        - { name: X-Dedup, in: header, description: The v1 claim header., schema: { type: string } }\n'],
    ['a response header', "            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n", "            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n            X-Dedup: { description: The v1 claim header., schema: { type: string } }\n"],
    ['an unreferenced component', '\n  parameters:\n', '\n  parameters:\n    Legacy:\n      name: X-Dedup\n      in: header\n      description: The v1 claim header.\n      schema: { type: string }\n'],
  ])('adding X-Dedup as %s fails check at that line', (_where, from, to) => {
    const copy = edited(files, OPENAPI, from, to);
    const text = copy[OPENAPI] as string;
    const findings = runChecks(corpusOf(copy), API_CHECKS).filter((d) => d.severity === 'error');
    expect(findings).toMatchObject([{ rule: 'api/header-naming', file: OPENAPI, line: lineOf(text, 'X-Dedup'), message: expect.stringMatching(/X-Dedup was removed in v2/) }]);
  });
});

/** The folded description block of the OpenWOP-Force-Engine-Version parameter, as written. */
function forceEngineDescription(): RegExp {
  const start = openapi.indexOf('name: OpenWOP-Force-Engine-Version');
  const block = /( {6}description: >-\n(?: {8}.*\n)+)/y;
  block.lastIndex = openapi.indexOf('      description:', start);
  const match = block.exec(openapi);
  if (!match?.[1]) throw new Error('the description block of OpenWOP-Force-Engine-Version was not found');
  return new RegExp(match[1].replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
}

/** The document with the `description` of one shared component (parameter or header) removed. */
function withoutDescription(text: string, component: string): string {
  const lines = text.split('\n');
  const components = lines.indexOf('components:');
  const at = lines.findIndex((line, index) => index > components && line === `    ${component}:`);
  if (at === -1) throw new Error(`no component ${component}`);
  const start = lines.findIndex((line, index) => index > at && line.startsWith('      description:'));
  let end = start + 1;
  while (lines[end]?.startsWith('        ')) end++;
  return [...lines.slice(0, start), ...lines.slice(end)].join('\n');
}
