import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, loadCorpus } from '../../core/model/index.js';
import { loadConfig } from '../../core/config/index.js';
import { driftDiagnostics } from '../../core/run/generation.js';
import { planGeneration } from '../../core/run/index.js';
import fromDeclaration, {
  CAPABILITIES_PATH,
  PROFILES_PATH,
  profilesDocument,
} from '../../generators/from-declaration.js';
import { jsonText, REPO, where } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

const declaration = {
  metadata: [
    {
      key: 'protocolVersions',
      kind: 'metadata',
      section: 'core/versioning.md#versions',
      schema: null,
      disposition: 'kept',
    },
  ],
  families: [
    { key: 'auth', anchor: 'core', facets: ['lanes'] },
    { key: 'interrupt', anchor: 'core', facets: ['tokenAlgs'] },
    { key: 'mcp', anchor: 'core', facets: ['client'], note: 'Tools over MCP.' },
    { key: 'kanban', anchor: 'ext', facets: [] },
    { key: 'gone', anchor: 'deleted', reason: 'retired' },
  ],
  profiles: [
    {
      id: 'openwop-discovery-core',
      predicate: { families: [], metadata: ['protocolVersions'] },
      floorScenarios: ['v2-closed-root'],
      note: 'discovery',
    },
    {
      id: 'openwop-core-standard',
      predicate: { families: ['interrupt'], profiles: ['openwop-discovery-core'] },
      floorScenarios: [],
      requirementIds: ['openwop.interrupt.token'],
    },
  ],
};

const files = {
  'spec/v2/declaration.json': jsonText(declaration),
  'spec/v2/facets/auth.schema.json': jsonText({
    $id: 'https://openwop.dev/spec/v2/facets/auth.schema.json',
    type: 'object',
    additionalProperties: false,
    properties: { lanes: { type: 'array' } },
  }),
  'spec/v2/facets/interrupt.schema.json': jsonText({
    properties: { tokenAlgs: { type: 'array' } },
    required: ['tokenAlgs'],
  }),
};

describe('from-declaration generator', { timeout: 60_000 }, () => {
  it('writes a closed root with a member per metadata key and a record per core family, carrying its facet', () => {
    const outputs = fromDeclaration.generate(corpusFromFiles('/nonexistent-root', files), () => {}, {
      contentOf: () => undefined,
    });
    expect(outputs.map((o) => o.path)).toEqual([CAPABILITIES_PATH, PROFILES_PATH]);
    const schema = JSON.parse(outputs[0]?.content ?? '{}');
    expect(schema.additionalProperties).toBe(false);
    expect(Object.keys(schema.properties)).toEqual(['protocolVersions', 'auth', 'interrupt', 'mcp']);
    expect(schema.properties.auth).toEqual({
      description: 'Family `auth`.',
      $ref: '../../spec/v2/facets/auth.schema.json',
    });
    expect(schema.properties.interrupt).toEqual({
      description: 'Family `interrupt`.',
      type: 'object',
      additionalProperties: false,
      properties: { tokenAlgs: { type: 'array' } },
      required: ['tokenAlgs'],
    });
    expect(schema.properties.mcp).toEqual({
      description: 'Family `mcp`. Tools over MCP.',
      type: 'object',
      additionalProperties: false,
      properties: { client: {} },
    });
    const profiles = JSON.parse(outputs[1]?.content ?? '{}');
    expect(profiles.profiles).toEqual([
      {
        id: 'openwop-discovery-core',
        predicate: { families: [], metadata: ['protocolVersions'] },
        floorScenarios: ['v2-closed-root'],
        requirementIds: [],
        note: 'discovery',
      },
      {
        id: 'openwop-core-standard',
        predicate: { families: ['interrupt'], profiles: ['openwop-discovery-core'] },
        floorScenarios: [],
        requirementIds: ['openwop.interrupt.token'],
      },
    ]);
  });

  it('is drift-checked: a hand edit of profiles.json is stale at its line, and the author comment is kept', () => {
    const generated = fromDeclaration.generate(corpusFromFiles('/nonexistent-root', files), () => {}, {
      contentOf: () => undefined,
    });
    const current = Object.fromEntries(generated.map((o) => [o.path, o.content]));
    const commented = (current[PROFILES_PATH] ?? '').replace(
      /"\$comment": "[^"]*"/,
      '"$comment": "Ours, in our words."',
    );
    const clean = planGeneration(
      corpusFromFiles('/nonexistent-root', { ...files, ...current, [PROFILES_PATH]: commented }),
      [fromDeclaration],
    );
    expect(driftDiagnostics(clean)).toEqual([]);
    const edited = commented.replace('"v2-closed-root"', '"v2-something-else"');
    // Drift of a JSON file is named per entry: here the floorScenarios that changed.
    const line = edited.split('\n').findIndex((l) => l.includes('v2-something-else'));
    expect(edited.split('\n')[line - 1]).toContain('"floorScenarios"');
    const drift = driftDiagnostics(
      planGeneration(corpusFromFiles('/nonexistent-root', { ...files, ...current, [PROFILES_PATH]: edited }), [
        fromDeclaration,
      ]),
    );
    expect(where(drift)).toEqual([`${PROFILES_PATH}:${line}:7`]);
  });

  it("reproduces this repository's two files", () => {
    const corpus = loadCorpus(REPO);
    const outputs = fromDeclaration.generate(corpus, () => {}, { contentOf: () => undefined });
    expect(outputs.map((output) => output.path)).toEqual([CAPABILITIES_PATH, PROFILES_PATH]);
    expect(outputs.map((output) => output.content)).toEqual(
      outputs.map((output) => readFileSync(path.join(REPO, output.path), 'utf8')),
    );
  });

  it.skipIf(!upstreamPresent(import.meta.url))(
    "has upstream's profiles.json shape exactly; what differs is what its declaration changed since",
    () => {
      const corpus = loadCorpus(UPSTREAM, {
        config: loadConfig(UPSTREAM, path.join(REPO, 'test/upstream/openwop-spec.config.json')),
      });
      const disk = corpus.data(PROFILES_PATH)?.value as { profiles: Array<Record<string, unknown>> };
      const ours = profilesDocument(
        corpus,
        corpus.data('spec/v2/declaration.json')?.value as Record<string, unknown>,
      ) as { profiles: Array<Record<string, unknown>> };
      expect(ours.profiles.map((p) => Object.keys(p))).toEqual(disk.profiles.map((p) => Object.keys(p)));
      const differing = ours.profiles.flatMap((p, i) =>
        Object.keys(p)
          .filter((k) => JSON.stringify(p[k]) !== JSON.stringify(disk.profiles[i]?.[k]))
          .map((k) => `${String(p.id)}.${k}`),
      );
      expect(differing).toEqual([
        'openwop-core-standard.floorScenarios',
        'openwop-core-standard.note',
        'openwop-conformance-seams-v2.predicate',
        'openwop-conformance-seams-v2.note',
      ]);
      // Same bytes but for those: the formatting is upstream's own.
      expect(`${JSON.stringify(disk, null, 2)}\n`).toBe(readFileSync(path.join(UPSTREAM, PROFILES_PATH), 'utf8'));
    },
  );
});
