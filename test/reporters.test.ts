import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../core/output/diagnostics.js';
import { summarize } from '../core/output/diagnostics.js';
import { FORMATS, REPORTERS, type ReportContext } from '../core/output/reporters/index.js';
import { sarifValidator } from './helpers.js';

const DIAGNOSTICS: Diagnostic[] = [
  {
    rule: 'links/anchor',
    severity: 'error',
    file: 'spec/v2/core/a.md',
    line: 3,
    column: 5,
    endLine: 3,
    endColumn: 30,
    message: 'spec/v2/core/b.md has no heading with anchor #x',
    hint: 'did you mean #y?',
  },
  {
    rule: 'generated/region',
    severity: 'warning',
    file: 'spec/v2/core/a.md',
    line: 9,
    column: 1,
    message: 'a message with 100%, a comma, a colon: and\na newline',
  },
  { rule: 'corpus/parse', severity: 'error', file: 'api/v2/open api.yaml', line: 1, column: 2, message: 'bad' },
];

const contextOf = (diagnostics: Diagnostic[]): ReportContext => ({
  summary: summarize(diagnostics, 7),
  rules: [
    { id: 'links/anchor', summary: 'anchors resolve', severity: 'error' },
    { id: 'generated/region', summary: 'regions', severity: 'error' },
    { id: 'corpus/parse', summary: 'parses', severity: 'error' },
    { id: 'links/file', summary: 'files exist', severity: 'error' },
  ],
  toolName: 'openwop-spec',
  toolVersion: '2.42.8',
  color: false,
});

