import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../../checks/index.js';
import { corpusFromFiles } from '../../../core/model/index.js';
import { runChecks } from '../../../core/run/engine.js';
import { cli, jsonText, reported, tempTree } from '../../helpers.js';
import { asExpected, caseFiles, runRule, testRule } from '../../rule-tester.js';

const PACK = 'schemas/v2/pack.schema.json';
const OPENAPI = 'api/v2/openapi.yaml';
const CORRECTIONS = 'spec/v2/corrections.json';
const MIGRATIONS = 'spec/v2/migrations.json';
const REGISTERS = { corrections: CORRECTIONS, migrations: MIGRATIONS };

const packSchema = (properties: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
  jsonText({
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'https://openwop.dev/schemas/v2/pack.schema.json',
    type: 'object',
    additionalProperties: true,
    properties,
    ...extra,
  });

const OLD_PROPERTIES = {
  name: { type: 'string' },
  signing: { type: 'object', additionalProperties: true, properties: { publicKeyRef: { type: 'string' } } },
  transport: { enum: ['sse', 'http'] },
};
const openapiWithPaths = (paths: string) => `openapi: 3.1.0\ninfo: { title: t, version: '2.0' }\npaths:\n${paths}`;
const RUNS = "  /runs:\n    get: { operationId: listRuns, responses: { '200': { description: ok } } }\n";
const OLD_PATHS = `${RUNS}  /packs:\n    get: { operationId: listPacks, responses: { '200': { description: ok } } }\n`;
const register = (pointers: string[]) =>
  jsonText({
    version: 1,
    updated: '2026-12-01',
    rows: pointers.length > 0 ? [{ id: 'openwop.correction.v2.1', pointers }] : [],
  });

/** The previous release every case compares with: a manifest schema and an API with two operations. */
const PREVIOUS = { [PACK]: packSchema(OLD_PROPERTIES), [OPENAPI]: openapiWithPaths(OLD_PATHS) };
/** The base corpus grown or changed, compared with PREVIOUS. */
const now = (files: Record<string, string>) => ({ files, previous: PREVIOUS });
/** The current release with the signing property, the "http" transport and GET /packs removed. */
const REMOVED = {
  [PACK]: packSchema({ name: { type: 'string' }, transport: { enum: ['sse'] } }),
  [OPENAPI]: openapiWithPaths(RUNS),
};
// The data name the previous release by the temporary folder the case writes it to: it is checked apart.
const removed = (file: string, line: number) => ({ messageId: 'removed', file, line, column: 1 });
const narrowed = (line: number) => ({ messageId: 'narrowed', file: PACK, line, column: 1 });

const CHANGED = now({
  [PACK]: packSchema(
    { name: { type: 'integer' }, transport: { enum: ['sse'] } },
    { additionalProperties: false, required: ['name'] },
  ),
  [OPENAPI]: openapiWithPaths(RUNS),
});

testRule('compat/monotone', {
  valid: [
    { name: 'no previous release: nothing to stay monotone against', files: { [PACK]: packSchema({}) } },
    {
      name: 'the surface only grows: a new property, enum member and operation',
      ...now({
        [PACK]: packSchema({
          ...OLD_PROPERTIES,
          added: { type: 'string' },
          transport: { enum: ['sse', 'http', 'streamable-http'] },
        }),
        [OPENAPI]: openapiWithPaths(
          `${OLD_PATHS}  /agents:\n    get: { operationId: listAgents, responses: { '200': { description: ok } } }\n`,
        ),
      }),
    },
    {
      name: 'removals each licensed by a correction or migration row at the pointer it names',
      ...now({
        ...REMOVED,
        [CORRECTIONS]: register([`${PACK}#/signing`, `${PACK}#/transport`]),
        [MIGRATIONS]: register([`${OPENAPI}#GET /packs`]),
      }),
    },
    {
      name: 'a row naming the whole file licenses every removal in it',
      ...now({ ...REMOVED, [CORRECTIONS]: register([PACK, OPENAPI]) }),
    },
  ],
  invalid: [
    {
      name: 'a removed property, enum member and operation, and a new required, a closed object and a narrowed type: where each is now',
      ...CHANGED,
      errors: [
        removed(OPENAPI, 1),
        narrowed(5),
        // A removal is placed where the property would be now: its parent's `properties`.
        removed(PACK, 6),
        narrowed(8),
        removed(PACK, 11),
        narrowed(16),
      ],
    },
    {
      name: 'a register that does not match its schema: removals are not judged until it does',
      ...now({
        ...REMOVED,
        [CORRECTIONS]: jsonText({
          version: 1,
          rows: [
            { id: 'a', pointers: 'x' },
            { id: 'b', pointers: 'y' },
          ],
        }),
        'spec/v2/corrections.schema.json': jsonText({
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          $id: 'https://openwop.dev/spec/v2/corrections.schema.json',
          type: 'object',
          properties: {
            rows: { type: 'array', items: { type: 'object', properties: { pointers: { type: 'array' } } } },
          },
        }),
      }),
      errors: [
        {
          messageId: 'schema-mismatch-at-places',
          file: CORRECTIONS,
          line: 6,
          column: 7,
          data: {
            schema: 'spec/v2/corrections.schema.json',
            against: 'spec/v2/corrections.schema.json',
            error: '/rows/*/pointers: must be array',
            places: 2,
          },
        },
      ],
    },
    {
      name: 'a row licenses the removal at its pointer and nothing else',
      ...now({
        ...REMOVED,
        [CORRECTIONS]: register([`${PACK}#/transport`]),
        [MIGRATIONS]: register([`${OPENAPI}#GET /packs`]),
      }),
      errors: [removed(PACK, 6)],
    },
  ],
});

describe('compat/monotone findings', () => {
  it('say what changed, where it was in the previous release, and which registers could license a removal', () => {
    const found = runRule('compat/monotone', CHANGED).diagnostics;
    const [release, ...others] = [...new Set(found.map((d) => d.data?.release))];
    expect(others).toEqual([]);
    expect(release).toMatch(/^\//);
    expect(found.map(({ data }) => ({ ...data, release: undefined }))).toEqual([
      { change: 'operation listPacks (GET /packs) was removed', line: 7, ...REGISTERS, release: undefined },
      { change: 'the document was closed: additionalProperties is now false', release: undefined },
      { change: 'property "signing" of the document was removed', line: 10, ...REGISTERS, release: undefined },
      { change: '`/name` changed type from string to integer', release: undefined },
      { change: '`/transport` no longer admits "http"', line: 20, ...REGISTERS, release: undefined },
      { change: 'property "name" of the document is now required', release: undefined },
    ]);
  });
});

describe('compat/monotone on a previous release that cannot be read', () => {
  it('says which, at the root', () => {
    const check = CHECKS.find((c) => c.id === 'compat/monotone');
    if (!check) throw new Error('no compat/monotone');
    const found = runChecks(corpusFromFiles('/nonexistent-root', { [PACK]: packSchema({}) }), [check], {
      previousRelease: '/nonexistent-release',
    });
    const expected = [{ messageId: 'previous-unreadable', file: '.', line: 1, column: 1, severity: 'error' as const }];
    expect(asExpected(found, expected)).toEqual(expected);
    expect(found[0]?.data?.release).toBe('/nonexistent-release');
  });
});

describe('compat/monotone against a git ref', { timeout: 60_000 }, () => {
  it('reads the previous release from a version tag, named or found, and names it by its ref', async () => {
    const root = tempTree(caseFiles({ files: PREVIOUS }), 'openwop-monotone-');
    try {
      const git = (...args: string[]) =>
        spawnSync(
          'git',
          ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args],
          { cwd: root, encoding: 'utf8' },
        );
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'the previous release');
      git('tag', 'v2.0.0');
      for (const [file, text] of Object.entries(REMOVED)) writeFileSync(path.join(root, file), text);
      const expected = [
        {
          messageId: 'removed',
          file: OPENAPI,
          line: 1,
          column: 1,
          data: {
            change: 'operation listPacks (GET /packs) was removed',
            release: 'git ref v2.0.0',
            line: 7,
            ...REGISTERS,
          },
        },
        {
          messageId: 'removed',
          file: PACK,
          line: 6,
          column: 1,
          data: {
            change: 'property "signing" of the document was removed',
            release: 'git ref v2.0.0',
            line: 10,
            ...REGISTERS,
          },
        },
        {
          messageId: 'removed',
          file: PACK,
          line: 11,
          column: 1,
          data: { change: '`/transport` no longer admits "http"', release: 'git ref v2.0.0', line: 20, ...REGISTERS },
        },
      ];
      for (const args of [['--previous-release', 'git:v2.0.0'], []]) {
        const result = await cli([
          'check',
          '--root',
          root,
          '--rule',
          'compat/monotone',
          '--no-cache',
          '--format',
          'json',
          ...args,
        ]);
        expect(asExpected(reported(result.stdout), expected)).toEqual(expected);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
