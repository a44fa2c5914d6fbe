/**
 * The root is a boundary: whatever a checkout holds (links, a journal, a config, globs), the tool
 * reads, writes and deletes nothing outside it, and what it cannot do inside it is one line with
 * exit 2 or a located finding.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, watch, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cli, cliEnv, copyFixture, FIXTURES, readTree } from '../helpers.js';
import { tempDir } from './helpers.js';

describe('nothing is written or deleted outside the root', { timeout: 60_000 }, () => {
  it('a committed journal whose target goes through an in-tree link out of the root is not followed', async () => {
    const root = copyFixture('good');
    const outside = tempDir();
    writeFileSync(path.join(outside, 'victim.md'), 'precious\n');
    writeFileSync(path.join(outside, '.victim.md.999999.k0.tmp'), 'PWNED\n');
    writeFileSync(path.join(outside, '.other.md.999998.k1.tmp'), 'someone else\n');
    symlinkSync(outside, path.join(root, 'spec', 'elsewhere'));
    writeFileSync(
      path.join(root, '.openwop-spec-writes.json'),
      JSON.stringify({
        pid: 999999,
        renames: [{ target: 'spec/elsewhere/victim.md', temporary: '.victim.md.999999.k0.tmp' }],
      }),
    );
    const before = readTree(outside);
    expect(Object.keys(before)).toHaveLength(3);
    const result = await cli(['generate', '--root', root]);
    expect(result.stderr).not.toContain('finished an interrupted generate');
    expect(result.stderr).toContain('spec/elsewhere/victim.md');
    expect(readTree(outside)).toEqual(before);
  });

  it('a node_modules that is a link out of the root gets no cache written into it', async () => {
    const root = copyFixture('good');
    const outside = tempDir();
    symlinkSync(outside, path.join(root, 'node_modules'));
    const result = await cli(['check', '--root', root]);
    expect(result.status).toBe(0);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a node_modules/.cache that is a link out of the root: neither written nor emptied, by check or check --no-cache', async () => {
    const root = copyFixture('good');
    const outside = tempDir();
    mkdirSync(path.join(outside, 'openwop-spec'));
    writeFileSync(path.join(outside, 'openwop-spec', 'theirs.json'), '{}');
    mkdirSync(path.join(root, 'node_modules'));
    symlinkSync(outside, path.join(root, 'node_modules', '.cache'));
    expect((await cli(['check', '--root', root])).status).toBe(0);
    expect((await cli(['check', '--root', root, '--no-cache'])).status).toBe(0);
    expect(readTree(outside)).toEqual({ 'openwop-spec/theirs.json': '{}' });
  });

  it('a generate with nothing to change creates no file at all (a read-only checkout passes)', async () => {
    const root = copyFixture('good');
    const created: string[] = [];
    const watcher = watch(root, (event, name) => {
      if (event === 'rename' && name) created.push(name);
    });
    try {
      const status = await new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, [CLI, 'generate', '--root', root], { env: cliEnv(), stdio: 'ignore' });
        child.on('exit', resolve);
      });
      expect(status).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      watcher.close();
    }
    expect(created).toEqual([]);
  });
});

describe('globs are judged after their braces are expanded', { timeout: 60_000 }, () => {
  for (const glob of ['{..,docs}/**', '{/etc,spec}/**', '{/,spec}/**', 'spec/{a,../..}/**']) {
    it(`include ${glob}: one line, exit 2, nothing listed outside the root`, async () => {
      const root = copyFixture('good');
      writeFileSync(path.join(root, 'openwop-spec.config.json'), JSON.stringify({ include: [glob] }));
      const result = await cli(['check', '--root', root, '--format', 'json']);
      expect(result.status).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('must stay inside the root');
      expect(result.stderr).not.toContain('internal error');
    });
  }
});

describe('config-like files are never followed through a link', { timeout: 60_000 }, () => {
  const SECRET = 'AWS_SECRET=hunter2-do-not-print';
  for (const file of ['openwop-spec.config.json', 'openwop-spec.suppressions.json']) {
    it(`${file} as a link to a readable file: refused in one line, its content never printed`, async () => {
      const root = copyFixture('good');
      const target = path.join(tempDir(), 'environ');
      writeFileSync(target, `${SECRET}\u0000PATH=/bin\n`);
      const linked = path.join(root, file);
      if (existsSync(linked)) rmSync(linked);
      symlinkSync(target, linked);
      const result = await cli(['check', '--root', root]);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain('symbolic link');
      expect(`${result.stdout}${result.stderr}`).not.toContain('hunter2');
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    });
  }

  it('a config with a UTF-8 byte order mark is read', async () => {
    const root = copyFixture('good');
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      `\uFEFF${readFileSync(path.join(FIXTURES, 'good', 'openwop-spec.config.json'), 'utf8')}`,
    );
    const result = await cli(['check', '--root', root]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it("a config's own control bytes reach stderr escaped", async () => {
    const root = copyFixture('good');
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      '{"include": ["spec/**"], "\\u001b[2K\\u001b[1Afake": 1}',
    );
    const result = await cli(['check', '--root', root]);
    expect(result.status).toBe(2);
    expect(result.stderr).not.toMatch(/\u001b/);
    expect(result.stderr).toContain('\\u001b');
  });
});
