/**
 * The next cases an attacker tries once the ones of the issue are closed: the journal naming a
 * temporary or a target outside the root by its spelling, a link deeper in the cache, a findings
 * baseline reached through a linked directory. Each runs the built CLI on a copy of the small
 * `good` fixture corpus and checks the directory outside the root byte for byte.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, FIXTURES, readTree } from '../helpers.js';
import { tempDir } from './helpers.js';

/** A copy of the small `good` fixture corpus (four files, its own config). */
function goodCopy(): string {
  const root = tempDir();
  cpSync(path.join(FIXTURES, 'good'), root, { recursive: true });
  return root;
}

/** A directory outside any root, holding `files`. */
function outsideWith(files: Record<string, string>): string {
  const directory = tempDir();
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(directory, name), content);
  return directory;
}

describe('the journal names nothing outside the root, however it is spelt', { timeout: 60_000 }, () => {
  it('a temporary spelt with ../ is not moved in from outside, nor deleted there', async () => {
    const root = goodCopy();
    const outside = outsideWith({ '.a.md.999999.k0.tmp': 'PULLED IN FROM OUTSIDE\n' });
    const target = 'spec/v2/core/a.md';
    const original = readFileSync(path.join(root, target));
    const climb = path.relative(path.join(root, path.dirname(target)), outside);
    writeFileSync(
      path.join(root, '.openwop-spec-writes.json'),
      JSON.stringify({ pid: 999999, renames: [{ target, temporary: `${climb}/.a.md.999999.k0.tmp` }] }),
    );
    const before = readTree(outside);
    const result = await cli(['generate', '--root', root]);
    expect(result.stderr).not.toContain('finished an interrupted generate');
    expect(result.stderr).toContain(`could not finish an interrupted generate for ${target}`);
    expect(readTree(outside)).toEqual(before);
    expect(readFileSync(path.join(root, target))).toEqual(original);
  });

  it('a target spelt as an absolute path is refused and said, never written', async () => {
    const root = goodCopy();
    const outside = outsideWith({ 'victim.md': 'precious\n' });
    mkdirSync(path.join(root, 'spec', 'v2', 'core'), { recursive: true });
    writeFileSync(path.join(root, 'spec', 'v2', 'core', '.victim.md.999999.k0.tmp'), 'PWNED\n');
    const victim = path.join(outside, 'victim.md');
    writeFileSync(
      path.join(root, '.openwop-spec-writes.json'),
      JSON.stringify({ pid: 999999, renames: [{ target: victim, temporary: '.victim.md.999999.k0.tmp' }] }),
    );
    const result = await cli(['generate', '--root', root]);
    expect(result.stderr).toContain(`could not finish an interrupted generate for ${victim}`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
  });
});

describe("the journal's names reach stderr as every corpus text does", { timeout: 60_000 }, () => {
  it('a target holding ESC, bidi and a runner marker is said escaped, in one line', async () => {
    const root = goodCopy();
    const hostile = '/abs\u001b[2K\u001b[1A##[error file=README.md]FORGED\u202e.md';
    writeFileSync(
      path.join(root, '.openwop-spec-writes.json'),
      JSON.stringify({ pid: 999999, renames: [{ target: hostile, temporary: '.x.999999.k0.tmp' }] }),
    );
    const result = await cli(['generate', '--root', root]);
    const said = result.stderr.split('\n').filter((line) => line.includes('interrupted generate'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('FORGED');
    expect(result.stderr).not.toMatch(/[\u001b\u202e]/);
    expect(result.stderr).not.toContain('##[');
  });
});

describe('the cache writes nowhere a link deeper in it leads', { timeout: 60_000 }, () => {
  it("each of the cache's own directories a link out of the root: check and check --no-cache leave the outside alone", async () => {
    const root = goodCopy();
    mkdirSync(path.join(root, 'node_modules'));
    expect((await cli(['check', '--root', root])).status).toBe(0);
    const cache = path.join(root, 'node_modules', '.cache', 'openwop-spec');
    const kinds = readdirSync(cache);
    expect(kinds.length).toBeGreaterThan(0);
    const outside: string[] = [];
    for (const kind of kinds) {
      const directory = outsideWith({ 'mine.txt': 'someone else\n' });
      outside.push(directory);
      rmSync(path.join(cache, kind), { recursive: true });
      symlinkSync(directory, path.join(cache, kind));
    }
    const before = outside.map((directory) => readTree(directory));
    // A changed corpus, so that the run has new entries to write.
    writeFileSync(path.join(root, 'spec', 'v2', 'core', 'b.md'), '# Beta\n\n## Some heading\n\nChanged.\n');
    expect((await cli(['check', '--root', root])).status).toBeLessThan(2);
    expect((await cli(['check', '--root', root, '--no-cache'])).status).toBeLessThan(2);
    expect(outside.map((directory) => readTree(directory))).toEqual(before);
  });
});

describe('the findings baseline of the config is a file of the checkout', { timeout: 60_000 }, () => {
  it('reached through a linked directory: one line, exit 2, its content never printed, nothing written there', async () => {
    const root = goodCopy();
    const outside = outsideWith({ 'secret.txt': 'SECRET=hunter2\n' });
    symlinkSync(outside, path.join(root, 'linked'));
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      JSON.stringify({ required: ['api/v2/openapi.yaml'], baselineFindings: 'linked/secret.txt' }),
    );
    const before = readTree(outside);
    for (const args of [[], ['--update']]) {
      const result = await cli(['check', '--root', root, ...args]);
      expect(result.status).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('linked/secret.txt');
      expect(result.stderr).not.toContain('hunter2');
    }
    expect(readTree(outside)).toEqual(before);
  });
});
