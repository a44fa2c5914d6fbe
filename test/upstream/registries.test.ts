/**
 * The registries, schemas, layout and generated files of the real upstream corpus, read in place
 * (../shared/upstream/corpus, never copied into the project) by the built command line with the
 * project's config for it. Each finding asserted is a real inconsistency of that tree (its files
 * come from different commits); each absence asserted is a false finding the formats used to cause.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { matchesPattern } from '../../core/config/index.js';
import type { Diagnostic } from '../../core/output/diagnostics.js';
import { cli, lineOf, reported } from '../helpers.js';
import { UPSTREAM as ROOT, upstreamPresent } from '../upstream-corpus.js';

const CONFIG = 'test/upstream/openwop-spec.config.json';

/** 1-based line where `needle` first occurs in `file` of the upstream corpus. */
function upstreamLine(file: string, needle: string): number {
  return lineOf(readFileSync(path.join(ROOT, file), 'utf8'), needle);
}

describe.skipIf(!upstreamPresent(import.meta.url))(
  'the upstream corpus: registries, schemas, layout and generated files',
  { timeout: 120_000 },
  () => {
    let findings: Diagnostic[] = [];
    // A rule id, or the old id of rules split out of one (its findings are theirs).
    const of = (rule: string) => findings.filter((finding) => matchesPattern(finding.rule, rule));
    const at = (rule: string, file: string, line: number) =>
      of(rule).filter((finding) => finding.file === file && finding.line === line);

    beforeAll(async () => {
      const result = await cli(['check', '--root', ROOT, '--config', CONFIG, '--format', 'json', '--no-cache']);
      expect(result.stderr).toBe('');
      expect(result.status).toBe(1);
      findings = reported(result.stdout);
    }, 120_000);

    it('declaration/registry: one finding for a violation every family row repeats, and the rows are still checked', () => {
      const schema = of('declaration/registry').filter((finding) => finding.message.startsWith('does not match'));
      expect(schema.map((finding) => [finding.file, finding.line, finding.message])).toEqual([
        [
          'spec/v2/declaration.json',
          upstreamLine('spec/v2/declaration.json', '"normativeText"'),
          'does not match spec/v2/declaration.schema.json: /families/*: property "normativeText" is not allowed (at 46 places, the first here)',
        ],
      ]);
      // § key headings, ext/<key>/ directories, metadata without a section, `"reserved": true`.
      const rest = of('declaration/registry').filter((finding) => !finding.message.startsWith('does not match'));
      // normativeText completeness (true findings, counted in test/upstream/parity.test.ts) aside.
      expect(
        rest.filter(
          (finding) =>
            !finding.message.startsWith('normativeText of') &&
            /section|Normative home|undefined|`example`/.test(finding.message),
        ),
      ).toEqual([]);
      // ai.message.chunk is a three-segment type, not a vendor type of an org `ai`.
      expect(rest.filter((finding) => finding.message.includes('ai.message.chunk'))).toEqual([]);
    });

    it('events/codemap: checks the rows past the v1-era schema, with rename reasons in notes[] and artifact events in note', () => {
      const codemap = 'spec/v2/event-codemap.json';
      expect(
        at('events/codemap', codemap, upstreamLine(codemap, '"version"')).map((finding) => finding.message),
      ).toEqual([
        // `type` and `const` of one subschema failing on one value: one violation, said once.
        'does not match spec/v2/event-codemap.schema.json: /version: must be integer, and must be 1',
      ]);
      expect(of('events/codemap').filter((finding) => finding.message.includes('with no `note` saying why'))).toEqual(
        [],
      );
      const tense = of('events/codemap').filter((finding) => finding.message.includes('is not past tense'));
      // Rows whose note records an artifact event (output.chunk, channel.presence, …) are not among them.
      expect(tense.map((finding) => /`([^`]+)`/.exec(finding.message)?.[1])).toEqual([
        'workflow.loopback-limit',
        'model.capability-insufficient',
        'workflow-chain.event',
        'voice.speech-start',
        'voice.transcript',
        'voice.turn-commit',
        'voice.barge-in',
      ]);
      expect(tense[0]?.line).toBe(upstreamLine(codemap, '"v2": "workflow.loopback-limit"'));
    });

    it('ids/bindings: holds the map to the schema the tool carries, and finds id fields typed `type: string` in the OpenAPI document', () => {
      const openapi = 'api/v2/openapi.yaml';
      expect(at('ids/bindings', openapi, 206).map((finding) => finding.message)).toEqual([
        'property `workflowId` is bound to the kind `workflowId`, but its schema does not $ref it',
      ]);
      expect(at('ids/bindings', openapi, 214).map((finding) => finding.message)).toEqual([
        'property `tenantId` is bound to the kind `tenantId`, but its schema does not $ref it',
      ]);
      // A path-relative $ref into schemas/v2/ids.schema.json (whose $id is under spec/v2/) reaches its kind.
      expect(
        at('ids/bindings', openapi, upstreamLine(openapi, '$ref: ../../schemas/v2/ids.schema.json#/$defs/runId') - 1),
      ).toEqual([]);
      const bindings = of('ids/bindings');
      expect(bindings.filter((finding) => /is missing or does not load|stale/.test(finding.message))).toEqual([]);
      expect(
        bindings.filter(
          (finding) =>
            finding.file === 'api/seams-v2.yaml' ||
            finding.file.endsWith('declaration.schema.json') ||
            finding.file.endsWith('harness-trust-anchors.schema.json'),
        ),
      ).toEqual([]);
    });

    it("witness/classes: reads invariants and the baseline in upstream's shape, against the schemas the tool carries", () => {
      expect(of('witness/classes')).toEqual([]);
    });

    it('schemas/compile: $ids under https://openwop.dev/spec/v2/, facet fragments and `not: {required}` accepted; missing $ref targets found', () => {
      expect(of('schemas/compile').map((finding) => `${finding.file}:${finding.line}`)).toEqual([
        `schemas/v2/configurable.schema.json:${upstreamLine('schemas/v2/configurable.schema.json', '"budget-policy.schema.json"')}`,
        `schemas/v2/conversation-event.schema.json:${upstreamLine('schemas/v2/conversation-event.schema.json', '"run-event-payloads.schema.json#/$defs/conversationExchanged"')}`,
        `schemas/v2/suspend-request.schema.json:${upstreamLine('schemas/v2/suspend-request.schema.json', '"credential-reference.schema.json"')}`,
      ]);
    });

    it("errors/registry: `version` is the format's version, and closed rows are not asked for retriableException", () => {
      const errors = of('errors/registry');
      expect(errors.filter((finding) => finding.file === 'spec/v2/errors.json')).toEqual([]);
      // Counts that disagree with a registry of 101 rows (the ones in strings are the citations test's);
      // the count of a document generated whole is its generator's, not one written by hand.
      expect(errors.map((finding) => `${finding.file}:${finding.line}`)).toEqual(
        expect.arrayContaining(['spec/v2/core/errors.md:11', 'spec/v2/core/errors.md:31']),
      );
      expect(errors.filter((finding) => finding.file === 'spec/v2/generated/error-codes.md')).toEqual([]);
    });

    it('generated files: a whole-file output is compared with its generator, each differing row or entry at its line', () => {
      const headers = 'spec/v2/core/headers.md';
      expect(of('generated/region').filter((finding) => finding.file === headers)).toEqual([]);
      expect(
        at('generated/drift', headers, upstreamLine(headers, '| `OpenWOP-Client-Version` |')).map(
          (finding) => finding.message,
        ),
      ).toEqual([
        'stale generated content: row `OpenWOP-Client-Version` is not in what headers produces; expected no such row',
      ]);
      // ETag and Cache-Control are described per operation: upstream's generator writes one neutral row for each, which stays.
      expect(at('generated/drift', headers, upstreamLine(headers, '| `ETag` |'))).toEqual([]);
      expect(at('generated/drift', headers, upstreamLine(headers, '| `Cache-Control` |'))).toEqual([]);
      expect(of('generate/headers')).toEqual([]);

      const codes = 'spec/v2/generated/error-codes.md';
      expect(
        at('generated/drift', codes, upstreamLine(codes, '`unsupported_runtime` |')).map((finding) => finding.message),
      ).toEqual([
        'stale generated content: row `unsupported_runtime` is not in what errors-doc produces; expected no such row',
      ]);
      expect(of('generated/drift').filter((finding) => finding.file === codes)).toHaveLength(7);

      const manifest = 'spec/v2/path-manifest.json';
      const drift = of('generated/drift').filter((finding) => finding.file === manifest);
      expect(drift.filter((finding) => /\$comment|generatedFrom|serverUrl|channels/.test(finding.message))).toEqual([]);
      expect(drift.find((finding) => finding.message.includes('entry GET /.well-known/openwop '))).toMatchObject({
        line: upstreamLine(manifest, '"requestHeaders"'),
      });
      expect(
        drift.find((finding) => finding.message.includes('DELETE /content/pages/{slug} is not generated')),
      ).toBeDefined();
      expect(drift.some((finding) => finding.message.includes('more differing'))).toBe(false);

      // The envelope upstream's own script generates: only the facts both shapes hold (codes and statuses).
      const envelope = of('generated/drift').filter(
        (finding) => finding.file === 'schemas/v2/error-envelope.schema.json',
      );
      expect(envelope.map((finding) => finding.message.split(' is not generated')[0])).toEqual([
        'stale generated content: x-openwop-http-status.unsupported_runtime',
        'stale generated content: x-openwop-http-status.webhook_endpoint_unverified',
        'stale generated content: x-openwop-http-status.connector_auth_declined',
        'stale generated content: x-openwop-http-status.connection_auth_metadata_mismatch',
        'stale generated content: x-openwop-http-status.credential_lifetime_exceeded',
        'stale generated content: x-openwop-http-status.replay_context_summary_unavailable',
      ]);
    });

    it('the stamp is spec-artifacts/CORPUS-STAMP.json, versioned by the package.json beside it', () => {
      expect(of('generate/corpus-stamp').map((finding) => `${finding.file} ${finding.message}`)).toEqual([
        'spec-artifacts/CORPUS-STAMP.json cannot refresh spec-artifacts/CORPUS-STAMP.json: there is no spec-artifacts/package.json beside it',
      ]);
    });
  },
);
