/**
 * The text half of issue 13 on the real upstream corpus, read in place (../shared/upstream/corpus,
 * never copied into the project): citations and mentions wherever they are written, and the
 * house-style migration as a fix, run on a copy in a temporary directory.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config/index.js';
import { loadCorpus } from '../../core/model/index.js';
import { classifyMention, eventCodemap, eventNameMentions, vendorOrgs } from '../../core/registries/index.js';
import type { Diagnostic } from '../../core/output/index.js';
import { cli, REPO, reported as reportedFindings } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

const PRESENT = upstreamPresent(import.meta.url);
const CONFIG = 'test/upstream/openwop-spec.config.json';
const CORE = 'spec/v2/core';

async function checkWithRules(root: string, ...rules: string[]): Promise<Diagnostic[]> {
  const result = await cli([
    'check',
    '--root',
    root,
    '--config',
    CONFIG,
    '--format',
    'json',
    ...rules.flatMap((rule) => ['--rule', rule]),
  ]);
  if (result.status === 2) throw new Error(result.stderr);
  return reportedFindings(result.stdout);
}

const lineAt = (d: Diagnostic) => `${d.file}:${d.line}`;
const placed = (d: Diagnostic) => `${d.file}:${d.line}:${d.column}`;

describe.skipIf(!PRESENT)('upstream corpus: citations and mentions', { timeout: 60_000 }, () => {
  let found: Diagnostic[] = [];
  const of = (rule: string) => found.filter((d) => d.rule === rule);
  beforeAll(async () => {
    found = await checkWithRules(UPSTREAM);
  }, 60_000);

  it('finds the broken section citations, each at its own line and column, in prose, tables, code spans and JSON/YAML strings', () => {
    const sections = of('links/section-ref').filter((d) => d.severity === 'error');
    const where = sections.map(placed);
    expect(where).toEqual(
      expect.arrayContaining([
        `${CORE}/execution.md:57:171`, // ([host-services.md](host-services.md) §`memory`)
        `${CORE}/persistence.md:11:436`, // events.md §Rules
        `${CORE}/runs.md:49:52`, // [interrupt.md](interrupt.md) §Callback delivery
        `${CORE}/replay.md:21:70`, // [runs.md §Fork](runs.md): the link stops at the document
        `${CORE}/security-defaults.md:89:37`, // a table cell: `SECURITY/threat-model-replay.md` §6
        `${CORE}/security-defaults.md:90:37`, // §7 Verification, ...
        `${CORE}/security-defaults.md:90:54`, // ... §8 References: the list keeps its document
        'spec/v2/event-codemap.schema.json:110:116', // a description: `events.md` §Naming's
        'spec/v2/facets/supportedEnvelopes.schema.json:12:476', // (`events.md` §\"The envelope-kind catalog\")
        'schemas/v2/suspend-request.schema.json:322:226', // `interrupt.md` §`ApprovalResume`
        'api/v2/openapi.yaml:1189:21', // a folded YAML description: `replay.md` §"Replay-mode defaults", on its own line
      ]),
    );
    const message = (place: string) => sections.find((d) => placed(d) === place)?.message;
    expect(message(`${CORE}/execution.md:57:171`)).toBe(
      'spec/v2/core/host-services.md has no heading that is or begins with §`memory`',
    );
    expect(message(`${CORE}/replay.md:21:70`)).toBe(
      'the link for §Fork stops at the document; link to the heading, #fork',
    );
    expect(sections.find((d) => placed(d) === `${CORE}/replay.md:21:70`)?.hint).toBeDefined();
  });

  it('says a citation of a document outside the corpus cannot be checked', () => {
    const outside = of('links/section-ref').filter((d) => d.severity === 'warning');
    expect(outside.map(placed)).toEqual(
      expect.arrayContaining([
        'spec/v2/errors.json:24:44', // "source": "spec/v1/rest-endpoints.md §Error response shape"
        'spec/v2/ext/kanban/README.md:16:215', // `spec/v1/host-capabilities.md` §host.kanban
        'SECURITY/threat-model-replay.md:5:159', // `RFCS/0057-*` §D
        'api/seams-v2.yaml:824:70', // per `spec/v1/node-packs.md` §Naming
      ]),
    );
    expect(outside.every((d) => / is not a document of the corpus, so §.+ cannot be checked$/.test(d.message))).toBe(
      true,
    );
  });

  it('reads none of the false citations of before as ours', () => {
    const lines = new Set(of('links/section-ref').map(lineAt));
    const capabilities = readFileSync(path.join(UPSTREAM, CORE, 'capabilities.md'), 'utf8').split('\n');
    const labels = capabilities.flatMap((line, index) =>
      line.startsWith('### § ') ? [`${CORE}/capabilities.md:${index + 1}`] : [],
    );
    expect(labels).toHaveLength(72);
    const falseBefore = [
      ...labels, // ### § supportedEnvelopes names its section
      `${CORE}/capabilities.md:322`, // § a2a's off-origin paragraph: the heading ### § a2a
      `${CORE}/capabilities.md:44`, // (RFC 0169 §A.1a, §A.4)
      `${CORE}/persistence.md:3`, // RFC 0176 (§A–§B, §D–§E), 0171 §A, 0170 §A.3
      `${CORE}/security-defaults.md:3`,
      `${CORE}/webhooks.md:3`,
      `${CORE}/interop.md:58`, // A2A §3.4.3
      'SECURITY/threat-model-replay.md:59', // Martin Fowler, *Event Sourcing* §"External Updates"
      `${CORE}/identity.md:42`, // ### 2.1 The pipeline (§B.1): the RFC's lettered section
      `${CORE}/security-defaults.md:11`, // `core/` (§D.1)
      `${CORE}/persistence.md:84`, // (§1.2): versioning.md's, not written
      'spec/v2/ext/chat/README.md:24', // [`spec/v1/host-capabilities.md`](https://…) (§host.chat)
    ];
    expect(falseBefore.filter((line) => lines.has(line))).toEqual([]);
    // ext/*/README.md: "prose-only §host.* section in v1" names a family of v1 sections, not one of ours.
    expect(
      of('links/section-ref').filter((d) => d.message.includes('§host.*') || d.message.includes('§host.chat')),
    ).toEqual([]);
  });

  it('accepts the Sources footer "RFCs 0002, 0007, 0022" and reports each pre-2.42.8 status line once, with a fix', () => {
    const structure = of('docs/structure');
    expect(structure.filter((d) => d.message.includes('is not of the form'))).toEqual([]);
    const status = structure.filter((d) => d.message.startsWith('status line'));
    expect(status.map(lineAt)).toEqual(
      expect.arrayContaining([
        `${CORE}/form-content-packs.md:3`,
        `${CORE}/persistence.md:3`,
        `${CORE}/capabilities.md:3`,
      ]),
    );
    expect(status).toHaveLength(19);
    expect(structure.filter((d) => d.file === `${CORE}/execution.md` || d.file === `${CORE}/replay.md`)).toEqual([]);
  });

  it('finds the hand-written registry counts that disagree with errors.json, in prose and in a schema description', () => {
    const counts = of('errors/registry').filter((d) => d.messageId === 'count-wrong');
    expect(counts.map(placed)).toEqual(
      expect.arrayContaining([`${CORE}/errors.md:31:39`, 'schemas/v2/error-envelope.schema.json:5:110']),
    );
    // The line upstream's generator writes, in a corpus without count regions: held to being right.
    expect(counts.find((d) => d.file === `${CORE}/errors.md` && d.line === 31)?.data).toMatchObject({
      phrase: '97 codes',
      written: 97,
      count: 101,
    });
    expect(counts.find((d) => d.file === 'schemas/v2/error-envelope.schema.json')?.data).toMatchObject({
      phrase: '107 registered codes',
      written: 107,
      count: 101,
    });
  });

  it('reads the error codes of api/seams-v2.yaml', () => {
    const codes = of('errors/used-codes-registered');
    expect(codes.find((d) => placed(d) === 'api/seams-v2.yaml:409:47')).toMatchObject({
      messageId: 'unregistered',
      data: { code: 'unpublish_window_expired' },
    });
  });
});

