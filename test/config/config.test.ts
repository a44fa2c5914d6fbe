import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_SCHEMA,
  defaultConfig,
  loadConfig,
  ruleSettings,
  type ConfigurableRule,
} from '../../core/config/index.js';
import { listCorpusFiles } from '../../core/model/corpus.js';
import { configProblem } from './problem.js';
import { cli, copyFixture, fixture } from '../helpers.js';

function rootWith(config: unknown, files: Record<string, string> = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-config-'));
  if (config !== undefined)
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      typeof config === 'string' ? config : JSON.stringify(config),
    );
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

const problem = configProblem;

describe('loading the config', () => {
  it('falls back to the defaults when the root has none, and reads one that is there', () => {
    expect(loadConfig(rootWith(undefined))).toEqual(defaultConfig());
    const config = loadConfig(
      rootWith({
        include: ['spec/**'],
        rules: { 'links/*': 'warn' },
        layout: { schemaIds: { 'schemas/v2/': 'https://example.org/v2/' } },
      }),
    );
    expect(config.include).toEqual(['spec/**']);
    expect(config.rules).toEqual({ 'links/*': 'warn' });
    expect(config.layout.schemaIds).toEqual([['schemas/v2/', 'https://example.org/v2/']]);
    expect(config.layout.stamp).toBe('CORPUS-STAMP.json');
  });

  it('names the key of a config that does not fit its schema, in one line', () => {
    expect(problem(rootWith({ inclde: ['spec/**'] }))).toMatch(/: inclde is not a known key$/);
    expect(problem(rootWith({ layout: { stmp: 'x' } }))).toMatch(/: layout\.stmp is not a known key$/);
    expect(problem(rootWith({ rules: { 'links/anchor': 'warning' } }))).toMatch(
      /: rules\["links\/anchor"\] must be one of "off", "warn", "error"$/,
    );
    expect(problem(rootWith({ rules: { LINKS: 'off' } }))).toMatch(/rules\["LINKS"\] is not a rule id or family\/\*$/);
    expect(problem(rootWith({ include: 'spec/**' }))).toMatch(/: include must be array$/);
    for (const message of [problem(rootWith({ inclde: [] })), problem(rootWith('{ "include": [ }'))])
      expect(message.split('\n')).toHaveLength(1);
  });

  it('refuses an unreadable or missing explicit config, JSON that does not parse, and globs that leave the root', () => {
    expect(problem(rootWith(undefined), '/nonexistent/openwop-spec.config.json')).toMatch(
      /cannot read config .*ENOENT/,
    );
    expect(problem(rootWith('{ "include": [ }'))).toMatch(/is not JSON/);
    expect(problem(rootWith({ include: ['../elsewhere/**'] }))).toMatch(/must stay inside the root/);
    expect(problem(rootWith({ layout: { stamp: '/etc/passwd' } }))).toMatch(
      /layout\.stamp .* must stay inside the root/,
    );
  });

  it('reads the run policy (maxWarnings, failSeverity, quiet, suppressions, baselineFindings), and refuses a wrong one by its key', () => {
    expect(defaultConfig().policy).toEqual({});
    const policy = {
      maxWarnings: 0,
      failSeverity: 'warning',
      quiet: true,
      suppressions: 'policy/suppressions.json',
      baselineFindings: 'policy/findings.json',
    };
    expect(loadConfig(rootWith(policy)).policy).toEqual(policy);
    expect(problem(rootWith({ maxWarnings: -1 }))).toMatch(/: maxWarnings must be >= 0$/);
    expect(problem(rootWith({ maxWarnings: 1.5 }))).toMatch(/: maxWarnings must be integer$/);
    expect(problem(rootWith({ failSeverity: 'info' }))).toMatch(/: failSeverity must be one of "error", "warning"$/);
    expect(problem(rootWith({ quiet: 'yes' }))).toMatch(/: quiet must be boolean$/);
    expect(problem(rootWith({ baselineFindings: '../outside.json' }))).toMatch(
      /baselineFindings "\.\.\/outside\.json" must stay inside the root/,
    );
    expect(problem(rootWith({ suppressions: '/etc/passwd' }))).toMatch(
      /suppressions "\/etc\/passwd" must stay inside the root/,
    );
  });

  it("reads required and allowRemoteRefs, with this repository's defaults, and refuses a required path out of the root", () => {
    expect(defaultConfig().required).toContain('spec/v2/errors.json');
    expect(defaultConfig().allowRemoteRefs).toBe(false);
    const config = loadConfig(rootWith({ required: ['spec/v2/errors.json'], allowRemoteRefs: true }));
    expect(config.required).toEqual(['spec/v2/errors.json']);
    expect(config.allowRemoteRefs).toBe(true);
    expect(loadConfig(rootWith({ include: ['spec/**'] })).required).toEqual(defaultConfig().required);
    expect(problem(rootWith({ required: ['../outside.json'] }))).toMatch(
      /required file "\.\.\/outside\.json" must be inside the root/,
    );
    expect(problem(rootWith({ required: 'spec/v2/errors.json' }))).toMatch(/: required must be array$/);
    expect(problem(rootWith({ allowRemoteRefs: 'yes' }))).toMatch(/: allowRemoteRefs must be boolean$/);
  });

  it('ships its schema as a closed 2020-12 schema', () => {
    expect(CONFIG_SCHEMA.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(CONFIG_SCHEMA.additionalProperties).toBe(false);
  });
});

describe('rule settings', () => {
  const rules: ConfigurableRule[] = [
    { id: 'links/anchor', severity: 'error' },
    { id: 'links/file', severity: 'error' },
    {
      id: 'docs/words',
      severity: 'warning',
      options: { max: { type: 'integer', minimum: 1, default: 90, description: 'words a paragraph may hold' } },
    },
  ];
  const settingsOf = (value: unknown) => ruleSettings(loadConfig(rootWith(value)), rules);

  it('lets a rule id win over its family, whatever the order', () => {
    const settings = settingsOf({ rules: { 'links/anchor': 'warn', 'links/*': 'off' } });
    expect(settings.get('links/anchor')).toMatchObject({ enabled: true, severity: 'warning', configured: true });
    expect(settings.get('links/file')).toMatchObject({ enabled: false });
    expect(settings.get('docs/words')).toEqual({
      enabled: true,
      severity: 'warning',
      options: { max: 90 },
      configured: false,
    });
  });

  it("merges options over their defaults and checks them against the rule's schema", () => {
    expect(settingsOf({ rules: { 'docs/words': ['error', { max: 40 }] } }).get('docs/words')).toEqual({
      enabled: true,
      severity: 'error',
      options: { max: 40 },
      configured: true,
    });
    expect(() => settingsOf({ rules: { 'docs/words': ['error', { max: 0 }] } })).toThrow(
      /rules\["docs\/words"\] option max must be >= 1/,
    );
    expect(() => settingsOf({ rules: { 'docs/words': ['error', { maximum: 3 }] } })).toThrow(
      /has no option "maximum" \(its options: max\)/,
    );
    expect(() => settingsOf({ rules: { 'links/anchor': ['error', { x: 1 }] } })).toThrow(/it takes none/);
    expect(() => settingsOf({ rules: { 'docs/*': ['error', { max: 3 }] } })).toThrow(/options are set per rule id/);
  });

  it('refuses a rule or family that does not exist', () => {
    expect(() => settingsOf({ rules: { 'links/anchr': 'off' } })).toThrow(/rules\["links\/anchr"\] names no rule/);
    expect(() => settingsOf({ rules: { 'nope/*': 'off' } })).toThrow(/rules\["nope\/\*"\] names no rule/);
  });
});

describe('include and exclude', () => {
  it('select the corpus files, sorted, never from node_modules or dotfiles', () => {
    const root = rootWith(undefined, {
      'spec/a.md': '',
      'spec/.hidden.md': '',
      'spec/node_modules/x.md': '',
      'notes/b.md': '',
      'notes/c.txt': '',
      'spec/z/old.md': '',
    });
    const defaults = listCorpusFiles(root, defaultConfig());
    expect(defaults.paths).toEqual(['spec/a.md', 'spec/z/old.md']);
    const chosen = listCorpusFiles(root, { ...defaultConfig(), include: ['**/*.md'], exclude: ['spec/z/**'] });
    expect(chosen.paths).toEqual(['notes/b.md', 'spec/a.md']);
  });
});

describe('the config on the command line', () => {
  it('turns a rule off or down, and --rule still runs a rule the config turns off', async () => {
    const root = copyFixture('defects/links');
    const before = JSON.parse((await cli(['check', '--root', root, '--format', 'json', '--no-cache'])).stdout);
    expect(before.diagnostics.some((d: { rule: string }) => d.rule === 'links/file')).toBe(true);
    writeFileSync(
      path.join(root, 'openwop-spec.config.json'),
      JSON.stringify({ rules: { 'links/file': 'off', 'docs/*': 'warn' } }),
    );
    const after = await cli(['check', '--root', root, '--format', 'json', '--no-cache']);
    const report = JSON.parse(after.stdout);
    expect(report.diagnostics.some((d: { rule: string }) => d.rule === 'links/file')).toBe(false);
    const structure = report.diagnostics.filter((d: { rule: string }) => d.rule === 'docs/structure');
    expect(structure.length).toBeGreaterThan(0);
    expect(structure.every((d: { severity: string }) => d.severity === 'warning')).toBe(true);
    const named = JSON.parse(
      (await cli(['check', '--root', root, '--format', 'json', '--no-cache', '--rule', 'links/file'])).stdout,
    );
    expect(named.diagnostics.map((d: { rule: string }) => d.rule)).toContain('links/file');
  });

  it('takes --config FILE relative to the working directory, and a bad config is one line and exit 2', async () => {
    const dir = rootWith(undefined);
    writeFileSync(path.join(dir, 'cfg.json'), JSON.stringify({ rules: { 'links/*': 'off' } }));
    const off = JSON.parse(
      (
        await cli(
          ['check', '--root', fixture('defects/links'), '--config', 'cfg.json', '--format', 'json', '--no-cache'],
          dir,
        )
      ).stdout,
    );
    expect(off.diagnostics.filter((d: { rule: string }) => d.rule.startsWith('links/'))).toEqual([]);
    writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ rules: { 'links/anchr': 'off' } }));
    const bad = await cli(['check', '--root', fixture('defects/links'), '--config', 'bad.json'], dir);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toEqual([
      'openwop-spec: config bad.json: rules["links/anchr"] names no rule (`npm run spec -- rules` lists them)',
    ]);
    expect(
      (await cli(['generate', '--check', '--root', fixture('defects/links'), '--config', 'missing.json'], dir)).status,
    ).toBe(2);
  });

  it('includes the files the config names, and says so when they match nothing', async () => {
    const root = rootWith({ include: ['notes/**/*.md'] }, { 'notes/a.md': '# A\n\n[b](b.md)\n' });
    const result = JSON.parse(
      (await cli(['check', '--root', root, '--format', 'json', '--no-cache', '--rule', 'links/file'])).stdout,
    );
    expect(result.summary.files).toBe(1);
    expect(result.diagnostics.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual([
      'notes/a.md:3',
    ]);
    const empty = await cli(['check', '--root', rootWith({ include: ['nothing/**'] })]);
    expect(empty.status).toBe(2);
    expect(empty.stderr).toMatch(/nothing there matches nothing\/\*\*/);
  });

  it('lists each rule with its effective severity under the config', async () => {
    const root = rootWith({ rules: { 'links/*': 'off', 'docs/structure': 'warn' } });
    const { rules } = JSON.parse((await cli(['rules', '--root', root, '--format', 'json'])).stdout) as {
      rules: { id: string; effective: string }[];
    };
    expect(rules.find((r) => r.id === 'links/anchor')?.effective).toBe('off');
    expect(rules.find((r) => r.id === 'docs/structure')?.effective).toBe('warning');
    expect(rules.find((r) => r.id === 'corpus/parse')?.effective).toBe('error');
  });
});
