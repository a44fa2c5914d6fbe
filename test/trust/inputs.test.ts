/**
 * Bounds on every input that can grow, and inputs that must settle: "did you mean" over a document
 * of many headings, a large JSON file with one duplicate key, a lone surrogate in a registry,
 * names that collide under Unicode normalization or case folding, YAML tags outside the core
 * schema, and JavaScript's reserved names as rule options. The largest cases run under
 * `npm run test:hostile` (OPENWOP_SPEC_HOSTILE=1); the others in every run.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, cliEnv, copyFixture, reported, spawnCli } from '../helpers.js';
import { copyCorpus } from './helpers.js';

const HOSTILE = process.env.OPENWOP_SPEC_HOSTILE === '1';
if (!HOSTILE) console.log('the largest bounds cases are skipped: run them with `npm run test:hostile`');

/** A document of `headings` headings and another citing it `broken` times, each anchor and section one letter off. */
function manyHeadings(headings: number, broken: number): string {
  const root = copyFixture('good');
  mkdirSync(path.join(root, 'docs'));
  const big = ['# Big', ''];
  for (let i = 0; i < headings; i++) big.push(`## Limits of section ${i}`, '', 'text', '');
  writeFileSync(path.join(root, 'docs', 'big.md'), big.join('\n'));
  const links = ['# Links', ''];
  const step = Math.floor(headings / broken);
  for (let i = 0; i < broken; i++)
    links.push(
      `See [x](big.md#limits-of-sectoin-${i * step}) and [big.md §"Limits of sectoin ${i * step}"](big.md).`,
      '',
    );
  writeFileSync(path.join(root, 'docs', 'links.md'), links.join('\n'));
  return root;
}

async function suggestionsHold(headings: number, broken: number, seconds: number): Promise<void> {
  const root = manyHeadings(headings, broken);
  const started = Date.now();
  const result = await cli([
    'check',
    '--root',
    root,
    '--format',
    'json',
    '--rule',
    'links/anchor',
    '--rule',
    'links/section-ref',
  ]);
  const elapsed = (Date.now() - started) / 1000;
  const found = reported(result.stdout);
  const anchors = found.filter((d) => d.rule === 'links/anchor');
  expect(anchors).toHaveLength(broken);
  expect(found.filter((d) => d.rule === 'links/section-ref')).toHaveLength(broken);
  const step = Math.floor(headings / broken);
  expect(anchors.map((d) => d.hint)).toContain(`did you mean #limits-of-section-${step}?`);
  expect(elapsed).toBeLessThan(seconds);
}

describe('"did you mean" is bounded', () => {
  it('20,000 headings, 200 broken anchors and citations: every one answered, in seconds', async () => {
    await suggestionsHold(20_000, 200, 30);
  }, 120_000);

  it.skipIf(!HOSTILE)(
    '200,000 headings, 1,000 broken anchors and citations',
    async () => {
      await suggestionsHold(200_000, 1_000, 150);
    },
    300_000,
  );
});

describe('a duplicate key is found in memory proportional to the file', () => {
  /** A JSON document of about `megabytes` MB with one duplicate key near its end, in a corpus. */
  function bigJson(megabytes: number): { root: string; line: number } {
    const root = copyFixture('good');
    const rows: string[] = [];
    for (let i = 0; rows.length * 60 < megabytes * 1e6; i++)
      rows.push(`    {"id": "row-${i}", "value": "${'x'.repeat(24)}"}`);
    const last = rows.length - 1;
    rows[last] = `    {"id": "row-${last}", "value": "a", "id": "again"}`;
    writeFileSync(path.join(root, 'spec', 'v2', 'big.json'), `{\n  "rows": [\n${rows.join(',\n')}\n  ]\n}\n`);
    return { root, line: last + 3 };
  }

  const holds = (megabytes: number, heap: number) => () => {
    const { root, line } = bigJson(megabytes);
    // A heap far smaller than a positioned parse of the file needs: only a streaming pass fits.
    const result = spawnCli(['check', '--root', root, '--format', 'json', '--rule', 'corpus/parse'], {
      env: cliEnv({ NODE_OPTIONS: `--max-old-space-size=${heap}` }),
    });
    expect(result.stderr).not.toMatch(/heap|internal error/i);
    const parse = reported(result.stdout).filter((d) => d.rule === 'corpus/parse');
    expect(parse.map((d) => `${d.file}:${d.line}`)).toEqual([`spec/v2/big.json:${line}`]);
    expect(parse[0]?.message).toContain('duplicate key "id"');
  };

  it('4 MB in a 128 MB heap', holds(4, 128), 60_000);
  it.skipIf(!HOSTILE)('30 MB in a 350 MB heap', holds(30, 350), 180_000);
});

