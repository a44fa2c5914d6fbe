/**
 * The CI formats against the structure their consumers read: JUnit and Checkstyle XML validated
 * with the JDK's XSD validator against schemas written from those consumers' documentation, the
 * Code Quality JSON with ajv against its documented shape; markdown and html for what a reader
 * sees; the summary lines of stylish and github; and `--format F --output FILE` pairing.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, describe, expect, it } from 'vitest';
import { summarize, type Diagnostic } from '../../core/output/diagnostics.js';
import { REPORTERS, type ReportContext } from '../../core/output/reporters/index.js';
import { failureReason } from '../../core/output/verdict.js';
import { pairReports } from '../../scripts/report-targets.js';

const SCHEMAS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'schemas');
const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-formats-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DIAGNOSTICS: Diagnostic[] = [
  {
    rule: 'links/anchor',
    severity: 'error',
    file: 'spec/v2/core/a.md',
    line: 3,
    column: 5,
    endLine: 3,
    endColumn: 12,
    message: 'b.md has no heading <script>alert(1)</script> & "x"',
    hint: 'did you mean #y?',
    fingerprint: 'f1',
    fix: { start: 0, end: 1, text: 'x' },
  },
  {
    rule: 'links/anchor',
    severity: 'error',
    file: 'spec/v2/core/a.md',
    line: 7,
    column: 1,
    message: 'the same text | a pipe',
    fingerprint: 'f1',
  },
  {
    rule: 'generated/region',
    severity: 'warning',
    file: 'spec/v2/core/a.md',
    line: 9,
    column: 1,
    message: 'a region no generator owns',
    fingerprint: 'f3',
  },
  {
    rule: 'corpus/parse',
    severity: 'error',
    file: "api/v2/o'pen api.yaml",
    line: 1,
    column: 2,
    message: 'bad\u0007',
    fingerprint: 'f4',
  },
  {
    rule: 'api/header-naming',
    severity: 'warning',
    file: 'api/v2/openapi.yaml',
    line: 4,
    column: 1,
    message: 'accepted',
    fingerprint: 'f5',
    suppression: { kind: 'external', justification: 'kept for v1 clients' },
  },
];

function reportContext(diagnostics: readonly Diagnostic[], extra: Partial<ReportContext> = {}): ReportContext {
  return {
    summary: summarize(diagnostics, 7),
    rules: ['links/anchor', 'generated/region', 'corpus/parse', 'api/header-naming', 'links/file'].map((id) => ({
      id,
      summary: id,
      severity: 'error' as const,
      helpUri: `https://example.org/rules#${id}`,
    })),
    toolName: 'openwop-spec',
    toolVersion: '2.42.8',
    color: false,
    ...extra,
  };
}

const report = (
  format: string,
  diagnostics: readonly Diagnostic[] = DIAGNOSTICS,
  extra: Partial<ReportContext> = {},
): string => REPORTERS[format]!(diagnostics, reportContext(diagnostics, extra));

const javaAvailable = spawnSync('java', ['-version'], { encoding: 'utf8' }).status === 0;
if (!javaAvailable)
  console.log('skipped: the XSD checks of the junit and checkstyle reports need `java` (a JDK) on PATH');

/** Each document's verdict from the JDK's XSD 1.0 validator. */
function validateXml(schema: string, documents: Record<string, string>): Record<string, string> {
  const files = Object.entries(documents).map(([name, text]) => {
    const file = path.join(scratch, `${name}.xml`);
    writeFileSync(file, text);
    return [name, file] as const;
  });
  const result = spawnSync(
    'java',
    [path.join(SCHEMAS, 'Validate.java'), path.join(SCHEMAS, schema), ...files.map(([, file]) => file)],
    { encoding: 'utf8' },
  );
  expect(result.status, result.stderr).toBe(0);
  const verdicts: Record<string, string> = {};
  for (const [name, file] of files)
    verdicts[name] =
      result.stdout
        .split('\n')
        .find((line) => line.startsWith(`${file}: `))
        ?.slice(file.length + 2) ?? 'no verdict';
  return verdicts;
}

