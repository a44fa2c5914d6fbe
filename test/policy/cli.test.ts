/**
 * The run's policy end to end through the built CLI: rules switched off, suppressions (inline and
 * by fingerprint; with a reason, expired, stale), the findings baseline, --quiet, --max-warnings,
 * --fail-severity, --output, file arguments, --fix-dry-run, colour, EPIPE and usage errors.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CLI, cli, doc, removeTempDirs, sarifValidator, smallCorpus, spawnCli } from '../helpers.js';
import { compareStrings } from '../../core/output/index.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

afterAll(removeTempDirs);

const CONFIG = 'openwop-spec.config.json';

function writeCorpusFile(root: string, file: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(
    path.join(root, file),
    file === CONFIG ? JSON.stringify({ required: [], ...JSON.parse(content) }) : content,
  );
}

/** Where each active finding is, as `file:line rule`. */
function placesOf(stdout: string): string[] {
  return (JSON.parse(stdout).diagnostics as Array<{ file: string; line: number; rule: string }>).map(
    (d) => `${d.file}:${d.line} ${d.rule}`,
  );
}

function env(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  // Both removed, not emptied: from Node.js 22 on, a child warns on stderr when both are set, even empty.
  const { NO_COLOR: _noColor, FORCE_COLOR: _forceColor, ...inherited } = process.env;
  const out: NodeJS.ProcessEnv = { ...inherited };
  delete out.npm_lifecycle_event;
  delete out.npm_package_name;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

const B = doc('B', '## Some heading\n\nText.');
const broken = (n: number): string => `See [b.md](b.md#missing-${n}).`;

describe('suppressions', { timeout: 120_000 }, () => {
  it('an inline suppression with a reason accepts the finding on the next line, counted and carried in SARIF', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc(
        'A',
        `<!-- openwop-spec-disable-next-line links/anchor -- the heading lands with RFC 0201 -->\n${broken(1)}\n\n${broken(2)}`,
      ),
      'spec/v2/core/b.md': B,
    });
    const stylish = await cli(['check', '--root', root]);
    expect(stylish.status).toBe(1);
    expect(stylish.stdout).toContain(
      'spec/v2/core/a.md:10:5  error    spec/v2/core/b.md has no heading with anchor #missing-2  links/anchor',
    );
    expect(stylish.stdout).not.toContain('#missing-1');
    expect(stylish.stdout.trimEnd().split('\n').at(-1)).toBe(
      '✖ 1 problem (1 error, 0 warnings) in 2 files; 1 suppressed',
    );
    const sarif = JSON.parse((await cli(['check', '--root', root, '--format', 'sarif'])).stdout);
    const suppressed = sarif.runs[0].results.filter((r: { suppressions?: unknown }) => r.suppressions);
    expect(suppressed).toHaveLength(1);
    expect(suppressed[0].suppressions).toEqual([
      { kind: 'inSource', status: 'accepted', justification: 'the heading lands with RFC 0201' },
    ]);
  });

  it('refuses a suppression without a reason or of an unknown rule; an expired one fails and no longer hides; a stale one is a finding', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc(
        'A',
        [
          `<!-- openwop-spec-disable-next-line links/anchor -->\n${broken(1)}`,
          `<!-- openwop-spec-disable-next-line links/anchr -- typo in the rule -->\n${broken(2)}`,
          `<!-- openwop-spec-disable-next-line links/anchor until 2000-01-31 -- waiting on the rename -->\n${broken(3)}`,
          `<!-- openwop-spec-disable-next-line links/anchor until 2999-12-31 -- still waiting -->\n${broken(4)}`,
          '<!-- openwop-spec-disable-next-line links/anchor -- the link was fixed since -->\nPlain text.',
        ].join('\n\n'),
      ),
      'spec/v2/core/b.md': B,
    });
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    expect(placesOf(result.stdout)).toEqual([
      'spec/v2/core/a.md:7 suppressions/invalid',
      'spec/v2/core/a.md:8 links/anchor',
      'spec/v2/core/a.md:10 suppressions/invalid',
      'spec/v2/core/a.md:11 links/anchor',
      'spec/v2/core/a.md:13 suppressions/expired',
      'spec/v2/core/a.md:14 links/anchor',
      'spec/v2/core/a.md:19 suppressions/unused',
    ]);
    const messages = JSON.parse(result.stdout).diagnostics.map((d: { message: string }) => d.message);
    expect(messages).toContain('suppression gives no reason');
    expect(messages).toContain('suppression names "links/anchr", which is not a rule; did you mean "links/anchor"?');
    expect(messages).toContain('suppression of links/anchor expired on 2000-01-31 (waiting on the rename)');
    expect(messages).toContain(
      'suppression of links/anchor (openwop-spec-disable-next-line) matches no finding on line 20',
    );
    expect(JSON.parse(result.stdout).summary.suppressed).toBe(1);
  });

  it('a suppressions file accepts a JSON finding by fingerprint, and keeps accepting it when lines are added above', async () => {
    const root = smallCorpus({ 'spec/v2/core/b.md': B, 'spec/v2/x.json': '{\n  "a": 1,\n  "a": 2\n}\n' });
    const first = JSON.parse((await cli(['check', '--root', root, '--format', 'json'])).stdout).diagnostics;
    expect(first.map((d: { rule: string; line: number }) => `${d.rule}:${d.line}`)).toEqual(['corpus/parse:3']);
    const entry = {
      rule: 'corpus/parse',
      file: 'spec/v2/x.json',
      fingerprint: first[0].fingerprint,
      reason: 'generated by a vendor tool we do not control',
    };
    writeCorpusFile(
      root,
      'openwop-spec.suppressions.json',
      JSON.stringify({ suppressions: [entry, { ...entry, fingerprint: '0123456789abcdef0123456789abcdef' }] }, null, 2),
    );
    writeCorpusFile(root, 'spec/v2/x.json', '{\n  "z": 0,\n  "y": 0,\n  "a": 1,\n  "a": 2\n}\n');
    const result = await cli(['check', '--root', root, '--format', 'json']);
    const out = JSON.parse(result.stdout);
    expect(out.suppressed.map((d: { file: string; line: number }) => `${d.file}:${d.line}`)).toEqual([
      'spec/v2/x.json:5',
    ]);
    expect(placesOf(result.stdout)).toEqual(['openwop-spec.suppressions.json:9 suppressions/unused']);
    // Changing the text it was keyed to makes it stale: the finding is back and the entry unused.
    writeCorpusFile(root, 'spec/v2/x.json', '{\n  "b": 1,\n  "b": 2\n}\n');
    expect(placesOf((await cli(['check', '--root', root, '--format', 'json'])).stdout)).toEqual([
      'spec/v2/x.json:3 corpus/parse',
      'openwop-spec.suppressions.json:3 suppressions/unused',
      'openwop-spec.suppressions.json:9 suppressions/unused',
    ]);
  });
});