describe('inputs that must settle', { timeout: 120_000 }, () => {
  it('a lone surrogate in a registry string is a located finding, and generate and generate --check agree', async () => {
    const root = copyCorpus();
    const registry = path.join(root, 'spec', 'v2', 'errors.json');
    const text = readFileSync(registry, 'utf8');
    const at = text.indexOf('"meaning": "') + '"meaning": "'.length;
    writeFileSync(registry, `${text.slice(0, at)}Broken \\ud800 half. ${text.slice(at)}`);
    const line = text.slice(0, at).split('\n').length;
    const generate = await cli(['generate', '--root', root, '--format', 'json']);
    const check = await cli(['generate', '--check', '--root', root, '--format', 'json']);
    for (const result of [generate, check]) {
      expect(result.status).toBe(1);
      const located = reported(result.stdout).filter((d) => d.file === 'spec/v2/errors.json' && d.line === line);
      expect(located.length).toBeGreaterThan(0);
      expect(located[0]?.message).toContain('lone surrogate');
    }
    expect(generate.stderr).toContain('nothing written');
    // And check says it where the file is parsed.
    const checked = reported(
      (await cli(['check', '--root', root, '--format', 'json', '--rule', 'corpus/parse'])).stdout,
    );
    expect(checked.map((d) => `${d.rule} ${d.file}:${d.line}`)).toEqual([`corpus/parse spec/v2/errors.json:${line}`]);
  });

  it('two files whose names differ only in NFC/NFD or only in case are a finding; a link off by normalization says so', async () => {
    const root = copyFixture('good');
    mkdirSync(path.join(root, 'docs'));
    const nfc = 'caf\u00e9.md';
    const nfd = 'cafe\u0301.md';
    writeFileSync(path.join(root, 'docs', nfc), '# Café\n');
    writeFileSync(path.join(root, 'docs', nfd), '# Café\n');
    writeFileSync(path.join(root, 'docs', 'Notes.md'), '# Notes\n');
    writeFileSync(path.join(root, 'docs', 'notes.md'), '# Notes\n');
    writeFileSync(path.join(root, 'docs', 'menu.md'), '# Menu\n');
    writeFileSync(path.join(root, 'docs', 'links.md'), `# Links\n\nSee [the menu](MENU.md).\n`);
    const result = await cli([
      'check',
      '--root',
      root,
      '--format',
      'json',
      '--rule',
      'corpus/irregular',
      '--rule',
      'links/file',
    ]);
    const found = reported(result.stdout);
    const collisions = found.filter((d) => d.rule === 'corpus/irregular');
    // The one of each pair that sorts later (by code unit) is reported, naming the other.
    expect(collisions.map((d) => d.file).sort()).toEqual(['docs/caf\u00e9.md', 'docs/notes.md']);
    expect(collisions.map((d) => d.message).join('\n')).toMatch(
      /only in Unicode normalization[\s\S]*only in case|only in case[\s\S]*only in Unicode normalization/,
    );
    const link = found.filter((d) => d.rule === 'links/file');
    expect(link).toHaveLength(1);
    expect(link[0]?.message).toContain('only in case');

    const linked = copyFixture('good');
    mkdirSync(path.join(linked, 'docs'));
    writeFileSync(path.join(linked, 'docs', nfc), '# Café\n');
    writeFileSync(path.join(linked, 'docs', 'links.md'), `# Links\n\nSee [the café](${nfd}).\n`);
    const off = reported((await cli(['check', '--root', linked, '--format', 'json', '--rule', 'links/file'])).stdout);
    expect(off).toHaveLength(1);
    expect(off[0]?.message).toContain('only in Unicode normalization (NFC/NFD)');
  });

  for (const tag of [
    '!!python/object/apply:os.system ["id"]',
    '!!js/function "function () { return 1 }"',
    '!custom 1',
    '!!binary aGk=',
  ]) {
    it(`a YAML tag outside the core schema is a located finding: ${tag}`, async () => {
      const root = copyFixture('good');
      const file = path.join(root, 'api', 'v2', 'openapi.yaml');
      const text = readFileSync(file, 'utf8');
      writeFileSync(file, `${text.trimEnd()}\nx-extra: ${tag}\n`);
      const line = text.trimEnd().split('\n').length + 1;
      const found = reported(
        (await cli(['check', '--root', root, '--format', 'json', '--rule', 'corpus/parse'])).stdout,
      );
      expect(found.map((d) => `${d.rule} ${d.file}:${d.line}`)).toEqual([`corpus/parse api/v2/openapi.yaml:${line}`]);
      expect(found[0]?.message).toContain('not of the YAML core schema');
    });
  }

  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
    it(`${name} as a rule option name is plain data: one line, exit 2, no internal error`, async () => {
      const root = copyFixture('good');
      writeFileSync(
        path.join(root, 'openwop-spec.config.json'),
        `{"required": ["api/v2/openapi.yaml"], "rules": {"links/anchor": ["error", {"${name}": 1}]}}`,
      );
      const result = await cli(['check', '--root', root]);
      expect(result.status).toBe(2);
      expect(result.stderr).not.toContain('internal error');
      expect(result.stderr).toContain(`has no option "${name}"`);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    });
  }
});