describe('reporters', () => {
  it('json: the documented contract, no more', () => {
    const out = JSON.parse(REPORTERS.json!(DIAGNOSTICS, contextOf(DIAGNOSTICS)));
    expect(Object.keys(out)).toEqual(['diagnostics', 'summary']);
    expect(out.summary).toEqual({ errors: 2, warnings: 1, files: 7, suppressed: 0 });
    expect(out.diagnostics[0]).toEqual({
      rule: 'links/anchor',
      severity: 'error',
      file: 'spec/v2/core/a.md',
      line: 3,
      column: 5,
      endLine: 3,
      endColumn: 30,
      message: 'spec/v2/core/b.md has no heading with anchor #x',
      hint: 'did you mean #y?',
    });
    expect(out.diagnostics[1]).not.toHaveProperty('endLine');
  });

  it('sarif: a valid SARIF 2.1.0 log with every rule that ran and a located result per finding', () => {
    const validate = sarifValidator();
    const log = JSON.parse(REPORTERS.sarif!(DIAGNOSTICS, contextOf(DIAGNOSTICS)));
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual([
      'corpus/parse',
      'generated/region',
      'links/anchor',
      'links/file',
    ]);
    expect(run.results).toHaveLength(3);
    expect(run.results[0].locations[0].physicalLocation).toEqual({
      artifactLocation: { uri: 'spec/v2/core/a.md', uriBaseId: '%SRCROOT%' },
      region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 30 },
    });
    expect(run.results[2].locations[0].physicalLocation.artifactLocation.uri).toBe('api/v2/open%20api.yaml');
    expect(run.tool.driver.rules[run.results[0].ruleIndex].id).toBe('links/anchor');
  });

  it('sarif: an empty run is still a valid log', () => {
    const validate = sarifValidator();
    expect(validate(JSON.parse(REPORTERS.sarif!([], contextOf([]))))).toBe(true);
    // The validator is not a rubber stamp: a run without its tool is refused.
    expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
  });

  it('github: one workflow command per finding, with properties and data escaped', () => {
    const lines = REPORTERS.github!(DIAGNOSTICS, contextOf(DIAGNOSTICS)).trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe('::notice title=openwop-spec::3 problems (2 errors, 1 warning) in 7 files');
    expect(lines[0]).toBe(
      '::error file=spec/v2/core/a.md,line=3,col=5,endLine=3,endColumn=30,title=links/anchor::spec/v2/core/b.md has no heading with anchor #x (did you mean #y?)',
    );
    expect(lines[1]).toBe(
      '::warning file=spec/v2/core/a.md,line=9,col=1,title=generated/region::a message with 100%25, a comma, a colon: and%0Aa newline',
    );
    expect(REPORTERS.github!([], contextOf([]))).toBe('::notice title=openwop-spec::7 files, no problems\n');
  });

  it('stylish: grouped by file, file:line:col on every finding, a summary line', () => {
    const out = REPORTERS.stylish!(DIAGNOSTICS, contextOf(DIAGNOSTICS));
    expect(out).toContain(
      'spec/v2/core/a.md\n  spec/v2/core/a.md:3:5  error    spec/v2/core/b.md has no heading with anchor #x  links/anchor\n      hint: did you mean #y?',
    );
    expect(out.trimEnd().split('\n').at(-1)).toBe('✖ 3 problems (2 errors, 1 warning) in 7 files');
    expect(out).not.toContain('\u001b[');
    expect(REPORTERS.stylish!([], contextOf([]))).toBe('✔ 7 files, no problems\n');
  });

  it('sarif: helpUri, fingerprints, related locations, suppressions and baselineState, valid against the SARIF 2.1.0 schema', () => {
    const validate = sarifValidator();
    const judged: Diagnostic[] = [
      {
        ...DIAGNOSTICS[0]!,
        fingerprint: 'f1',
        baselineState: 'new',
        related: [{ file: 'spec/v2/core/gen.md', line: 40, column: 3, message: 'in the generated text' }],
      },
      { ...DIAGNOSTICS[1]!, fingerprint: 'f2', baselineState: 'unchanged' },
      {
        ...DIAGNOSTICS[2]!,
        fingerprint: 'f3',
        suppression: { kind: 'external', justification: 'vendored file, fixed upstream' },
      },
      {
        rule: 'links/file',
        severity: 'error',
        file: 'docs/x.md',
        line: 1,
        column: 1,
        message: 'gone',
        fingerprint: 'f4',
        baselineState: 'absent',
      },
    ];
    const rules = contextOf(judged).rules.map((r) => ({
      ...r,
      helpUri: `https://example.org/rules#${r.id}`,
      fixable: r.id === 'links/anchor',
      description: `${r.summary}, at length`,
    }));
    const log = JSON.parse(REPORTERS.sarif!(judged, { ...contextOf(judged), rules }));
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules.find((r: { id: string }) => r.id === 'links/anchor')).toMatchObject({
      helpUri: 'https://example.org/rules#links/anchor',
      fullDescription: { text: 'anchors resolve, at length' },
      properties: { fixable: true },
    });
    expect(run.results.map((r: { baselineState: string }) => r.baselineState)).toEqual([
      'new',
      'unchanged',
      'new',
      'absent',
    ]);
    expect(run.results[0].partialFingerprints).toEqual({ 'openwopSpecFinding/v1': 'f1' });
    expect(run.results[0].relatedLocations[0]).toMatchObject({
      id: 0,
      message: { text: 'in the generated text' },
      physicalLocation: { artifactLocation: { uri: 'spec/v2/core/gen.md' }, region: { startLine: 40, startColumn: 3 } },
    });
    expect(run.results[2].suppressions).toEqual([
      { kind: 'external', status: 'accepted', justification: 'vendored file, fixed upstream' },
    ]);
    expect(run.results[1]).not.toHaveProperty('suppressions');
  });

  it('counts suppressed and baseline-accepted findings apart from the ones that fail, in every summary', () => {
    const judged: Diagnostic[] = [
      { ...DIAGNOSTICS[0]!, suppression: { kind: 'inSource', justification: 'r' } },
      { ...DIAGNOSTICS[1]!, baselineState: 'unchanged' },
      { ...DIAGNOSTICS[2]!, baselineState: 'new' },
      {
        rule: 'links/file',
        severity: 'error',
        file: 'docs/x.md',
        line: 1,
        column: 1,
        message: 'gone',
        baselineState: 'absent',
      },
    ];
    expect(summarize(judged, 7)).toEqual({
      errors: 1,
      warnings: 0,
      files: 7,
      suppressed: 1,
      baseline: { unchanged: 1, fixed: 1 },
    });
    const stylish = REPORTERS.stylish!(judged, {
      ...contextOf(judged),
      baselineUpdate: 'openwop-spec check --baseline-findings b.json --update',
    });
    expect(stylish).toContain('api/v2/open api.yaml:1:2  error    bad  corpus/parse');
    expect(stylish).not.toContain('has no heading');
    expect(stylish).toContain(
      'fixed since the findings baseline (1):\n  docs/x.md  gone  links/file\n      hint: run `openwop-spec check --baseline-findings b.json --update` to drop them from the baseline',
    );
    expect(stylish.trimEnd().split('\n').at(-1)).toBe(
      '✖ 1 problem (1 error, 0 warnings) in 7 files; 1 suppressed, 1 accepted by the findings baseline',
    );
    const json = JSON.parse(REPORTERS.json!(judged, contextOf(judged)));
    expect(json.diagnostics.map((d: { rule: string }) => d.rule)).toEqual(['corpus/parse']);
    expect(json.suppressed[0]).toMatchObject({
      rule: 'links/anchor',
      suppression: { kind: 'inSource', justification: 'r' },
    });
    expect(json.baseline).toMatchObject({
      unchanged: [{ rule: 'generated/region' }],
      fixed: [{ rule: 'links/file', file: 'docs/x.md' }],
    });
    expect(REPORTERS.github!(judged, contextOf(judged)).trimEnd().split('\n')).toHaveLength(2);
  });

  it('escapes control characters and terminal escape sequences in every format, and keeps a finding on one line', () => {
    const hostile: Diagnostic[] = [
      {
        rule: 'links/file',
        severity: 'error',
        file: 'docs/\u001b[31mred\u001b[0m\nfake.md',
        line: 2,
        column: 1,
        message: 'target \u009b2J\u0007 "x\ny" \u202eevil',
        hint: 'h\u001b]0;title\u0007',
      },
    ];
    const raw = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e]/;
    for (const format of FORMATS) {
      const out = REPORTERS[format]!(hostile, contextOf(hostile));
      expect(raw.test(out), format).toBe(false);
      if (format === 'stylish' || format === 'github') {
        // A newline in the name would start a line with the rest of it, forged as a finding of its own.
        expect(
          out.split('\n').filter((line) => line.startsWith('fake.md')),
          format,
        ).toEqual([]);
        expect(
          out.split('\n').filter((line) => line.includes('fake.md') && line.includes('target')),
          format,
        ).toHaveLength(1);
      }
    }
    expect(REPORTERS.stylish!(hostile, contextOf(hostile))).toContain('docs/\\u001b[31mred\\u001b[0m\\nfake.md:2:1');
    // JSON keeps the value exactly: the escapes decode to the same string.
    const json = JSON.parse(REPORTERS.json!(hostile, contextOf(hostile)));
    expect(json.diagnostics[0].file).toBe(hostile[0]!.file);
    expect(json.diagnostics[0].message).toBe(hostile[0]!.message);
    const log = JSON.parse(REPORTERS.sarif!(hostile, contextOf(hostile)));
    expect(log.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe(
      'docs/%1B%5B31mred%1B%5B0m%0Afake.md',
    );
  });
});