describe('junit and checkstyle', () => {
  it.skipIf(!javaAvailable)(
    'are valid against their schemas, with findings, accepted ones and none; the validators refuse what breaks them',
    () => {
      const verdicts = validateXml('junit.xsd', {
        some: report('junit'),
        none: report('junit', []),
        broken: report('junit').replace('<testsuite name="corpus/parse"', '<testsuite'),
      });
      expect(verdicts).toMatchObject({ some: 'valid', none: 'valid' });
      expect(verdicts.broken).toMatch(/^invalid: .*name/);
      const checkstyle = validateXml('checkstyle.xsd', {
        some: report('checkstyle'),
        none: report('checkstyle', []),
        broken: report('checkstyle').replace(' line="3"', ''),
        twice: report('checkstyle').replace(
          '<file name="api/v2/o&apos;pen api.yaml">',
          '<file name="spec/v2/core/a.md">',
        ),
      });
      expect(checkstyle).toMatchObject({ some: 'valid', none: 'valid' });
      expect(checkstyle.broken).toMatch(/^invalid: .*line/);
      expect(checkstyle.twice).toMatch(/^invalid: /);
    },
  );

  it('junit: a suite per rule that ran, a failing case per finding, a skipped one per accepted finding, a passing one for a rule without findings', () => {
    const xml = report('junit');
    expect(xml).toContain('<testsuites name="openwop-spec" tests="6" failures="4" errors="0" skipped="1">');
    expect(xml).toContain('<testsuite name="links/anchor" tests="2" failures="2" errors="0" skipped="0">');
    expect(xml).toContain(
      '<testcase classname="links/anchor" name="spec/v2/core/a.md:3:5" file="spec/v2/core/a.md" line="3">',
    );
    expect(xml).toContain(
      '<failure type="error" message="b.md has no heading &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;">',
    );
    expect(xml).toContain('<skipped message="suppressed: kept for v1 clients"/>');
    expect(xml).toContain('<testcase classname="links/file" name="links/file: no findings"/>');
    expect(xml).toContain('bad\\u0007');
    expect(xml).not.toContain('<script>');
  });

  it('checkstyle: a <file> per file with findings that count, an <error> per finding with its rule as source', () => {
    const xml = report('checkstyle');
    expect(xml.match(/<file /g)).toHaveLength(2);
    expect(xml).toContain(
      '<file name="api/v2/o&apos;pen api.yaml">\n    <error line="1" column="2" severity="error" message="bad\\u0007" source="corpus/parse"/>',
    );
    expect(xml).toContain('severity="warning" message="a region no generator owns" source="generated/region"');
    expect(xml).not.toContain('accepted');
  });
});

describe('codeclimate (GitLab Code Quality)', () => {
  const validate = new Ajv2020({ strict: true, strictRequired: false, allErrors: true }).compile(
    JSON.parse(readFileSync(path.join(SCHEMAS, 'codeclimate.schema.json'), 'utf8')),
  );

  it('is valid against the documented shape, with one distinct fingerprint per issue', () => {
    const issues = JSON.parse(report('codeclimate'));
    expect(validate(issues), JSON.stringify(validate.errors)).toBe(true);
    expect(issues).toHaveLength(4);
    expect(issues[0]).toEqual({
      type: 'issue',
      check_name: 'links/anchor',
      description: 'b.md has no heading <script>alert(1)</script> & "x" (hint: did you mean #y?)',
      categories: ['Style'],
      severity: 'major',
      fingerprint: 'f1',
      location: { path: 'spec/v2/core/a.md', lines: { begin: 3, end: 3 } },
    });
    // Two findings with the same fingerprint (the same text twice): GitLab would show one.
    expect(new Set(issues.map((i: { fingerprint: string }) => i.fingerprint)).size).toBe(4);
    expect(issues[2]).toMatchObject({ severity: 'minor', check_name: 'generated/region' });
    expect(validate(JSON.parse(report('codeclimate', [])))).toBe(true);
    // The shape is not a rubber stamp: an issue without a line is refused.
    expect(validate([{ ...issues[0], location: { path: 'a.md' } }])).toBe(false);
  });
});

describe('markdown', () => {
  it('a heading with the counts, why the run fails, what --fix fixes, a table of findings and the accepted ones folded', () => {
    const failure = failureReason(DIAGNOSTICS);
    const md = report('markdown', DIAGNOSTICS, {
      ...(failure ? { failure } : {}),
      fixCommand: 'npm run spec -- check --fix',
    });
    const lines = md.split('\n');
    expect(lines[0]).toBe('### ❌ openwop-spec check');
    expect(md).toContain('**4 problems (3 errors, 1 warning) in 7 files; 1 suppressed**');
    expect(md).toContain('failing: 3 errors');
    expect(md).toContain('1 problem fixable with `npm run spec -- check --fix`');
    expect(md).toContain(
      '| error | `spec/v2/core/a.md:3:5` | b.md has no heading \\<script\\>alert(1)\\</script\\> \\& "x"<br>hint: did you mean \\#y? | [`links/anchor`](https://example.org/rules#links/anchor) |',
    );
    // A pipe in a message stays in its cell.
    expect(md).toContain('| the same text \\| a pipe |');
    expect(md).toContain('<details><summary>1 accepted finding (suppressed or in the findings baseline)</summary>');
    expect(md).toContain('accepted<br>suppressed: kept for v1 clients');
    expect(report('markdown', [])).toBe('### ✅ openwop-spec check\n\n**7 files, no problems**\n');
  });

  it('stays under the size of a pull-request comment, and says how many findings it left out', () => {
    const many: Diagnostic[] = Array.from({ length: 2000 }, (_, i) => ({
      rule: 'links/anchor',
      severity: 'error',
      file: `spec/v2/core/doc-${i}.md`,
      line: i + 1,
      column: 1,
      message: `a finding long enough to fill the comment quickly, number ${i}`,
    }));
    const md = report('markdown', many);
    expect(md.length).toBeLessThan(65_536);
    const shown = md.split('\n').filter((line) => line.startsWith('| error |')).length;
    expect(shown).toBeGreaterThan(100);
    expect(md).toContain(
      `… and ${2000 - shown} more findings, left out to keep this under the size of a comment; \`--format json\` lists every one.`,
    );
  });
});