describe.skipIf(!PRESENT)('upstream corpus: event types wherever they are written', { timeout: 60_000 }, () => {
  // Read through the model the gates share; events/codemap and declaration/registry report these
  // verdicts once they read upstream's codemap and declaration (the registries half of issue 13).
  let verdicts: Array<{ where: string; name: string; verdict: ReturnType<typeof classifyMention> }> = [];
  beforeAll(() => {
    const config = loadConfig(UPSTREAM, path.join(REPO, CONFIG));
    const corpus = loadCorpus(UPSTREAM, { config });
    const codemap = eventCodemap(corpus);
    const types = (codemap?.rows ?? []).map((row) => row.v2Override ?? row.v2);
    const registries = {
      protocolTypes: new Set(types),
      domains: new Set(types.map((type) => type.split('.')[0] ?? '')),
      frames: new Set(codemap?.frames ?? []),
      registeredOrgs: new Set(vendorOrgs(corpus)?.registered ?? []),
      reservedOrgs: new Set(vendorOrgs(corpus)?.reserved ?? []),
    };
    verdicts = eventNameMentions(corpus).map((mention) => ({
      where: `${mention.file}:${mention.line}`,
      name: mention.name,
      verdict: classifyMention(mention, registries),
    }));
  }, 60_000);

  it('finds each v1 name a codemap row renames, of two segments or three, in prose and in strings at its line', () => {
    const renamed = verdicts.filter((v) => v.verdict.kind === 'v1-type').map((v) => `${v.where} ${v.name}`);
    expect(renamed).toEqual([
      `${CORE}/execution.md:48 runOrchestrator.decided`,
      `${CORE}/execution.md:50 core.workflowChain.event`,
      `${CORE}/execution.md:50 runOrchestrator.decided`,
      `${CORE}/execution.md:52 core.workflowChain.event`,
      `${CORE}/execution.md:56 core.workflowChain.confidence-escalated`,
      `${CORE}/execution.md:71 runOrchestrator.decided`,
      `${CORE}/tool-catalog.md:22 tool.session.opened`,
      `${CORE}/tool-catalog.md:22 tool.session.closed`,
      // in code spans of JSON and YAML strings; outside v2 text only three segments (events/codemap leaves SECURITY/, which cites v1 documents, alone)
      'SECURITY/invariants.yaml:61 agent.reasoning.delta',
      'SECURITY/invariants.yaml:152 model.capability.substituted',
      'SECURITY/invariants.yaml:320 envelope.recovery.applied',
      'SECURITY/invariants.yaml:3477 trigger.delivery.attempted',
      'SECURITY/invariants.yaml:3481 trigger.delivery.attempted',
      'api/v2/asyncapi.yaml:401 connector.auth_expired',
      'schemas/v2/trigger-event.schema.json:5 trigger.delivery.attempted',
    ]);
  });

  it('takes ai.message.chunk for the AsyncAPI message it is, not a vendor type of an org "ai"', () => {
    const chunk = verdicts.filter((v) => v.name === 'ai.message.chunk');
    expect(chunk.map((v) => v.where)).toContain(`${CORE}/events.md:81`);
    expect(chunk.every((v) => v.verdict.kind === 'registered')).toBe(true);
  });
});

