import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { cli, copyFixture, doc, fixture, removeTempDirs, smallCorpus, spawnCli } from './helpers.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(removeTempDirs);

const A = doc('A', 'Intro.\n\nSee [b.md §"Some heading"](b.md#some-heading) for more.');
const B = doc('B', '## Some heading\n\nText.');

// Each test runs the built CLI several times; on a loaded machine that is more than the default 5 s.
describe('openwop-spec check', { timeout: 60_000 }, () => {
  it('exits 0 on a coherent corpus', async () => {
    const root = smallCorpus({ 'spec/v2/core/a.md': A, 'spec/v2/core/b.md': B });
    const result = await cli(['check', '--root', root]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/✔ 2 files, no problems/);
  });

  it('exits 1 with a links/anchor finding at the linking line when the heading is deleted', async () => {
    const root = smallCorpus({ 'spec/v2/core/a.md': A, 'spec/v2/core/b.md': doc('B', 'Text.') });
    const stylish = await cli(['check', '--root', root]);
    expect(stylish.status).toBe(1);
    expect(stylish.stdout).toContain(
      'spec/v2/core/a.md:9:5  error    spec/v2/core/b.md has no heading with anchor #some-heading  links/anchor',
    );
    const github = await cli(['check', '--root', root, '--format', 'github']);
    expect(github.status).toBe(1);
    expect(github.stdout).toMatch(
      /^::error file=spec\/v2\/core\/a\.md,line=9,col=5,endLine=9,endColumn=46,title=links\/anchor::spec\/v2\/core\/b\.md has no heading with anchor #some-heading/m,
    );
  });

  it('reports a YAML syntax error as a corpus/parse finding with its line, not a stack trace', async () => {
    const result = await cli([
      'check',
      '--root',
      fixture('defects/parse'),
      '--config',
      fixture('good/openwop-spec.config.json'),
      '--format',
      'json',
    ]);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe('');
    const findings = JSON.parse(result.stdout).diagnostics.filter((d: { rule: string }) => d.rule === 'corpus/parse');
    expect(findings).toContainEqual(expect.objectContaining({ file: 'api/v2/openapi.yaml', line: 4, column: 3 }));
  });

  it('exits 2 with one line for a root that does not exist, an unknown format, rule or option', async () => {
    for (const args of [
      ['check', '--root', '/no/such/dir'],
      ['check', '--format', 'xml'],
      ['check', '--rule', 'links/nope'],
      ['check', '--bogus'],
      ['frobnicate'],
    ]) {
      // Spawned: that nothing but the one line reaches stderr (no trace, no warning of Node.js's) is a property of the process.
      const result = spawnCli(args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.trim().split('\n')[0]).toMatch(/^(openwop-spec: |error: )/);
      expect(result.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await cli(['check', '--root', '/no/such/dir'])).stderr).toBe(
      'openwop-spec: corpus root /no/such/dir does not exist\n',
    );
    // A root that holds no corpus is not a clean corpus: it is almost always the wrong --root.
    const empty = smallCorpus({ 'README.md': '# not a corpus\n' });
    const nothing = await cli(['check', '--root', empty]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toMatch(/^openwop-spec: no corpus under /);
  });

  it('speaks every format: json contract, valid sarif, one github line per finding and a summary notice', async () => {
    const root = fixture('defects/links');
    const json = JSON.parse((await cli(['check', '--root', root, '--format', 'json'])).stdout);
    expect(json.summary.errors).toBeGreaterThan(0);
    for (const d of json.diagnostics)
      expect(Object.keys(d).slice(0, 5)).toEqual(['rule', 'severity', 'file', 'line', 'column']);
    const sarif = JSON.parse((await cli(['check', '--root', root, '--format', 'sarif'])).stdout);
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0].results).toHaveLength(json.diagnostics.length);
    const github = (await cli(['check', '--root', root, '--format', 'github'])).stdout.trimEnd().split('\n');
    // One line per finding, then the summary notice.
    expect(github).toHaveLength(json.diagnostics.length + 1);
    for (const line of github.slice(0, -1)) expect(line).toMatch(/^::(error|warning) file=[^,]+,line=\d+,col=\d+/);
    expect(github.at(-1)).toMatch(/^::notice title=openwop-spec::\d+ problems? \(/);
  });

  it('runs only the rules named with --rule, and whole families with family/*', async () => {
    const root = fixture('defects/links');
    const one = JSON.parse((await cli(['check', '--root', root, '--format', 'json', '--rule', 'links/anchor'])).stdout);
    expect(new Set(one.diagnostics.map((d: { rule: string }) => d.rule))).toEqual(new Set(['links/anchor']));
    const family = JSON.parse((await cli(['check', '--root', root, '--format', 'json', '--rule', 'links/*'])).stdout);
    expect(new Set(family.diagnostics.map((d: { rule: string }) => d.rule))).toEqual(
      new Set(['links/anchor', 'links/file', 'links/section-ref', 'links/bare-doc-reference']),
    );
  });

  it('--fix rewrites exactly the bare references, and a second run changes nothing', async () => {
    const before = doc('A', 'Signing follows b.md, and `b.md` is code.\n\nSee also [b.md](b.md).');
    const root = smallCorpus({
      'spec/v2/core/a.md': before,
      'spec/v2/core/b.md': B,
      'docs/guide.md': '# Guide\n\nRead b.md first.\n',
    });
    const first = await cli(['check', '--root', root, '--fix']);
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('fixed 2 problems in 2 files\n');
    const after = readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8');
    expect(after).toBe(before.replace('Signing follows b.md,', 'Signing follows [b.md](b.md),'));
    expect(readFileSync(path.join(root, 'docs/guide.md'), 'utf8')).toBe(
      '# Guide\n\nRead [b.md](../spec/v2/core/b.md) first.\n',
    );
    const second = await cli(['check', '--root', root, '--fix']);
    expect(second.stderr).toBe('');
    expect(readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8')).toBe(after);
  });

  it('--fix adds the missing anchor to a section reference link', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc('A', 'See [b.md §"Some heading"](b.md).'),
      'spec/v2/core/b.md': B,
    });
    expect((await cli(['check', '--root', root])).status).toBe(1);
    expect((await cli(['check', '--root', root, '--fix'])).status).toBe(0);
    expect(readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8')).toContain(
      '[b.md §"Some heading"](b.md#some-heading)',
    );
  });
});

