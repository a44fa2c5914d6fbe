import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { corpusFromFiles, loadCorpus } from '../../core/model/corpus.js';
import { flushCaches } from '../../core/output/flush.js';
import { compileFailures, type CompileTarget } from '../../core/schemas/compile.js';

const v2SchemaText = (file: string, body: Record<string, unknown>): string =>
  JSON.stringify(
    { $schema: 'https://json-schema.org/draft/2020-12/schema', $id: `https://openwop.dev/schemas/v2/${file}`, ...body },
    null,
    2,
  );

/** kinds is referenced by three files (a hub once the limit is two); a and b are joined by a reference. */
const FILES: Record<string, string> = {
  'schemas/v2/kinds.schema.json': v2SchemaText('kinds.schema.json', {
    $defs: { id: { type: 'string', pattern: '^k_' } },
  }),
  'schemas/v2/a.schema.json': v2SchemaText('a.schema.json', {
    type: 'object',
    properties: { id: { $ref: 'kinds.schema.json#/$defs/id' }, b: { $ref: 'b.schema.json#/$defs/loose' } },
  }),
  // Strict mode refuses `properties` without `type: object`; only a's compile reaches it.
  'schemas/v2/b.schema.json': v2SchemaText('b.schema.json', {
    type: 'object',
    $defs: { loose: { properties: { x: { type: 'string' } } } },
  }),
  'schemas/v2/c.schema.json': v2SchemaText('c.schema.json', {
    type: 'object',
    properties: { id: { $ref: 'kinds.schema.json#/$defs/id' } },
  }),
  'schemas/v2/d.schema.json': v2SchemaText('d.schema.json', {
    type: 'object',
    properties: { id: { $ref: 'kinds.schema.json#/$defs/id' } },
    minLenght: 2,
  }),
};

const TARGETS: CompileTarget[] = ['a', 'b', 'c', 'd', 'kinds'].map((name) => ({
  file: `schemas/v2/${name}.schema.json`,
  pointer: '',
}));

const failureSummary = (failures: ReturnType<typeof compileFailures>): string[] =>
  failures.map((failure) => `${failure.file}#${failure.pointer}: ${failure.message.split('\n')[0]}`);

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('compiling the corpus schemas in batches', () => {
  it('finds the same failures however the schemas are batched, each where it is compiled', () => {
    const whole = failureSummary(compileFailures(corpusFromFiles('/r', FILES), TARGETS));
    expect(whole).toEqual([
      expect.stringMatching(/^schemas\/v2\/a\.schema\.json#: .*missing type "object" for keyword "properties"/),
      expect.stringMatching(/^schemas\/v2\/d\.schema\.json#: .*unknown keyword: "minLenght"/),
    ]);
    // One batch per group of schemas, kinds shared as a hub: the batch of c and d compiles kinds itself.
    expect(
      failureSummary(compileFailures(corpusFromFiles('/r', FILES), TARGETS, { batchBytes: 1, hubReferrers: 2 })),
    ).toEqual(whole);
    // Without hubs every schema is one group, whatever the budget.
    expect(
      failureSummary(compileFailures(corpusFromFiles('/r', FILES), TARGETS, { batchBytes: 1, hubReferrers: 100 })),
    ).toEqual(whole);
  });

  it("keeps each batch's answer across runs under a digest of the schemas it reaches", () => {
    const root = mkdtempSync(path.join(tmpdir(), 'openwop-batches-'));
    roots.push(root);
    mkdirSync(path.join(root, 'node_modules'));
    for (const [file, text] of Object.entries(FILES)) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    const run = () => {
      const result = failureSummary(compileFailures(loadCorpus(root), TARGETS, { batchBytes: 1, hubReferrers: 2 }));
      flushCaches();
      return result;
    };
    const first = run();
    const cacheDir = path.join(root, 'node_modules/.cache/openwop-spec');
    const stored = path.join(
      cacheDir,
      readdirSync(cacheDir).find((entry) => entry.startsWith('schema-compile-')) ?? '',
    );
    // Four groups (a with b, c, d, kinds), one batch each.
    expect(readdirSync(stored)).toHaveLength(4);
    // A stored answer is believed: mark the failures stored for a and for d...
    for (const entry of readdirSync(stored)) {
      // An entry carries its key; one forged with the right key is believed (a copied one is not: test/trust/cache.test.ts).
      const stored_ = JSON.parse(readFileSync(path.join(stored, entry), 'utf8')) as {
        for: string;
        value: Array<{ message: string }>;
      };
      for (const failure of stored_.value) failure.message = `planted: ${failure.message}`;
      writeFileSync(path.join(stored, entry), JSON.stringify(stored_));
    }
    expect(run()).toEqual(first.map((line) => line.replace(': ', ': planted: ')));
    // ...and a schema that changes changes the key of its batch only.
    writeFileSync(
      path.join(root, 'schemas/v2/b.schema.json'),
      v2SchemaText('b.schema.json', {
        type: 'object',
        $defs: { loose: { type: 'object', properties: { x: { type: 'string' } } } },
      }),
    );
    expect(run()).toEqual([first[1]?.replace(': ', ': planted: ')]);
  });
});
