import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { driftDiagnostics, planGeneration } from '../../core/run/generation.js';
import pathManifest, { PATH_MANIFEST } from '../../generators/path-manifest.js';
import { fixture } from '../helpers.js';
import { corpusOf, edited, plannedText, corpusTexts } from './support.js';

const GOOD = fixture('api/good');

describe('generator path-manifest', () => {
  const manifest = JSON.parse(plannedText(loadCorpus(GOOD), PATH_MANIFEST)) as {
    generatedFrom: string[];
    serverUrl?: string;
    operations: Array<{ method: string; path: string; operationId: string; requestHeaders: string[]; authenticated: boolean; requestBody: boolean }>;
    channels: Array<{ name: string; address: string }>;
    counts: { operations: number; channels: number };
  };

  it('has upstream\'s shape, keys in order: both API documents as sources, the server URL, and generated counts', () => {
    expect(Object.keys(manifest)).toEqual(['generatedFrom', 'serverUrl', 'operations', 'channels', 'counts']);
    expect(manifest.generatedFrom).toEqual(['api/v2/openapi.yaml', 'api/v2/asyncapi.yaml']);
    expect(manifest.counts).toEqual({ operations: 5, channels: 2 });
    expect(Object.keys(manifest.operations[0] ?? {})).toEqual(['method', 'path', 'operationId', 'requestHeaders', 'authenticated', 'requestBody']);
  });

  it('lists operations by path then method, with their request headers, security and body', () => {
    expect(manifest.operations.map((o) => `${o.method} ${o.path}`)).toEqual(['GET /.well-known/openwop', 'GET /host/events', 'POST /runs', 'GET /runs/{runId}', 'GET /runs/{runId}/events']);
    expect(manifest.operations[0]).toEqual({
      method: 'GET',
      path: '/.well-known/openwop',
      operationId: 'getDiscovery',
      requestHeaders: ['If-None-Match', 'OpenWOP-Client-Version', 'OpenWOP-Version'],
      authenticated: false,
      requestBody: false,
    });
    expect(manifest.operations[2]).toMatchObject({ operationId: 'createRun', requestHeaders: ['Idempotency-Key', 'OpenWOP-Client-Version', 'OpenWOP-Dedup', 'OpenWOP-Version'], authenticated: true, requestBody: true });
    // declared at the path item and again at the operation: listed once
    expect(manifest.operations[3]?.requestHeaders).toEqual(['If-None-Match', 'OpenWOP-Client-Version', 'OpenWOP-Version']);
  });

  it('lists the AsyncAPI channels with their addresses', () => {
    expect(manifest.channels).toEqual([
      { name: 'hostEvents', address: '/host/events' },
      { name: 'runEvents', address: '/runs/{runId}/events' },
    ]);
  });

  it('fills every count/operations region', () => {
    expect(plannedText(loadCorpus(GOOD), 'spec/v2/core/headers.md')).toContain('<!-- generated: count/operations -->**5**<!-- /generated: count/operations -->');
  });

  it('follows the document: one more operation is one more entry and one more in every count', () => {
    const files = edited(corpusTexts(GOOD), 'api/v2/openapi.yaml', '  /host/events:', '  /agents:\n    get:\n      operationId: listAgents\n      responses: {}\n  /host/events:');
    const grown = JSON.parse(plannedText(corpusOf(files), PATH_MANIFEST)) as typeof manifest;
    expect(grown.counts.operations).toBe(6);
    expect(grown.operations[1]).toEqual({ method: 'GET', path: '/agents', operationId: 'listAgents', requestHeaders: [], authenticated: true, requestBody: false });
    expect(plannedText(corpusOf(files), 'spec/v2/core/headers.md')).toContain('**6**');
  });

  it('lists no channel when there is no AsyncAPI document, and refuses one that cannot be read', () => {
    const files = corpusTexts(GOOD);
    delete files['api/v2/asyncapi.yaml'];
    expect(JSON.parse(plannedText(corpusOf(files), PATH_MANIFEST)).channels).toEqual([]);
    const broken = { ...files, 'api/v2/asyncapi.yaml': 'title: not an AsyncAPI document\n' };
    const result = planGeneration(corpusOf(broken), [pathManifest]);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toMatchObject([{ rule: 'generate/path-manifest', file: 'api/v2/asyncapi.yaml' }]);
  });

  it('generates nothing for a corpus with no API, and reports a manifest left without its source', () => {
    const files = corpusTexts(GOOD);
    delete files['api/v2/openapi.yaml'];
    delete files['api/v2/asyncapi.yaml'];
    const without = { ...files };
    delete without['spec/v2/path-manifest.json'];
    without['spec/v2/core/headers.md'] = '# Headers\n';
    expect(planGeneration(corpusOf(without), [pathManifest]).files).toEqual([]);
    expect(planGeneration(corpusOf(without), [pathManifest]).diagnostics).toEqual([]);
    const stale = planGeneration(corpusOf(files), [pathManifest]).diagnostics.filter((d) => d.severity === 'error');
    expect(stale).toMatchObject([{ rule: 'generate/path-manifest', file: PATH_MANIFEST, message: expect.stringMatching(/does not exist/) }]);
  });
});

describe('path-manifest in upstream\'s form', () => {
  it('keeps the author\'s $comment and compares the operations entry by entry', () => {
    const files = corpusTexts(GOOD);
    const current = JSON.parse(plannedText(corpusOf(files), PATH_MANIFEST)) as Record<string, unknown> & { operations: Array<Record<string, unknown>> };
    const withComment = { $comment: 'GENERATED by scripts/derive-v2-api.py: the canonical operations', ...current };
    const text = `${JSON.stringify(withComment, null, 2)}\n`;
    expect(plannedText(corpusOf({ ...files, [PATH_MANIFEST]: text }), PATH_MANIFEST)).toBe(text);
    // Its generator's layout (four spaces, records in another order) says the same facts: no finding.
    const relaid = `${JSON.stringify({ ...withComment, operations: [...withComment.operations].reverse() }, null, 4)}\n`;
    expect(driftDiagnostics(planGeneration(corpusOf({ ...files, [PATH_MANIFEST]: relaid }), [pathManifest]))).toEqual([]);

    const drifted = structuredClone(withComment);
    drifted.operations[2] = { ...drifted.operations[2], requestHeaders: ['OpenWOP-Version'] };
    drifted.operations.splice(4, 1);
    const driftedText = `${JSON.stringify(drifted, null, 2)}\n`;
    const drift = driftDiagnostics(planGeneration(corpusOf({ ...files, [PATH_MANIFEST]: driftedText }), [pathManifest]));
    const lineOf = (needle: string, from = 0) => driftedText.slice(0, driftedText.indexOf(needle, from)).split('\n').length;
    expect(drift.map((d) => [d.line, d.message])).toEqual([
      [lineOf('"requestHeaders"', driftedText.indexOf('"createRun"')), 'stale generated content: operations entry POST /runs differs; expected requestHeaders ["Idempotency-Key","OpenWOP-Client-Version","OpenWOP-Dedup","OpenWOP-Version"] (against what path-manifest produces)'],
      // Where it would go: after the last entry there is.
      [lineOf('"path": "/runs/{runId}"') - 2, expect.stringMatching(/^stale generated content: operations has no entry GET \/runs\/\{runId\}\/events; expected \{"method":"GET","path":"\/runs\/\{runId\}\/events"/)],
    ]);
  });
});