describe('openwop-spec generate and rules', { timeout: 60_000 }, () => {
  it('generate --check exits 0 when nothing is stale, and generate writes nothing then', async () => {
    const root = copyFixture('good');
    temporary.push(root);
    expect((await cli(['generate', '--check', '--root', root])).status).toBe(0);
    const written = await cli(['generate', '--root', root]);
    expect(written.status).toBe(0);
    expect(written.stderr).toMatch(/0 files written/);
  });

  it('rules lists every rule with its severity and summary', async () => {
    const result = await cli(['rules']);
    expect(result.status).toBe(0);
    for (const id of [
      'corpus/parse',
      'corpus/conflict-marker',
      'links/file',
      'links/anchor',
      'links/section-ref',
      'links/bare-doc-reference',
      'docs/structure',
      'generated/drift',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^${id.replace('/', '\\/')}\\s+(error|warning)\\s+\\S`, 'm'));
    }
    const json = JSON.parse((await cli(['rules', '--format', 'json'])).stdout);
    expect(json.rules.every((r: { summary: string }) => r.summary.length > 10)).toBe(true);
  });

  it('--help and --version exit 0', async () => {
    expect((await cli(['--help'])).status).toBe(0);
    // The executable answers --version before it loads the command line: only a process shows that path.
    expect(spawnCli(['--version']).stdout.trim()).toBe('2.42.8');
  });
});
