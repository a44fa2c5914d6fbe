import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ESM script of the benchmark, without type declarations
import { makeCorpus, readCorpusFiles, renameDocuments, scaleCorpus, tags } from '../../bench/make-corpus.mjs';
import { CLI, REPO } from '../helpers.js';

type Files = Map<string, Buffer | string>;

const source: Map<string, Buffer> = readCorpusFiles(REPO);
const text = (files: Files, file: string) => String(files.get(file));

describe('bench/make-corpus', () => {
  const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-scale-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('is a pure function of the corpus, the scale and the seed', () => {
    const a: Files = scaleCorpus(source, { scale: 2, seed: 7 }).files;
    const b: Files = scaleCorpus(source, { scale: 2, seed: 7 }).files;
    expect([...a.keys()]).toEqual([...b.keys()]);
    for (const [file, content] of a) expect(String(b.get(file)), file).toBe(String(content));

    // Another seed orders the synthetic registry rows differently, and nothing else.
    const c: Files = scaleCorpus(source, { scale: 2, seed: 8 }).files;
    expect([...c.keys()]).toEqual([...a.keys()]);
    const differing = [...a.keys()].filter((file) => String(a.get(file)) !== String(c.get(file)));
    expect(differing.length).toBeGreaterThan(0);
    for (const file of differing)
      expect(['spec/v2/errors.json', 'spec/v2/event-codemap.json', 'conformance/requirements.json']).toContain(file);
  });

  it('×1 is the corpus unchanged', () => {
    const one: Files = scaleCorpus(source, { scale: 1 }).files;
    expect([...one.keys()]).toEqual([...source.keys()]);
  });

  it('points every copy into its own copy set', () => {
    const { files, counts } = scaleCorpus(source, { scale: 3 });
    expect(counts.documents).toBe(
      2 * [...source.keys()].filter((file) => /^spec\/v2\/core\/[^/]+\.md$/.test(file)).length,
    );
    const copy = text(files, 'spec/v2/core/errors-x002.md');
    expect(copy.split('\n')[0]).toBe('# Errors (scale copy 2)');
    expect(copy).toMatch(/\]\(idempotency-x002\.md#/);
    expect(copy).not.toMatch(/\]\(idempotency\.md/);
    // Count regions stay generated; registry-sized tables become plain text in a copy.
    expect(copy).toContain('<!-- generated: count/errors -->');
    expect(copy).not.toContain('generated: errors/codes-by-status');
    const schema = JSON.parse(text(files, 'schemas/v2/subject-link-x001.schema.json'));
    expect(schema.$id).toBe('https://openwop.dev/schemas/v2/subject-link-x001.schema.json');
    expect(JSON.stringify(schema)).toContain('subject-x001.schema.json');
    expect(JSON.stringify(schema)).toContain('"ids.schema.json#/$defs/');
    expect(text(files, 'api/v2/openapi.yaml')).toMatch(/^ {2}\/x002\/runs\/\{runId\}:$/m);
    expect(text(files, 'api/v2/openapi.yaml')).toMatch(/operationId: getRunX002$/m);
    // A copied family's section is its own entry in the copy of the capability record.
    const families = JSON.parse(text(files, 'spec/v2/declaration.json')).families as Array<{
      key: string;
      section?: string;
    }>;
    expect(families.find((family) => family.key === 'formsX002')?.section).toBe('core/capabilities-x002.md#formsX002');
    expect(text(files, 'spec/v2/core/capabilities-x002.md')).toMatch(/^### § formsX002$/m);
    expect(text(files, 'spec/v2/core/capabilities.md')).toMatch(/^### § forms$/m);
  });

  it('renames document mentions without touching longer names that end the same way', () => {
    const tag = tags(4);
    expect(
      renameDocuments(
        '[packs.md](packs.md#a), [w](workflow-chain-packs.md), `spec/v2/core/packs.md`, packs.mdx',
        ['packs', 'workflow-chain-packs'],
        tag,
      ),
    ).toBe(
      '[packs-x004.md](packs-x004.md#a), [w](workflow-chain-packs-x004.md), `spec/v2/core/packs-x004.md`, packs.mdx',
    );
  });

  it.skipIf(!existsSync(CLI))(
    'builds a ×2 corpus on which generate --check and check pass, and reuses it while nothing changed',
    () => {
      const out = path.join(scratch, 'x2');
      const built = makeCorpus({ scale: 2, seed: 1, out, verify: true });
      expect(built.reused).toBe(false);
      expect(built.files).toBeGreaterThan(source.size);
      const manifest = JSON.parse(readFileSync(path.join(out, 'spec/v2/path-manifest.json'), 'utf8'));
      const original = JSON.parse(String(source.get('spec/v2/path-manifest.json')));
      expect(manifest.counts.operations).toBe(2 * original.counts.operations);
      expect(makeCorpus({ scale: 2, seed: 1, out, verify: true }).reused).toBe(true);
    },
    180_000,
  );
});
