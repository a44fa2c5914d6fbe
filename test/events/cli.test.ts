/**
 * The judged scenario, through the built command line (`npx tsc -p .` first) on a private copy of
 * the events fixture: a new codemap row reaches the enum, `_typeIndex`, both renderings and every
 * count in one `generate`, after which `generate --check` and the gates are clean.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CORPUS_DIRECTORIES, CORPUS_ROOT_FILES } from '../../core/model/corpus.js';
import { cli, cliReport, copyCorpus, readJson, readText, removeTempDirs, REPO, writeText } from '../helpers.js';
import {
  CLOSED,
  CLOUDEVENT,
  CODEMAP,
  copyEventsFixture,
  decided,
  EVENTS_MD,
  PAYLOADS,
  position,
  RUN_EVENT,
  WEBHOOK,
  withPayloads,
  withRow,
} from './helpers.js';

afterAll(removeTempDirs);

const OWN_RULES = ['events/codemap', 'declaration/registry', 'generated/drift', 'generated/region'].flatMap((rule) => [
  '--rule',
  rule,
]);

/** One type's branch of a generated payload binding. */
type Branch = {
  if: { properties: { type: { const: string } } };
  then: { properties: Record<string, { $ref: string }> };
};
type Binding = {
  allOf: Array<{ if: { properties: { type: { enum: string[] } } }; then: { $ref: string } }>;
  $defs: Record<string, { allOf: Branch[] }>;
};
/** The payload binding of `type`: the branch inside the group whose guard lists the type. */
const branch = (binding: Binding, type: string): Record<string, { $ref: string }> | undefined => {
  const guard = binding.allOf.find((entry) => entry.if.properties.type.enum.includes(type));
  const group = guard ? binding.$defs[guard.then.$ref.slice(guard.then.$ref.lastIndexOf('/') + 1)] : undefined;
  return group?.allOf.find((member) => member.if.properties.type.const === type)?.then.properties;
};

describe('openwop-spec generate and check on the events fixture', () => {
  it('carries a new codemap row into the enum, _typeIndex, both renderings and every count', async () => {
    const root = copyEventsFixture();
    // The first generate settles the stand-ins' outputs; the events fixture itself is already current.
    expect((await cli(['generate', '--root', root])).stderr).not.toMatch(
      /wrote (spec\/v2\/event-codemap|schemas|spec\/v2\/core\/events)/,
    );
    expect((await cliReport(['generate', '--check', '--root', root])).status).toBe(0);

    writeText(root, CODEMAP, withRow(readText(root, CODEMAP), decided('node.started', 'nodeStarted')));
    writeText(
      root,
      PAYLOADS,
      withPayloads(readText(root, PAYLOADS), { nodeStarted: CLOSED({ attempt: { type: 'integer', minimum: 1 } }) }),
    );

    const stale = await cliReport(['generate', '--check', '--root', root]);
    expect(stale.status).toBe(1);
    expect([...new Set(stale.diagnostics.map((d) => `${d.rule} ${d.file}`))].sort()).toEqual(
      [CLOUDEVENT, CODEMAP, EVENTS_MD, PAYLOADS, RUN_EVENT].map((file) => `generated/drift ${file}`).sort(),
    );

    const generated = await cli(['generate', '--root', root]);
    expect(generated.status, generated.stderr).toBe(0);
    expect(generated.stderr).toContain('5 files written');

    expect(readJson(root, RUN_EVENT).$defs.eventType.oneOf[0].enum).toContain('node.started');
    expect(branch(readJson(root, RUN_EVENT).$defs.payloadByType, 'node.started')).toEqual({
      payload: { $ref: 'run-event-payloads.schema.json#/$defs/nodeStarted' },
    });
    expect(readJson(root, PAYLOADS)._typeIndex['node.started']).toBe('nodeStarted');
    expect(branch(readJson(root, CLOUDEVENT).$defs.dataByType, 'node.started')).toEqual({
      data: { $ref: 'run-event-payloads.schema.json#/$defs/nodeStarted' },
    });
    expect(readJson(root, WEBHOOK).allOf).toEqual([{ $ref: 'run-event.schema.json#/$defs/payloadByType' }]);
    expect(readJson(root, CODEMAP).counts).toEqual({ rows: 9, review: 0, overridden: 1, renamed: 1 });
    expect(readText(root, EVENTS_MD)).toContain(
      '<!-- generated: count/event-codemap -->**9**<!-- /generated: count/event-codemap -->',
    );

    expect((await cliReport(['generate', '--check', '--root', root])).status).toBe(0);
    const again = await cli(['generate', '--root', root]);
    expect(again.stderr).toContain('0 files written');
    expect(await cliReport(['check', '--root', root, ...OWN_RULES])).toMatchObject({ status: 0, diagnostics: [] });
  }, 60_000);

  it('does the same on a copy of this repository, where every generator and gate runs', async () => {
    const entries = [...CORPUS_DIRECTORIES, ...CORPUS_ROOT_FILES, 'package.json'];
    const root = copyCorpus({
      entries: entries.filter((entry) => existsSync(path.join(REPO, entry))),
      prefix: 'openwop-events-repo-',
    });
    expect((await cliReport(['generate', '--check', '--root', root])).status).toBe(0);
    writeText(root, CODEMAP, withRow(readText(root, CODEMAP), decided('node.paused', 'nodeSkipped')));
    expect((await cli(['generate', '--root', root])).status).toBe(0);
    expect(readJson(root, RUN_EVENT).$defs.eventType.oneOf[0].enum).toContain('node.paused');
    expect(readJson(root, PAYLOADS)._typeIndex['node.paused']).toBe('nodeSkipped');
    expect(branch(readJson(root, CLOUDEVENT).$defs.dataByType, 'node.paused')).toBeDefined();
    expect(readJson(root, CODEMAP).counts.rows).toBe(readJson(path.join(REPO), CODEMAP).counts.rows + 1);
    expect(readText(root, EVENTS_MD)).toContain(
      `**${readJson(root, CODEMAP).counts.rows}**<!-- /generated: count/event-codemap -->`,
    );
    expect((await cliReport(['generate', '--check', '--root', root])).status).toBe(0);
    expect(await cliReport(['check', '--root', root, ...OWN_RULES])).toMatchObject({ status: 0, diagnostics: [] });
  }, 60_000);

  it('fails check at the line of a rule-breaking row, and at a hand edit of a generated count', async () => {
    const root = copyEventsFixture();
    const codemap = withRow(readText(root, CODEMAP), decided('ai.message.chunk', 'outputChunk'));
    writeText(root, CODEMAP, codemap);
    const found = await cliReport(['check', '--root', root, '--rule', 'events/codemap']);
    expect(found.status).toBe(1);
    const row = position(codemap, '"v2":"ai.message.chunk"');
    expect(found.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual([
      `${CODEMAP}:${row.line}:${row.column + 5}`,
    ]);

    const fresh = copyEventsFixture();
    await cli(['generate', '--root', fresh]);
    const events = readText(fresh, EVENTS_MD).replace('-->**8**<!--', '-->**7**<!--');
    writeText(fresh, EVENTS_MD, events);
    const drift = await cliReport(['check', '--root', fresh, ...OWN_RULES]);
    expect(drift.status).toBe(1);
    expect(drift.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}`)).toEqual([
      `generated/drift ${EVENTS_MD}:${position(events, '**7**').line}`,
    ]);
  }, 60_000);
});