describe('html', () => {
  const source = (file: string): string | undefined =>
    file === 'spec/v2/core/a.md' ? '# A\n\nSee [b](b.md#x) and\tmore.\nline four\n\nsix\nseven <b>\n\nnine' : undefined;

  it('one page: findings grouped by file with their source lines, the located text marked, corpus text escaped, only its own script allowed', () => {
    const page = report('html', DIAGNOSTICS, { source });
    expect(page.startsWith('<!doctype html>')).toBe(true);
    expect(page).not.toMatch(/<(link|img|iframe)\b|\bsrc=|https?:\/\/(?!example\.org)/);
    expect(page.match(/<section class="file"/g)).toHaveLength(2);
    expect(page).toContain(
      '<span class="message">b.md has no heading &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</span>',
    );
    expect(page).toContain(
      '<span class="at"><span class="ln">3</span>See <mark>[b](b.m</mark>d#x) and    more.</span>',
    );
    expect(page).toContain('<span class="ln">7</span>seven &lt;b&gt;</span>');
    expect(page).toContain('<option value="links/anchor">links/anchor (2)</option>');
    const script = /<script>([\s\S]*?)<\/script>/.exec(page)?.[1] ?? '';
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    expect(script.length).toBeGreaterThan(100);
    const hash = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
    expect(page).toContain(`content="default-src 'none'; style-src ${hash(style)}; script-src ${hash(script)}"`);
    expect(page.match(/<script>/g)).toHaveLength(1);
  });
});

describe('summaries', () => {
  it('stylish says how many problems --fix fixes and, when warnings fail the run, why', () => {
    const warning: Diagnostic[] = [
      { ...DIAGNOSTICS[2]!, fix: { start: 0, end: 0, text: '' } },
      { ...DIAGNOSTICS[2]!, line: 10 },
    ];
    const failure = failureReason(warning, { failSeverity: 'warning' });
    expect(failure).toBe('failing: 2 warnings and --fail-severity warning');
    const out = report('stylish', warning, { failure: failure!, fixCommand: 'openwop-spec check --fix' });
    expect(out.trimEnd().split('\n').slice(-3)).toEqual([
      '⚠ 2 problems (0 errors, 2 warnings) in 7 files',
      '  1 problem fixable with `openwop-spec check --fix`',
      '  failing: 2 warnings and --fail-severity warning',
    ]);
    expect(failureReason(warning, { maxWarnings: 1 })).toBe('failing: 2 warnings, more than --max-warnings 1 allows');
    expect(failureReason(warning, { maxWarnings: 2 })).toBeUndefined();
    expect(failureReason(warning)).toBeUndefined();
  });

  it('github ends with a notice of the counts and why the run fails, escaped as workflow commands require', () => {
    const out = report('github', DIAGNOSTICS, { failure: 'failing: 3 errors', toolName: 'tool, a:b 100%' });
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      '::notice title=tool%2C a%3Ab 100%25::4 problems (3 errors, 1 warning) in 7 files; 1 suppressed; failing: 3 errors',
    );
  });
});

describe('--format F --output FILE', () => {
  const f = (value: string) => ['format', value] as const;
  const o = (value: string) => ['output', value] as const;

  it('pairs each --output with the --format before it; one left over goes to stdout', () => {
    expect(pairReports([])).toEqual([{ format: 'stylish' }]);
    expect(pairReports([o('r.txt')])).toEqual([{ format: 'stylish', output: 'r.txt' }]);
    expect(pairReports([f('sarif'), o('x.sarif'), f('stylish')])).toEqual([
      { format: 'sarif', output: 'x.sarif' },
      { format: 'stylish' },
    ]);
    expect(pairReports([o('r.json'), f('json'), f('junit'), o('j.xml')])).toEqual([
      { format: 'json', output: 'r.json' },
      { format: 'junit', output: 'j.xml' },
    ]);
  });

  it('refuses two reports on stdout, two in one file, an unknown format and an --output of no --format', () => {
    expect(() => pairReports([f('json'), f('sarif')])).toThrow(
      '--format json and --format sarif would both write to stdout: give all but one an --output FILE',
    );
    expect(() => pairReports([f('json'), o('a'), f('sarif'), o('./a')])).toThrow(
      `two reports would be written to ${path.resolve('a')}`,
    );
    expect(() => pairReports([f('pdf')])).toThrow(
      'unknown format "pdf"; use one of stylish, json, sarif, github, junit, checkstyle, codeclimate, markdown, html',
    );
    expect(() => pairReports([f('json'), o('a'), o('b')])).toThrow(
      '--output b follows no --format of its own: write each --output after its --format',
    );
  });
});