describe('the findings baseline', { timeout: 120_000 }, () => {
  it("accepts today's findings, fails only a new one, reports a fixed one, and carries baselineState and fingerprints in valid SARIF", async () => {
    const root = smallCorpus({ 'spec/v2/core/a.md': doc('A', `${broken(1)}\n\n${broken(2)}`), 'spec/v2/core/b.md': B });
    const baseline = path.join(root, 'findings.json');
    const update = await cli(['check', '--root', root, '--baseline-findings', baseline, '--update']);
    expect(update.status).toBe(0);
    expect(update.stderr).toMatch(/wrote .*findings\.json: 2 findings accepted/);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).findings).toHaveLength(2);
    const accepted = await cli(['check', '--root', root, '--baseline-findings', baseline]);
    expect(accepted.status).toBe(0);
    expect(accepted.stdout).toBe('✔ 2 files, no problems; 2 accepted by the findings baseline\n');

    // One fixed, one new, and a line added above the one that stays: only the new one fails.
    writeCorpusFile(root, 'spec/v2/core/a.md', doc('A', `Intro.\n\n${broken(2)}\n\n${broken(3)}`));
    const after = await cli(['check', '--root', root, '--baseline-findings', baseline]);
    expect(after.status).toBe(1);
    expect(after.stdout).toContain(
      'spec/v2/core/a.md:11:5  error    spec/v2/core/b.md has no heading with anchor #missing-3  links/anchor',
    );
    expect(after.stdout).not.toContain('error    spec/v2/core/b.md has no heading with anchor #missing-2');
    expect(after.stdout).toContain(
      'fixed since the findings baseline (1):\n  spec/v2/core/a.md  spec/v2/core/b.md has no heading with anchor #missing-1  links/anchor',
    );
    expect(after.stdout.trimEnd().split('\n').at(-1)).toBe(
      '✖ 1 problem (1 error, 0 warnings) in 2 files; 1 accepted by the findings baseline',
    );

    const sarif = JSON.parse(
      (await cli(['check', '--root', root, '--baseline-findings', baseline, '--format', 'sarif'])).stdout,
    );
    expect(sarifValidator()(sarif)).toBe(true);
    const results = sarif.runs[0].results as Array<{
      baselineState: string;
      partialFingerprints: Record<string, string>;
      message: { text: string };
    }>;
    expect(results.map((r) => r.baselineState).sort()).toEqual(['absent', 'new', 'unchanged']);
    for (const r of results) expect(Object.values(r.partialFingerprints)[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(sarif.runs[0].tool.driver.rules.find((r: { id: string }) => r.id === 'links/anchor').helpUri).toBe(
      'https://github.com/openwop/spec/blob/main/docs/rules.md#linksanchor',
    );

    // Rewritten, it shrinks to what is left.
    await cli(['check', '--root', root, '--baseline-findings', baseline, '--update']);
    expect(JSON.parse(readFileSync(baseline, 'utf8')).findings.map((f: { message: string }) => f.message)).toEqual([
      'spec/v2/core/b.md has no heading with anchor #missing-2',
      'spec/v2/core/b.md has no heading with anchor #missing-3',
    ]);
  });

  it('is named in the config too; a missing or malformed baseline file is a usage error', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc('A', broken(1)),
      'spec/v2/core/b.md': B,
      'openwop-spec.config.json': '{"baselineFindings": "accepted.json"}',
    });
    const missing = await cli(['check', '--root', root]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(
      /^openwop-spec: findings baseline .*accepted\.json does not exist; write it with `(openwop-spec|npm run spec --) check --baseline-findings .*accepted\.json --update`\n$/,
    );
    expect((await cli(['check', '--root', root, '--update'])).status).toBe(0);
    expect((await cli(['check', '--root', root])).status).toBe(0);
    writeCorpusFile(root, 'accepted.json', '{"findings": 3}');
    const malformed = await cli(['check', '--root', root]);
    expect(malformed.status).toBe(2);
    expect(malformed.stderr).toContain('is not {"findings": [...]}');
  });
});