describe.skipIf(!PRESENT)('upstream corpus: check --fix migrates the house style', { timeout: 120_000 }, () => {
  let root = '';
  beforeAll(() => {
    root = mkdtempSync(path.join(tmpdir(), 'openwop-upstream-'));
    cpSync(UPSTREAM, root, { recursive: true });
  }, 60_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('leaves docs/structure and links/bare-doc-reference with nothing to report, and changes only lines that were reported', async () => {
    const rules = ['docs/structure', 'links/bare-doc-reference'];
    const before = await checkWithRules(root);
    expect(before.filter((d) => rules.includes(d.rule)).length).toBeGreaterThan(100);
    const reported = new Set(before.map(lineAt));
    const originals = new Map(before.map((d) => [d.file, readFileSync(path.join(root, d.file), 'utf8')]));
    const fixed = await cli(['check', '--root', root, '--config', CONFIG, '--format', 'json', '--fix']);
    const after = reportedFindings(fixed.stdout);
    expect(after.filter((d) => rules.includes(d.rule))).toEqual([]);
    expect(await checkWithRules(root, ...rules)).toEqual([]);

    const touched: string[] = [];
    for (const [file, text] of originals) {
      const old = text.split('\n');
      const now = readFileSync(path.join(root, file), 'utf8').split('\n');
      // The fixes change lines in place; only a footer added to a document grows it, after its last line.
      for (let i = 0; i < old.length; i++) if (old[i] !== now[i]) touched.push(`${file}:${i + 1}`);
      if (now.length > old.length) {
        const last = old.length - (old[old.length - 1] === '' ? 1 : 0);
        touched.push(`${file}:${last}`);
        expect(now.slice(old.length - 1)).toEqual([
          '',
          expect.stringMatching(/^\*Sources: RFC \d{4}(, RFC \d{4})*\.\*$/),
          '',
        ]);
      }
    }
    expect(touched.length).toBeGreaterThan(50);
    // An old status line is one finding, at the line, whose fix also merges its RFCs into the
    // footer (or adds one after the last line): that footer is the only line changed unreported.
    const migrated = new Set(before.filter((d) => d.messageId === 'old-status-with-rfcs').map((d) => d.file));
    const footerOfMigrated = (line: string): boolean => {
      const [file, number] = [line.slice(0, line.lastIndexOf(':')), Number(line.slice(line.lastIndexOf(':') + 1))];
      const old = (originals.get(file) ?? '').split('\n');
      return (
        migrated.has(file) &&
        ((old[number - 1] ?? '').startsWith('*Sources: ') ||
          number === old.length - (old[old.length - 1] === '' ? 1 : 0))
      );
    };
    expect(touched.filter((line) => !reported.has(line) && !footerOfMigrated(line))).toEqual([]);

    const persistence = readFileSync(path.join(root, CORE, 'persistence.md'), 'utf8');
    expect(persistence.split('\n')[2]).toBe('> **Status: Stable.**');
    expect(persistence.trimEnd().split('\n').at(-1)).toBe('*Sources: RFC 0170, RFC 0171, RFC 0176.*');
  });
});
