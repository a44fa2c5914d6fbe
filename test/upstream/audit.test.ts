/**
 * The classification of docs/upstream-findings.md held against the built CLI on the upstream corpus,
 * read in place (../shared/upstream/corpus, never copied): each class of false or duplicate
 * finding found there stays absent, and a representative of each true class stays found at its line.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { matchesPattern } from '../../core/config/index.js';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, reported, type CliResult } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

const CONFIG = 'test/upstream/openwop-spec.config.json';
const CORE = 'spec/v2/core';

describe.skipIf(!upstreamPresent(import.meta.url))(
  'upstream corpus: the audited classification',
  { timeout: 60_000 },
  () => {
    // One run for every case, once they are collected (the runner is asynchronous).
    let result: CliResult;
    let found: Diagnostic[] = [];
    beforeAll(async () => {
      result = await cli(['check', '--root', UPSTREAM, '--config', CONFIG, '--no-cache', '--format', 'json']);
      found = reported(result.stdout);
    }, 60_000);
    // A rule id, or the old id of rules split out of one (its findings are theirs).
    const of = (rule: string) => found.filter((d) => matchesPattern(d.rule, rule));
    const places = (rule: string) => of(rule).map((d) => `${d.file}:${d.line}:${d.column}`);
    const lines = (rule: string) => of(rule).map((d) => `${d.file}:${d.line}`);

    it('runs to the end with findings, never a usage error', () => {
      expect(result.status).toBe(1);
    });

    it('docs/readability: no restated family owner, linked RFC or core status line (docs/structure has it); prose, headings, cells and lengths still found', () => {
      const readability = lines('docs/readability');
      expect(readability.filter((line) => line.startsWith(`${CORE}/`) && line.endsWith(':3'))).toEqual([]); // old status lines: docs/structure
      expect(readability).not.toContain(`${CORE}/capabilities.md:78`); // Witness `witnessable-gated`; owner RFC 0193
      expect(readability).not.toContain('spec/v2/ext/canvas/README.md:10'); // | **owning RFC** | RFC 0144 |
      expect(readability).not.toContain(`${CORE}/portability.md:32`); // [RFC 0043](…/RFCS/0043-….md)
      expect(places('docs/readability').filter((place) => place.startsWith('spec/v2/README.md:9:'))).toEqual([
        'spec/v2/README.md:9:66',
      ]); // the Owner column is data; the 48-word cell is not
      expect(places('docs/structure')).toContain(`${CORE}/form-content-packs.md:3:3`);
      expect(places('docs/readability')).toEqual(
        expect.arrayContaining([
          `${CORE}/capabilities.md:9:32`, // ## 1. One well-known resource (RFC 0176 §C.1)
          `${CORE}/idempotency.md:11:37`, // (RFC 0171 §C.1) in running text
          `${CORE}/idempotency.md:32:10`, // a table cell of 47 words
          'spec/v2/ext/canvas/README.md:12:67', // an extension's banner, which docs/structure does not read
          'spec/v2/ext/canvas/README.md:9:50', // (RFC 0169 §A.4) in the "advertised as" cell
        ]),
      );
    });

    it('api/version-header: no OpenWOP-Client-Version asked of an API and a versioning.md that never name it; a response without OpenWOP-Version still found', () => {
      expect(of('api/version-header').filter((d) => d.message.includes('OpenWOP-Client-Version'))).toEqual([]);
      expect(of('api/version-header').map((d) => `${d.file}:${d.line} ${d.message.slice(0, 40)}`)).toContain(
        'api/v2/openapi.yaml:3185 the 401 response of getWorkflow (GET /wo',
      );
    });

    it('links/section-ref: a bare name in a file that speaks of v1 documents is not read as the v2 document of that name', () => {
      const errors = of('links/section-ref').filter((d) => d.severity === 'error');
      expect(errors.filter((d) => d.file.startsWith('SECURITY/'))).toEqual([]);
      expect(errors.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(
        expect.arrayContaining([`${CORE}/security-defaults.md:89:37`, 'schemas/v2/host-event.schema.json:23:136']),
      );
    });

    it("links/bare-doc-reference and errors/used-codes-registered: a document generated whole is its generator's; generated/drift names its rows", () => {
      expect(lines('links/bare-doc-reference').filter((line) => line.startsWith(`${CORE}/headers.md`))).toEqual([]);
      expect(places('links/bare-doc-reference')).toContain(`${CORE}/capabilities.md:61:45`);
      expect(lines('errors/used-codes-registered').filter((line) => line.startsWith('spec/v2/generated/'))).toEqual([]);
      expect(lines('generated/drift')).toContain('spec/v2/generated/error-codes.md:31');
      expect(places('errors/used-codes-registered')).toEqual(
        expect.arrayContaining([`${CORE}/identity.md:144:4`, 'api/seams-v2.yaml:409:47']),
      );
    });

    it('api/no-v1: no finding on a frame name of v2 words, on overlap prose or on a quoted v1 heading; stale v1 paths and a camelCase name still found', () => {
      const noV1 = of('api/no-v1').map((d) => `${d.file}:${d.line} ${d.message}`);
      expect(noV1.filter((line) => line.includes('ai.message.chunk'))).toEqual([]);
      expect(noV1.filter((line) => line.startsWith(`${CORE}/versioning.md:`))).toEqual([]);
      expect(noV1.filter((line) => line.startsWith('api/v2/openapi.yaml:1082 '))).toEqual([]);
      expect(lines('api/no-v1')).toEqual(
        expect.arrayContaining(['api/v2/openapi.yaml:36', 'spec/v2/facets/packs.schema.json:14']),
      );
      // heartbeat.stateChanged is a host event on the hostEvents channel (events.md §Host events), not a run event.
      expect(lines('api/no-v1')).not.toContain('api/v2/asyncapi.yaml:280');
    });

    it('ids/bindings: a list whose items $ref the kind needs no class; bound fields typed string and notAKind fields that $ref a kind still found', () => {
      expect(of('ids/bindings').filter((d) => d.message.includes('runIds'))).toEqual([]);
      expect(places('ids/bindings')).toEqual(
        expect.arrayContaining([
          'api/v2/openapi.yaml:206:19',
          'api/v2/openapi.yaml:214:19',
          'api/v2/openapi.yaml:2408:19',
        ]),
      );
    });

    it('events/codemap: the v1 type names of SECURITY/invariants.yaml, which cites v1 documents, are left alone; a v2 schema and v2 prose are not', () => {
      expect(lines('events/codemap').filter((line) => line.startsWith('SECURITY/'))).toEqual([]);
      expect(places('events/codemap')).toEqual(
        expect.arrayContaining([
          'schemas/v2/trigger-event.schema.json:5:353',
          `${CORE}/execution.md:50:137`,
          `${CORE}/tool-catalog.md:22:494`,
        ]),
      );
    });

    it('api/error-responses: a shared 401 without its challenge is one finding where it is defined', () => {
      const challenge = of('api/error-responses').filter((d) => d.message.includes('declares no WWW-Authenticate'));
      expect(challenge.map((d) => `${d.file}:${d.line}`)).toEqual([
        'api/seams-v2.yaml:834',
        'api/v2/openapi.yaml:3185',
      ]);
      expect(places('api/error-responses')).toEqual(
        expect.arrayContaining(['api/v2/openapi.yaml:3005:5', 'api/v2/openapi.yaml:3029:5']),
      ); // protected, no 401 documented
      expect(challenge.find((d) => d.line === 3185)?.message).toMatch(
        /^the 401 response of \S+ \(.+\) and \d+ other operations declares no WWW-Authenticate challenge$/,
      );
    });

    it("api/header-naming, api/security, docs/examples: upstream's component keys, its prose-only scopes and its unannotated examples draw nothing; the removed X-Dedup named in two descriptions does", () => {
      expect(of('api/header-naming').map((d) => `${d.messageId} ${d.file}:${d.line}:${d.column}`)).toEqual([
        'removed-mention api/v2/openapi.yaml:219:61', // "Opaque correlation ID for `X-Dedup` semantics."
        'removed-mention api/v2/openapi.yaml:307:26', // "`X-Dedup` collision OR …" (the header is OpenWOP-Dedup)
      ]);
      expect(of('api/security')).toEqual([]);
      expect(of('docs/examples')).toEqual([]);
    });
  },
);