describe('linter flags', { timeout: 120_000 }, () => {
  const withWarning = (): string =>
    smallCorpus({
      'spec/v2/core/a.md': doc(
        'A',
        'Text.\n\n<!-- generated: nobody/owns-this -->\nhand text\n<!-- /generated: nobody/owns-this -->',
      ),
      'spec/v2/core/b.md': B,
    });

  it('--max-warnings, --fail-severity and --quiet do what ESLint users expect, as flags and as config keys', async () => {
    const root = withWarning();
    const status = async (...args: string[]) => (await cli(['check', '--root', root, ...args])).status;
    expect(await status()).toBe(0);
    expect(await status('--max-warnings', '1')).toBe(0);
    const over = await cli(['check', '--root', root, '--max-warnings', '0']);
    expect(over.status).toBe(1);
    expect(over.stderr).toBe('openwop-spec: 1 warning, more than --max-warnings 0 allows\n');
    expect(await status('--fail-severity', 'warning')).toBe(1);
    expect(await status('--fail-severity', 'error')).toBe(0);
    const quiet = await cli(['check', '--root', root, '--quiet']);
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toBe('✔ 2 files, no problems; 1 warning not shown (--quiet)\n');
    // Hidden is not forgiven: a quiet run still counts its warnings for --max-warnings.
    expect(await status('--quiet', '--max-warnings', '0')).toBe(1);
    writeCorpusFile(root, 'openwop-spec.config.json', '{"maxWarnings": 0}');
    expect(await status()).toBe(1);
    writeCorpusFile(root, 'openwop-spec.config.json', '{"failSeverity": "warning", "quiet": true}');
    const configured = await cli(['check', '--root', root]);
    expect(configured.status).toBe(1);
    expect(configured.stdout).toContain('1 warning not shown (--quiet)');
    writeCorpusFile(root, 'openwop-spec.config.json', '{"rules": {"generated/region": "off"}}');
    expect((await cli(['check', '--root', root, '--max-warnings', '0'])).stdout).toBe('✔ 2 files, no problems\n');
  });

  it('--output writes the report to the file and nothing to stdout', async () => {
    const root = withWarning();
    const target = path.join(root, 'out', 'report.sarif');
    const result = await cli(['check', '--root', root, '--format', 'sarif', '--output', target]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
    expect(JSON.parse(readFileSync(target, 'utf8')).runs[0].results).toHaveLength(1);
    const rules = await cli(['rules', '--format', 'json', '--output', path.join(root, 'rules.json')]);
    expect(rules.stdout).toBe('');
    expect(JSON.parse(readFileSync(path.join(root, 'rules.json'), 'utf8')).rules.length).toBeGreaterThan(20);
  });

  it('a file argument reports on that file and what depends on it (a link into it), nothing else', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc('A', 'See [b.md §"Some heading"](b.md#some-heading).'),
      'spec/v2/core/b.md': doc('B', `## Renamed heading\n\n${broken(9)}`),
      'spec/v2/core/c.md': doc('C', 'See [d.md](d.md#nowhere).'),
      'spec/v2/core/d.md': doc('D', 'Text.'),
    });
    const all = placesOf((await cli(['check', '--root', root, '--format', 'json'])).stdout);
    expect(all.some((f) => f.startsWith('spec/v2/core/c.md'))).toBe(true);
    const onB = await cli(['check', '--root', root, '--format', 'json', path.join(root, 'spec/v2/core/b.md')]);
    expect(onB.status).toBe(1);
    const files = new Set(placesOf(onB.stdout).map((f) => f.split(':')[0] ?? f));
    expect([...files].sort(compareStrings)).toEqual(['spec/v2/core/a.md', 'spec/v2/core/b.md']);
    const glob = await cli(['check', '--root', root, '--format', 'json', path.join(root, 'spec/v2/core/[cd].md')]);
    expect([...new Set(placesOf(glob.stdout).map((f) => f.split(':')[0]))]).toEqual(['spec/v2/core/c.md']);
    const none = await cli(['check', '--root', root, path.join(root, 'spec/v2/core/nope.md')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/names no file of the corpus/);
  });

  it('--fix-dry-run prints the patch --fix would apply and writes nothing', async () => {
    const root = smallCorpus({ 'spec/v2/core/a.md': doc('A', 'As b.md says.'), 'spec/v2/core/b.md': B });
    const before = readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8');
    const result = await cli(['check', '--root', root, '--fix-dry-run']);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe(
      '--- a/spec/v2/core/a.md\n+++ b/spec/v2/core/a.md\n@@ -4,4 +4,4 @@\n \n ## Why this exists\n \n-As b.md says.\n+As [b.md](b.md) says.\n',
    );
    expect(result.stderr).toBe('fixed 1 problem in 1 file; nothing written (--fix-dry-run)\n');
    expect(readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8')).toBe(before);
  });

  it('colour follows --color/--no-color, then FORCE_COLOR (0 is off), then NO_COLOR, then the terminal', async () => {
    const root = withWarning();
    const colored = async (args: string[], vars: Record<string, string | undefined>) =>
      (await cli(['check', '--root', root, ...args], { env: env(vars) })).stdout.includes('\u001b[');
    // A pipe is not a terminal: spawned, so that stdout really is one.
    expect(spawnCli(['check', '--root', root], { env: env({}) }).stdout.includes('\u001b[')).toBe(false);
    expect(await colored([], { FORCE_COLOR: '1' })).toBe(true);
    expect(await colored([], { FORCE_COLOR: '0' })).toBe(false);
    expect(await colored([], { FORCE_COLOR: 'false' })).toBe(false);
    expect(await colored([], { FORCE_COLOR: '1', NO_COLOR: '1' })).toBe(true);
    expect(await colored(['--color'], { NO_COLOR: '1' })).toBe(true);
    expect(await colored(['--no-color'], { FORCE_COLOR: '1' })).toBe(false);
    expect(await colored(['--format', 'json'], { FORCE_COLOR: '1' })).toBe(false);
  });

  it('a reader that closes the pipe early ends the run quietly, without a stack trace', async () => {
    const root = smallCorpus({
      'spec/v2/core/a.md': doc('A', Array.from({ length: 2000 }, (_, i) => broken(i)).join('\n\n')),
      'spec/v2/core/b.md': B,
    });
    const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [CLI, 'check', '--root', root, '--format', 'json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: env({}),
      });
      let stderr = '';
      child.stderr.on('data', (chunk) => (stderr += chunk));
      child.stdout.once('data', () => child.stdout.destroy());
      child.on('close', (code) => resolve({ code, stderr }));
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
  });

  it('usage errors exit 2 in one line', async () => {
    const root = withWarning();
    for (const [args, message] of [
      [['--max-warnings', 'lots'], '--max-warnings "lots" is not a whole number (or -1, no limit)'],
      [['--fail-severity', 'info'], '--fail-severity "info": use error or warning'],
      [
        ['--update'],
        '--update writes the findings baseline: name it with --baseline-findings FILE (or baselineFindings in the config)',
      ],
      [['--fix', '--fix-dry-run'], '--fix and --fix-dry-run exclude each other'],
      [
        ['--previous-release', 'HEAD~20'],
        '--previous-release "HEAD~20" is not a directory or .tgz (a git ref is written git:<ref>)',
      ],
    ] as const) {
      const result = await cli(['check', '--root', root, ...args]);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(`openwop-spec: ${message}\n`);
    }
    writeCorpusFile(root, 'openwop-spec.config.json', '{"maxWarnings": -1}');
    expect((await cli(['check', '--root', root])).status).toBe(2);
  });

  it('generate and baseline --format json print JSON; rules shows severity, fixable and the documentation link', async () => {
    const root = withWarning();
    const generated = await cli(['generate', '--root', root, '--format', 'json']);
    expect(JSON.parse(generated.stdout).summary).toMatchObject({ errors: 0, warnings: 1 });
    const counts = JSON.parse((await cli(['baseline', '--format', 'json'])).stdout);
    expect(Object.keys(counts.counts)).toEqual(['seamGated', 'unwitnessable']);
    const rules = await cli(['rules']);
    expect(rules.stdout).toMatch(
      /^links\/bare-doc-reference\s+error\s+fixable\s+A corpus document named in running prose/m,
    );
    expect(rules.stdout).toMatch(/^links\/anchor\s+error\s+A link fragment/m);
    expect(rules.stdout).toContain('    https://github.com/openwop/spec/blob/main/docs/rules.md#linksanchor');
    const json = JSON.parse((await cli(['rules', '--format', 'json'])).stdout).rules.find(
      (r: { id: string }) => r.id === 'links/bare-doc-reference',
    );
    expect(json).toMatchObject({
      fixable: true,
      effective: 'error',
      helpUri: 'https://github.com/openwop/spec/blob/main/docs/rules.md#linksbare-doc-reference',
    });
  });
});

describe('hints name a command that runs', { timeout: 60_000 }, () => {
  it("in this repository `npm run spec --`, elsewhere `openwop-spec`, from another package's script `npx openwop-spec`", async () => {
    const root = smallCorpus({ 'spec/v2/core/a.md': doc('A', 'As b.md says.'), 'spec/v2/core/b.md': B });
    const hint = async (cwd: string, vars: Record<string, string | undefined>) =>
      (await cli(['check', '--root', root], { cwd, env: env(vars) })).stdout.match(
        /hint: run `([^`]*) check --fix`/,
      )?.[1];
    expect(await hint(root, {})).toBe('openwop-spec');
    expect(await hint(path.dirname(path.dirname(CLI)) + '/..', {})).toBe('npm run spec --');
    expect(await hint(root, { npm_lifecycle_event: 'spec', npm_package_name: '@openwop/spec' })).toBe(
      'npm run spec --',
    );
    expect(await hint(root, { npm_lifecycle_event: 'lint', npm_package_name: 'some-spec-repo' })).toBe(
      'npx openwop-spec',
    );
  });
});
