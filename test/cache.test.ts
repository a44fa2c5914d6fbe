import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, fixture } from './helpers.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** A copy of a fixture (its layers in order, each over the one before) with a node_modules folder, which is what turns the caches on. */
function cachedCopy(...layers: string[]): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-cache-'));
  roots.push(root);
  for (const name of layers) cpSync(fixture(name), root, { recursive: true });
  mkdirSync(path.join(root, 'node_modules'));
  return root;
}

describe('the parse and validator caches', { timeout: 60_000 }, () => {
  it('never change a report: cold, warm and uncached runs print the same findings at the same places', async () => {
    // The header defects, and the identity ones, are layers over a correct corpus.
    for (const layers of [
      ['api/good', 'api/defects/headers'],
      ['defects/links'],
      ['evidence/ids-good', 'evidence/ids-defects'],
    ]) {
      const name = layers.join(' + ');
      const root = cachedCopy(...layers);
      const cold = await cli(['check', '--root', root, '--format', 'json']);
      const cacheDir = path.join(root, 'node_modules', '.cache', 'openwop-spec');
      const parsed = readdirSync(cacheDir).filter((entry) => entry.startsWith('parse-'));
      expect(parsed, name).toHaveLength(1);
      expect(readdirSync(path.join(cacheDir, parsed[0] ?? '')).length, name).toBeGreaterThan(0);
      const warm = await cli(['check', '--root', root, '--format', 'json']);
      const uncached = await cli(['check', '--root', root, '--format', 'json', '--no-cache']);
      expect(warm.stdout, name).toBe(cold.stdout);
      expect(uncached.stdout, name).toBe(cold.stdout);
      expect(warm.status, name).toBe(cold.status);
      expect(JSON.parse(cold.stdout).diagnostics.length, name).toBeGreaterThan(0);
    }
  });

  it('keeps validation outcomes as data, never code, and starts afresh when a schema changes', async () => {
    const root = cachedCopy('api/good');
    expect((await cli(['check', '--root', root, '--rule', 'schemas/compile'])).status).toBe(0);
    const cacheDir = path.join(root, 'node_modules', '.cache', 'openwop-spec');
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.cjs'))).toEqual([]);
    const first = readdirSync(cacheDir).filter((name) => name.startsWith('validation-corpus-'));
    expect(first).toHaveLength(1);
    const schema = readdirSync(path.join(root, 'schemas', 'v2')).find((name) => name.endsWith('.schema.json'));
    expect(schema).toBeDefined();
    cpSync(path.join(root, 'schemas', 'v2', schema!), path.join(root, 'schemas', 'v2', 'copy-of-it.schema.json'));
    await cli(['check', '--root', root, '--rule', 'schemas/compile']);
    const second = readdirSync(cacheDir).filter((name) => name.startsWith('validation-corpus-'));
    expect(second).toHaveLength(1);
    expect(second[0]).not.toBe(first[0]);
  });

  it('is not used for a root without node_modules, nor with --no-cache', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'openwop-cache-'));
    roots.push(root);
    cpSync(fixture('defects/links'), root, { recursive: true });
    await cli(['check', '--root', root]);
    expect(existsSync(path.join(root, 'node_modules'))).toBe(false);
    const withModules = cachedCopy('defects/links');
    await cli(['check', '--root', withModules, '--no-cache']);
    expect(existsSync(path.join(withModules, 'node_modules', '.cache'))).toBe(false);
  });
});
