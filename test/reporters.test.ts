import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../core/output/diagnostics.js';
import { summarize } from '../core/output/diagnostics.js';
import { REPORTERS, type ReportContext } from '../core/output/reporters/index.js';

const require = createRequire(import.meta.url);

/**
 * The OASIS SARIF 2.1.0 schema is draft-04 (hence ajv-draft-04), and one of its patterns is not
 * valid in unicode mode, so ajv compiles it with legacy regular expressions.
 */
function sarifValidator() {
  const Draft04 = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Draft04({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
}

const DIAGNOSTICS: Diagnostic[] = [
  { rule: 'links/anchor', severity: 'error', file: 'spec/v2/core/a.md', line: 3, column: 5, endLine: 3, endColumn: 30, message: 'spec/v2/core/b.md has no heading with anchor #x', hint: 'did you mean #y?' },
  { rule: 'generated/region', severity: 'warning', file: 'spec/v2/core/a.md', line: 9, column: 1, message: 'a message with 100%, a comma, a colon: and\na newline' },
  { rule: 'corpus/parse', severity: 'error', file: 'api/v2/open api.yaml', line: 1, column: 2, message: 'bad' },
];

const context = (diagnostics: Diagnostic[]): ReportContext => ({
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
    const out = JSON.parse(REPORTERS.json!(DIAGNOSTICS, context(DIAGNOSTICS)));
    expect(Object.keys(out)).toEqual(['diagnostics', 'summary']);
    expect(out.summary).toEqual({ errors: 2, warnings: 1, files: 7 });
    expect(out.diagnostics[0]).toEqual({ rule: 'links/anchor', severity: 'error', file: 'spec/v2/core/a.md', line: 3, column: 5, endLine: 3, endColumn: 30, message: 'spec/v2/core/b.md has no heading with anchor #x', hint: 'did you mean #y?' });
    expect(out.diagnostics[1]).not.toHaveProperty('endLine');
  });

  it('sarif: a valid SARIF 2.1.0 log with every rule that ran and a located result per finding', () => {
    const validate = sarifValidator();
    const log = JSON.parse(REPORTERS.sarif!(DIAGNOSTICS, context(DIAGNOSTICS)));
    expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
    const run = log.runs[0];
    expect(run.tool.driver.rules.map((r: { id: string }) => r.id)).toEqual(['corpus/parse', 'generated/region', 'links/anchor', 'links/file']);
    expect(run.results).toHaveLength(3);
    expect(run.results[0].locations[0].physicalLocation).toEqual({ artifactLocation: { uri: 'spec/v2/core/a.md', uriBaseId: '%SRCROOT%' }, region: { startLine: 3, startColumn: 5, endLine: 3, endColumn: 30 } });
    expect(run.results[2].locations[0].physicalLocation.artifactLocation.uri).toBe('api/v2/open%20api.yaml');
    expect(run.tool.driver.rules[run.results[0].ruleIndex].id).toBe('links/anchor');
  });

  it('sarif: an empty run is still a valid log', () => {
    const validate = sarifValidator();
    expect(validate(JSON.parse(REPORTERS.sarif!([], context([]))))).toBe(true);
    // The validator is not a rubber stamp: a run without its tool is refused.
    expect(validate({ version: '2.1.0', runs: [{ results: [] }] })).toBe(false);
  });

  it('github: one workflow command per finding, with properties and data escaped', () => {
    const lines = REPORTERS.github!(DIAGNOSTICS, context(DIAGNOSTICS)).trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe('::error file=spec/v2/core/a.md,line=3,col=5,endLine=3,endColumn=30,title=links/anchor::spec/v2/core/b.md has no heading with anchor #x (did you mean #y?)');
    expect(lines[1]).toBe('::warning file=spec/v2/core/a.md,line=9,col=1,title=generated/region::a message with 100%25, a comma, a colon: and%0Aa newline');
    expect(REPORTERS.github!([], context([]))).toBe('');
  });

  it('stylish: grouped by file, file:line:col on every finding, a summary line', () => {
    const out = REPORTERS.stylish!(DIAGNOSTICS, context(DIAGNOSTICS));
    expect(out).toContain('spec/v2/core/a.md\n  spec/v2/core/a.md:3:5  error    spec/v2/core/b.md has no heading with anchor #x  links/anchor\n      hint: did you mean #y?');
    expect(out.trimEnd().split('\n').at(-1)).toBe('✖ 3 problems (2 errors, 1 warning) in 7 files');
    expect(out).not.toContain('\u001b[');
    expect(REPORTERS.stylish!([], context([]))).toBe('✔ 7 files, no problems\n');
  });
});
