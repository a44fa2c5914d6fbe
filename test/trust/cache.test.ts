/**
 * The caches never change a report: an entry copied under another file's key, one of the wrong
 * shape, a planted validator module, all give the report of a run without a cache.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ContentCache } from '../../core/cache/content-cache.js';
import { cli } from '../helpers.js';
import { copyCorpus, findingPlaces, tempDir } from './helpers.js';

const CACHE = path.join('node_modules', '.cache', 'openwop-spec');

function entries(root: string, prefix: string): string[] {
  const cacheDir = path.join(root, CACHE);
  return readdirSync(cacheDir)
    .filter((name) => name.startsWith(prefix))
    .flatMap((directory) =>
      readdirSync(path.join(cacheDir, directory)).map((entry) => path.join(cacheDir, directory, entry)),
    );
}

async function checkAsJson(root: string, ...extra: string[]) {
  return await cli(['check', '--root', root, '--format', 'json', ...extra]);
}

describe('a poisoned cache', { timeout: 120_000 }, () => {
  it('a valid entry planted under the key of a truncated registry does not make it parse', async () => {
    const root = copyCorpus({ cached: true });
    const registry = path.join(root, 'spec/v2/errors.json');
    const whole = readFileSync(registry, 'utf8');
    expect((await checkAsJson(root)).status).toBe(0);
    const truncated = whole.slice(0, Math.floor(whole.length / 2));
    writeFileSync(registry, truncated);
    // Where the entry for the truncated text would be, were JSON cached: the whole file's value.
    const parseDir = readdirSync(path.join(root, CACHE)).find((name) => name.startsWith('parse-')) ?? '';
    const key = ContentCache.key('json', truncated);
    writeFileSync(
      path.join(root, CACHE, parseDir, `${key}.json`),
      JSON.stringify({ for: key, value: { value: JSON.parse(whole), problems: [] } }),
    );
    const poisoned = await checkAsJson(root);
    const clean = await checkAsJson(root, '--no-cache');
    expect(poisoned.status).toBe(1);
    expect(poisoned.stdout).toBe(clean.stdout);
    expect(
      findingPlaces(poisoned.stdout).some((finding) => finding.startsWith('corpus/parse spec/v2/errors.json:')),
    ).toBe(true);
  });

  it('entries swapped between files, or of the wrong shape, are misses, and the run replaces them', async () => {
    const root = copyCorpus({ cached: true });
    const doc = path.join(root, 'spec/v2/core/capabilities.md');
    writeFileSync(
      doc,
      readFileSync(doc, 'utf8').replace('## Why this exists', '## Why this exists\n\nSee [nowhere](missing-file.md).'),
    );
    const cold = await checkAsJson(root);
    expect(cold.status).toBe(1);
    const parse = entries(root, 'parse-');
    const validation = entries(root, 'validation-');
    const compiled = entries(root, 'schema-compile-');
    expect(parse.length).toBeGreaterThan(10);
    expect(validation.length).toBeGreaterThan(3);

    // Every entry's content moved to the next entry's name: each is a valid entry, for another content.
    for (const group of [parse, validation, compiled]) {
      const contents = group.map((file) => readFileSync(file));
      group.forEach((file, index) => writeFileSync(file, contents[(index + 1) % contents.length] ?? ''));
    }
    const swapped = await checkAsJson(root);
    expect(swapped.stdout).toBe(cold.stdout);
    expect(swapped.status).toBe(1);

    // An entry of the right key and the wrong shape, and one that is `{}`.
    for (const file of [
      ...entries(root, 'parse-'),
      ...entries(root, 'validation-'),
      ...entries(root, 'schema-compile-'),
    ]) {
      const key = path.basename(file, '.json');
      writeFileSync(
        file,
        parse.includes(file) && key.startsWith('md-')
          ? JSON.stringify({ for: key, value: { type: 'root', children: [{}] } })
          : '{}',
      );
    }
    const wrongShape = await checkAsJson(root);
    expect(wrongShape.stdout).toBe(cold.stdout);
    expect(wrongShape.stderr).toBe('');
    // The bad entries were replaced: each names its own key again.
    for (const file of [...entries(root, 'parse-'), ...entries(root, 'validation-')]) {
      expect((JSON.parse(readFileSync(file, 'utf8')) as { for?: string }).for, file).toBe(path.basename(file, '.json'));
    }
    expect((await checkAsJson(root)).stdout).toBe(cold.stdout);
  });

  it('runs no code from the cache directory: a planted validator module is never loaded', async () => {
    const root = copyCorpus({ cached: true });
    expect((await checkAsJson(root)).status).toBe(0);
    const cacheDir = path.join(root, CACHE);
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.cjs'))).toEqual([]);
    const marker = path.join(tempDir(), 'ran');
    const hostile = `require('node:fs').writeFileSync(${JSON.stringify(marker)}, 'x'); module.exports.__refs = {};`;
    for (const namespace of ['corpus', 'openapi-3.1', 'asyncapi-3.0.0']) {
      for (let i = 0; i < 4; i++)
        writeFileSync(path.join(cacheDir, `validators-${namespace}-${String(i).repeat(16)}.cjs`), hostile);
    }
    const registry = path.join(root, 'spec/v2/errors.json');
    writeFileSync(registry, readFileSync(registry, 'utf8').replace('"httpStatus": 400', '"httpStatus": 299'));
    const result = await checkAsJson(root);
    expect(existsSync(marker)).toBe(false);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe((await checkAsJson(root, '--no-cache')).stdout);
  });

  it('--no-cache reads nothing from the cache and clears it, so a bad entry does not outlive it', async () => {
    const root = copyCorpus({ cached: true });
    const cold = await checkAsJson(root);
    for (const file of entries(root, 'parse-')) writeFileSync(file, '{}');
    expect((await checkAsJson(root, '--no-cache')).stdout).toBe(cold.stdout);
    expect(existsSync(path.join(root, CACHE))).toBe(false);
    expect((await checkAsJson(root)).stdout).toBe(cold.stdout);
    expect(entries(root, 'parse-').every((file) => readFileSync(file, 'utf8') !== '{}')).toBe(true);
  });
});

describe('the content cache', () => {
  it('returns an entry only for its own key and of the shape asked for', () => {
    const directory = tempDir();
    const isTree = (value: unknown): value is { tree: string } =>
      typeof value === 'object' && value !== null && typeof (value as { tree?: unknown }).tree === 'string';
    const first = ContentCache.open(directory, 'parse', 'stamp 1');
    const a = ContentCache.key('md', 'a');
    const b = ContentCache.key('md', 'b');
    first.set(a, { tree: 'a' });
    first.set(b, { tree: 'b' });
    first.save();
    const [entriesDir] = readdirSync(directory);
    const dir = path.join(directory, entriesDir ?? '');
    expect(readdirSync(dir).sort()).toEqual([`${a}.json`, `${b}.json`].sort());

    // b's file holds a's entry: it is for another key, so a miss.
    writeFileSync(path.join(dir, `${b}.json`), readFileSync(path.join(dir, `${a}.json`)));
    const second = ContentCache.open(directory, 'parse', 'stamp 1');
    expect(second.get(a, isTree)).toEqual({ tree: 'a' });
    expect(second.get(b, isTree)).toBeUndefined();
    writeFileSync(path.join(dir, `${a}.json`), JSON.stringify({ for: a, value: { tree: 1 } }));
    expect(ContentCache.open(directory, 'parse', 'stamp 1').get(a, isTree)).toBeUndefined();
    expect(ContentCache.open(directory, 'parse', 'stamp 1').get(ContentCache.key('md', 'c'), isTree)).toBeUndefined();
    // What a run did not use is removed; an entry of another stamp is never read.
    second.save();
    expect(readdirSync(dir)).toEqual([`${a}.json`]);
    const newer = ContentCache.open(directory, 'parse', 'stamp 2');
    expect(newer.get(a, isTree)).toBeUndefined();
    newer.set(a, { tree: 'A' });
    newer.save();
    expect(readdirSync(directory)).toHaveLength(1);
    expect(readdirSync(directory)[0]).not.toBe(entriesDir);
  });

  it('keys differ for texts of the same hash prefix length and for different kinds', () => {
    expect(ContentCache.key('md', 'x')).not.toBe(ContentCache.key('yaml', 'x'));
    expect(ContentCache.key('md', 'x')).toMatch(/^md-[0-9a-f]{64}-1$/);
  });
});
