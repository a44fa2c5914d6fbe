/**
 * The config as the linters people know have it: JSONC and YAML files with errors at line:column,
 * found from the working directory upwards to the repository root, `extends` (a file, a package,
 * a built-in), `overrides` by glob with a later entry winning, `--print-config FILE` and `init`.
 * End to end through the built command line, on small repositories in temporary directories.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CONFIG_SCHEMA, discoverConfig, loadConfig } from '../../core/config/index.js';
import { parseConfigText } from '../../core/config/read.js';
import { configProblem } from './problem.js';
import { cli, doc, REPO, reported, words } from '../helpers.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A repository (a `.git` directory marks its root) holding `files`. */
function repository(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-discovery-'));
  temporary.push(root);
  mkdirSync(path.join(root, '.git'));
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const problem = configProblem;

/** A paragraph of `n` words. */
const broken = 'See [b.md](b.md#missing).';

describe('config files: JSONC and YAML', () => {
  it('reads comments and trailing commas in .json and .jsonc, and YAML in .yaml', () => {
    const jsonc = '// the corpus\n{\n  /* only spec */ "include": ["spec/**",],\n  "required": [],\n}\n';
    expect(loadConfig(repository({ 'openwop-spec.config.jsonc': jsonc })).include).toEqual(['spec/**']);
    expect(loadConfig(repository({ 'openwop-spec.config.json': jsonc })).include).toEqual(['spec/**']);
    const yaml = '# the corpus\ninclude:\n  - spec/**\nrules:\n  links/*: warn\n';
    const config = loadConfig(repository({ 'openwop-spec.config.yaml': yaml }));
    expect(config.include).toEqual(['spec/**']);
    expect(config.rules).toEqual({ 'links/*': 'warn' });
  });

  it('says where a syntax error or a value that does not fit the schema is, as file:line:column', () => {
    expect(
      problem(repository({ 'openwop-spec.config.jsonc': '{\n  "include": ["spec/**"]\n  "exclude": []\n}\n' })),
    ).toMatch(/openwop-spec\.config\.jsonc:3:3: is not JSON: comma expected$/);
    expect(problem(repository({ 'openwop-spec.config.yaml': 'include:\n  - spec/**\n exclude: []\n' }))).toMatch(
      /openwop-spec\.config\.yaml:3:\d+: is not YAML: /,
    );
    expect(
      problem(
        repository({ 'openwop-spec.config.jsonc': '{\n  // a comment\n  "rules": { "links/anchor": "warning" }\n}\n' }),
      ),
    ).toMatch(/openwop-spec\.config\.jsonc:3:30: rules\["links\/anchor"\] must be one of "off", "warn", "error"$/);
    expect(problem(repository({ 'openwop-spec.config.yaml': 'layout:\n  stmp: x\n' }))).toMatch(
      /openwop-spec\.config\.yaml:2:3: layout\.stmp is not a known key$/,
    );
  });

  it('refuses two config files in one directory rather than choose', () => {
    expect(problem(repository({ 'openwop-spec.config.json': '{}', 'openwop-spec.config.yaml': '{}' }))).toMatch(
      /has openwop-spec\.config\.json and openwop-spec\.config\.yaml: keep one config file$/,
    );
  });

  it('locates any key or value of either format', () => {
    const json = parseConfigText('{\n  "a": [1, {"b": true}]\n}', 'x.json');
    expect(json.at(['a', 1, 'b'])).toEqual({ line: 2, column: 18, endColumn: 22 });
    expect(json.at(['a', '1', 'b'])).toEqual({ line: 2, column: 18, endColumn: 22 });
    expect(json.at(['a', 1, 'b'], 'key')).toEqual({ line: 2, column: 13, endColumn: 16 });
    const yaml = parseConfigText('a:\n  - 1\n  - b: true\n', 'x.yaml');
    expect(yaml.at(['a', 1, 'b'])).toEqual({ line: 3, column: 8, endColumn: 12 });
    expect(yaml.at(['a', 1, 'b'], 'key')).toEqual({ line: 3, column: 5, endColumn: 6 });
    expect(yaml.at(['a', 5])).toBeUndefined();
  });
});

describe('finding the config from the working directory', () => {
  it('walks up to the nearest config, and stops at the repository root', () => {
    const outer = mkdtempSync(path.join(tmpdir(), 'openwop-outer-'));
    temporary.push(outer);
    writeFileSync(path.join(outer, 'openwop-spec.config.json'), '{}');
    const root = path.join(outer, 'repo');
    mkdirSync(path.join(root, '.git'), { recursive: true });
    mkdirSync(path.join(root, 'spec', 'v2'), { recursive: true });
    // No config inside the repository: the root is the repository's, the config above it is not used.
    expect(discoverConfig(path.join(root, 'spec', 'v2'))).toEqual({ root });
    writeFileSync(path.join(root, 'openwop-spec.config.yaml'), 'required: []\n');
    expect(discoverConfig(path.join(root, 'spec', 'v2'))).toEqual({
      root,
      config: path.join(root, 'openwop-spec.config.yaml'),
    });
    writeFileSync(path.join(root, 'spec', 'openwop-spec.config.jsonc'), '{}');
    expect(discoverConfig(path.join(root, 'spec', 'v2'))).toEqual({
      root: path.join(root, 'spec'),
      config: path.join(root, 'spec', 'openwop-spec.config.jsonc'),
    });
  });

  it("runs check from a subfolder: the corpus is the config's, file arguments are relative to the working directory", async () => {
    const root = repository({
      'openwop-spec.config.jsonc': '{ "required": [], // none\n}',
      'spec/v2/core/a.md': doc('A', broken),
      'spec/v2/core/b.md': doc('B', '## Some heading\n\nText.'),
      'spec/v2/core/c.md': doc('C', broken),
    });
    const sub = path.join(root, 'spec', 'v2');
    const one = await cli(['check', 'core/a.md', '--format', 'json', '--rule', 'links/anchor'], { cwd: sub });
    expect(one.stderr).toBe('');
    expect(reported(one.stdout).map((d) => `${d.file}:${d.line}`)).toEqual(['spec/v2/core/a.md:7']);
    const all = await cli(['check', '--format', 'json', '--rule', 'links/anchor'], { cwd: sub });
    expect(reported(all.stdout).map((d) => d.file)).toEqual(['spec/v2/core/a.md', 'spec/v2/core/c.md']);
    const missing = await cli(['check', 'core/none.md'], { cwd: sub });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe(`openwop-spec: core/none.md names no file of the corpus at ${root}\n`);
  });
});

describe('npm run spec from a subfolder of this repository', () => {
  it("takes the paths on its command line from the folder it was typed in (npm's INIT_CWD)", () => {
    const result = spawnSync('npm', ['run', '--silent', 'spec', '--', '--print-config', 'core/runs.md'], {
      cwd: path.join(REPO, 'spec', 'v2'),
      encoding: 'utf8',
      env: { ...process.env, INIT_CWD: path.join(REPO, 'spec', 'v2') },
    });
    expect(result.stderr).toBe('');
    expect((JSON.parse(result.stdout) as { file: string; config: string }).file).toBe('spec/v2/core/runs.md');
  });
});

describe('extends', () => {
  it("merges a relative file, a package's exported config and a built-in under the config, the config winning", () => {
    const root = repository({
      'configs/base.yaml': 'include: ["spec/**"]\nrules:\n  links/*: warn\n  docs/structure: "off"\n',
      'node_modules/@acme/openwop-config/package.json': JSON.stringify({
        name: '@acme/openwop-config',
        exports: { '.': './config.json' },
      }),
      'node_modules/@acme/openwop-config/config.json': JSON.stringify({
        rules: { 'docs/readability': ['error', { maxWords: 50 }] },
        maxWarnings: 3,
      }),
      'openwop-spec.config.jsonc':
        '{ "extends": ["openwop-spec:strict", "./configs/base.yaml", "@acme/openwop-config"], "rules": { "links/anchor": "error" } }',
    });
    const config = loadConfig(root);
    expect(config.include).toEqual(['spec/**']);
    expect(config.rules).toEqual({
      'links/*': 'warn',
      'docs/structure': 'off',
      'docs/readability': ['error', { maxWords: 50 }],
      'links/anchor': 'error',
    });
    // strict says 0, the package later says 3.
    expect(config.policy.maxWarnings).toBe(3);
  });

  it("reads a package whose export is a CommonJS module, as ESLint's shareable configs are", () => {
    const root = repository({
      'node_modules/openwop-config-house/package.json': JSON.stringify({
        name: 'openwop-config-house',
        main: 'index.js',
      }),
      'node_modules/openwop-config-house/index.js':
        'module.exports = { rules: { "docs/*": "warn" }, overrides: [{ files: ["spec/v2/drafts/**"], rules: { "links/*": "off" } }] };',
      'openwop-spec.config.yaml': 'extends: openwop-config-house\nrules:\n  docs/structure: error\n',
    });
    const config = loadConfig(root);
    expect(config.rules).toEqual({ 'docs/*': 'warn', 'docs/structure': 'error' });
    expect(config.overrides).toEqual([
      { files: ['spec/v2/drafts/**'], excludedFiles: [], rules: { 'links/*': 'off' } },
    ]);
  });

  it('refuses an unknown built-in, a missing file or package, a config that is not one and a cycle, naming the entry', () => {
    expect(problem(repository({ 'openwop-spec.config.json': '{\n  "extends": "openwop-spec:recomended"\n}' }))).toMatch(
      /extends "openwop-spec:recomended" is not a built-in config \(openwop-spec:recommended, openwop-spec:strict\) \(line 2, column 14\)$/,
    );
    expect(problem(repository({ 'openwop-spec.config.json': '{ "extends": "./nope.json" }' }))).toMatch(
      /extends "\.\/nope\.json": .*nope\.json does not exist/,
    );
    expect(problem(repository({ 'openwop-spec.config.json': '{ "extends": "no-such-config" }' }))).toMatch(
      /extends "no-such-config": no installed package exports a config by that name/,
    );
    expect(
      problem(
        repository({
          'node_modules/js-config/package.json': JSON.stringify({ name: 'js-config', main: 'index.cjs' }),
          'node_modules/js-config/index.cjs': 'module.exports = { rules: { "links/anchr": "off" }, inclde: [] };',
          'openwop-spec.config.json': '{ "extends": "js-config" }',
        }),
      ),
    ).toMatch(/config .*node_modules\/js-config\/index\.cjs: inclde is not a known key$/);
    expect(
      problem(
        repository({
          'node_modules/txt-config/package.json': JSON.stringify({ name: 'txt-config', main: 'config.txt' }),
          'node_modules/txt-config/config.txt': '{}',
          'openwop-spec.config.json': '{ "extends": "txt-config" }',
        }),
      ),
    ).toMatch(
      /extends "txt-config" resolves to .*config\.txt, which is not a \.json, \.jsonc, \.yaml or JavaScript config/,
    );
    expect(
      problem(
        repository({
          'a.json': '{ "extends": "./openwop-spec.config.json" }',
          'openwop-spec.config.json': '{ "extends": "./a.json" }',
        }),
      ),
    ).toMatch(/extends itself: /);
  });

  it('reads every layer as a regular file inside the root: no link, no file outside, no committed module run', () => {
    const outside = repository({ 'base.json': '{ "rules": { "links/*": "off" } }', 'secret.txt': 'TOKEN=hunter2\n' });
    const root = repository({
      'corpus/openwop-spec.config.json': `{ "extends": "../base.json" }`,
      'corpus/spec/a.md': '# A\n',
    });
    expect(problem(path.join(root, 'corpus'))).toMatch(
      /extends "\.\.\/base\.json" leads outside the corpus root \(line 1, column 14\)/,
    );
    expect(
      problem(
        repository({ 'openwop-spec.config.json': `{ "extends": ${JSON.stringify(path.join(outside, 'base.json'))} }` }),
      ),
    ).toMatch(/leads outside the corpus root/);
    const linked = repository({ 'openwop-spec.config.json': '{ "extends": "./base.json" }' });
    symlinkSync(path.join(outside, 'secret.txt'), path.join(linked, 'base.json'));
    const message = problem(linked);
    expect(message).toMatch(/base\.json is a symbolic link; it is refused, not followed/);
    expect(message).not.toContain('hunter2');
    const linkedConfig = repository({});
    symlinkSync(path.join(outside, 'base.json'), path.join(linkedConfig, 'openwop-spec.config.json'));
    expect(problem(linkedConfig)).toMatch(/openwop-spec\.config\.json is a symbolic link; it is refused/);
    expect(
      problem(
        repository({
          'tools/config.cjs': 'module.exports = {};',
          'openwop-spec.config.json': '{ "extends": "./tools/config.cjs" }',
        }),
      ),
    ).toMatch(/config\.cjs is JavaScript, which is run only from a package installed in the root's node_modules/);
    const bom = repository({
      'openwop-spec.config.yaml': '\uFEFFextends: ./base.yaml\n',
      'base.yaml': '\uFEFFrules:\n  links/anchor: warn\n',
    });
    expect(loadConfig(bom).rules).toEqual({ 'links/anchor': 'warn' });
  });
});

describe('overrides', () => {
  const files = {
    'spec/v2/core/a.md': doc('A', `${words(30, 'word')}.\n\n${broken}`),
    'spec/v2/core/b.md': doc('B', `## Some heading\n\n${words(30, 'word')}.`),
    'spec/v2/drafts/c.md': doc('C', `${words(30, 'word')}.\n\nSee [b.md](../core/b.md#missing).`),
  };

  it('gives files their own severity, options or none, a later entry winning, in a real run', async () => {
    const root = repository({
      ...files,
      'openwop-spec.config.yaml': [
        'required: []',
        'rules:',
        '  docs/readability: [error, { maxWords: 10 }]',
        'overrides:',
        '  - files: ["spec/v2/drafts/**"]',
        '    rules: { links/*: warn, docs/readability: "off" }',
        '  - files: "spec/v2/core/b.md"',
        '    rules: { docs/readability: [warn, { maxWords: 50 }] }',
        '  - files: ["spec/v2/drafts/**"]',
        '    rules: { links/anchor: error }',
        '',
      ].join('\n'),
    });
    const result = await cli(['check', '--format', 'json', '--rule', 'links/anchor', '--rule', 'docs/readability'], {
      cwd: root,
    });
    expect(result.stderr).toBe('');
    const found = reported(result.stdout).map((d) => `${d.file}:${d.line} ${d.rule} ${d.severity}`);
    // b.md's 30 words are within its own 50; the drafts' readability is off; their anchors are errors again (the later entry).
    // docs/readability is the old id of three rules: set and chosen under it, the one that finds something reports under its own id.
    expect(found).toEqual([
      'spec/v2/core/a.md:7 docs/prose-length error',
      'spec/v2/core/a.md:9 links/anchor error',
      'spec/v2/drafts/c.md:9 links/anchor error',
    ]);
  });

  it('runs a rule the top level turns off where an override turns it on', async () => {
    const root = repository({
      ...files,
      'openwop-spec.config.json': JSON.stringify({
        required: [],
        rules: { 'links/anchor': 'off' },
        overrides: [{ files: 'spec/v2/drafts/*.md', rules: { 'links/anchor': 'warn' } }],
      }),
    });
    const result = await cli(['check', '--format', 'json'], { cwd: root });
    expect(
      reported(result.stdout)
        .filter((d) => d.rule === 'links/anchor')
        .map((d) => `${d.file} ${d.severity}`),
    ).toEqual(['spec/v2/drafts/c.md warning']);
  });

  it('--print-config FILE prints what the config makes of that file, from any folder', async () => {
    const root = repository({
      ...files,
      'openwop-spec.config.json': JSON.stringify({
        required: [],
        rules: { 'docs/readability': ['error', { maxWords: 10 }] },
        overrides: [
          {
            files: ['spec/v2/drafts/**'],
            excludedFiles: ['**/skip.md'],
            rules: { 'links/*': 'off', 'docs/readability': 'warn' },
          },
        ],
      }),
    });
    const printed = await cli(['check', '--print-config', 'drafts/c.md'], { cwd: path.join(root, 'spec', 'v2') });
    expect(printed.status).toBe(0);
    const effective = JSON.parse(printed.stdout) as {
      file: string;
      config: string;
      overrides: number[];
      rules: Record<string, unknown>;
    };
    expect(effective.file).toBe('spec/v2/drafts/c.md');
    expect(effective.overrides).toEqual([0]);
    expect(effective.rules['links/anchor']).toBe('off');
    expect(effective.rules['docs/prose-length']).toEqual(['warn', expect.objectContaining({ maxWords: 10 })]);
    // The old id's options go to the rules that declare them; the others keep their own.
    expect(effective.rules['docs/rfc-numbers']).toEqual(['warn', expect.not.objectContaining({ maxWords: 10 })]);
    const top = JSON.parse((await cli(['--print-config', 'spec/v2/drafts/skip.md'], { cwd: root })).stdout) as {
      overrides: number[];
      rules: Record<string, unknown>;
    };
    expect(top.overrides).toEqual([]);
    expect(top.rules['links/anchor']).toBe('error');
    const outside = await cli(['check', '--print-config', '../elsewhere.md'], { cwd: root });
    expect(outside.status).toBe(2);
  });

  it('refuses an override naming no rule or a glob leaving the root, by its key', async () => {
    const misspelt = await cli(['check'], {
      cwd: repository({
        'openwop-spec.config.json': JSON.stringify({ overrides: [{ files: ['**'], rules: { 'links/anchr': 'off' } }] }),
      }),
    });
    expect(misspelt.status).toBe(2);
    expect(misspelt.stderr).toMatch(
      /^openwop-spec: config openwop-spec\.config\.json: overrides\[0\]\.rules\["links\/anchr"\] names no rule/,
    );
    expect(
      problem(repository({ 'openwop-spec.config.json': JSON.stringify({ overrides: [{ files: ['../x/**'] }] }) })),
    ).toMatch(/glob "\.\.\/x\/\*\*" must stay inside the root/);
    expect(problem(repository({ 'openwop-spec.config.json': JSON.stringify({ overrides: [{ rules: {} }] }) }))).toMatch(
      /overrides\[0\]|files/,
    );
  });
});

describe('init', () => {
  it('writes a commented starter config from the layout it finds, which then runs, and never overwrites', async () => {
    const root = repository({
      'spec/v2/core/a.md': doc('A', 'Text.'),
      'spec/v2/errors.json': '{}',
      'api/v2/openapi.yaml': 'openapi: 3.1.0\n',
      'schemas/v2/run.schema.json': JSON.stringify({ $id: 'https://example.org/spec/v2/run.schema.json' }),
      'schemas/v2/step.schema.json': JSON.stringify({ $id: 'https://example.org/spec/v2/step.schema.json' }),
      'schemas/v2/facets/f.schema.json': JSON.stringify({ $id: 'https://example.org/spec/v2/facets/f.schema.json' }),
      'spec-artifacts/CORPUS-STAMP.json': '{}',
      'spec-artifacts/package.json': '{"name": "x", "version": "1.0.0"}',
    });
    const sub = path.join(root, 'spec');
    const first = await cli(['init'], { cwd: sub });
    expect(first.stderr).toMatch(
      /^wrote .*\/openwop-spec\.config\.jsonc: spec, api, schemas; stamp spec-artifacts\/CORPUS-STAMP\.json; 1 \$id base; 2 required files\n$/,
    );
    expect(first.status).toBe(0);
    const text = readFileSync(path.join(root, 'openwop-spec.config.jsonc'), 'utf8');
    expect(text).toMatch(/^\/\/ /);
    const config = loadConfig(root);
    expect(config.include).toEqual(['{spec,api,schemas}/**', 'spec-artifacts/CORPUS-STAMP.json']);
    expect(config.layout).toEqual({
      schemaIds: [['schemas/v2/', 'https://example.org/spec/v2/']],
      stamp: 'spec-artifacts/CORPUS-STAMP.json',
    });
    expect(config.required).toEqual(['spec/v2/errors.json', 'api/v2/openapi.yaml']);
    expect(JSON.parse(JSON.stringify(parseConfigText(text, 'x.jsonc').value)).$schema).toMatch(
      /openwop-spec\.config\.schema\.json$/,
    );
    const run = await cli(['check', '--format', 'json'], { cwd: sub });
    expect(run.status, run.stderr).not.toBe(2);
    const again = await cli(['init'], { cwd: root });
    expect(again.status).toBe(2);
    expect(again.stderr).toMatch(
      /^openwop-spec: openwop-spec\.config\.jsonc exists; init never overwrites a config \(`.*check --print-config FILE` shows what it says\)\n$/,
    );
    expect(readFileSync(path.join(root, 'openwop-spec.config.jsonc'), 'utf8')).toBe(text);
  });
});

describe('the published config schema', () => {
  it("is built into dist/ for editors, and names the schema a config's $schema points at", () => {
    const published = path.join(REPO, 'dist', 'openwop-spec.config.schema.json');
    expect(existsSync(published)).toBe(true);
    expect(JSON.parse(readFileSync(published, 'utf8'))).toEqual(JSON.parse(JSON.stringify(CONFIG_SCHEMA)));
    expect(
      (JSON.parse(readFileSync(path.join(REPO, 'openwop-spec.config.json'), 'utf8')) as { $schema: string }).$schema,
    ).toBe('./dist/openwop-spec.config.schema.json');
  });
});
