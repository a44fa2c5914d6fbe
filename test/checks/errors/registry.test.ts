import { describe, expect, it } from 'vitest';
import { corpusFromFiles,loadCorpus } from '../../../core/model/corpus.js';
import { applyFixes } from '../../../core/run/fixes.js';
import { driftDiagnostics } from '../../../core/run/generation.js';
import { REPO, run, where } from '../../helpers.js';
import { editedRegistry, errorsCorpus, fixtureFiles, planErrors, SCHEMA_TEXT } from '../../errors/helpers.js';
import { ERRORS_SCHEMA_PATH } from '../../../core/registries/errors.js';
import { fixRule } from '../../rule-tester.js';

const DEFECTS = 'errors/registry-defects';
const at = (line: number, column = 7) => `spec/v2/errors.json:${line}:${column}`;

describe('errors/registry', () => {
  const found = run('errors/registry', errorsCorpus({}, DEFECTS));
  const byLine = (line: number) => found.filter((d) => d.file === 'spec/v2/errors.json' && d.line === line);

  it('fires at each defective row, once per defect, with the rule\'s own words', () => {
    expect(where(found)).toEqual([
      'spec/v2/core/notes.md:7:24',
      at(6),
      at(7),
      at(9),
      at(10, 29),
      at(11, 82),
      at(12, 84),
      at(13, 102),
      at(14, 115),
      at(16, 5),
      at(16, 51),
      at(17, 177),
      at(18, 103),
      at(19, 152),
    ]);
    expect(byLine(6)[0]?.message).toBe('code "Rate-Limited" is not snake_case (lowercase letters and digits, words joined by "_")');
    expect(byLine(6)[0]?.hint).toBe('for example "rate_limited"');
    expect(byLine(7)[0]?.message).toMatch(/"acme\.widget_failed" is shaped like a vendor code; vendor codes are never registered/);
    expect(byLine(9)[0]?.message).toBe('code "dup_code" is registered twice (first on line 8)');
    expect(byLine(10)[0]?.message).toBe('httpStatus 302 of moved_away is not a 4xx or 5xx status');
    // The registry's version is the version of its format, not a release: a later `since` is no defect.
    expect(byLine(15)).toEqual([]);
    expect(byLine(16).map((d) => d.message)).toEqual(['no_provenance has no provenance: "source" is missing', 'no_provenance has no provenance: "statusSource" is empty']);
    expect(byLine(17)[0]?.message).toBe('old_name is deprecated in favour of "new_name", which is not registered');
    expect(byLine(18)[0]?.message).toMatch(/^the details schema of broken_details does not compile: schema is invalid/);
    expect(byLine(19)[0]?.message).toMatch(/property "colour" is not allowed/);
  });

  it('words the schema\'s own findings only where no rule already has', () => {
    expect(byLine(6)).toHaveLength(1);
    expect(byLine(10)).toHaveLength(1);
    expect(byLine(14)[0]?.message).toBe('since "2" of bad_since is not a major.minor version');
    expect(byLine(14)).toHaveLength(1);
  });

  it('warns, to confirm, on retriability that departs from the status class without a reason, and on a needless reason', () => {
    const warnings = found.filter((d) => d.severity === 'warning');
    expect(where(warnings)).toEqual([at(11, 82), at(12, 84), at(13, 102)]);
    expect(warnings[0]?.message).toBe('down_for_good is a 503 and not retriable; a 429 or 5xx is retriable unless the row says why not');
    expect(warnings[0]?.hint).toMatch(/"retriableException"/);
    expect(warnings[1]?.message).toBe('try_again_later is a 400 and retriable; a 4xx other than 429 is not retriable unless the row says why');
    expect(warnings[2]?.message).toBe('needless_note records a retriableException, but a 404 is not retriable by default, as the row says');
    expect(found.some((d) => d.message.includes('confirmed_exception'))).toBe(false);
  });

  it('holds retriability to the status class only where a row can confirm a departure (upstream\'s closed rows cannot)', () => {
    const schema = JSON.parse(SCHEMA_TEXT) as { $defs: { row: { properties: Record<string, unknown>; additionalProperties?: unknown } } };
    expect(schema.$defs.row.additionalProperties).toBe(false);
    delete schema.$defs.row.properties.retriableException;
    const closed = run('errors/registry', errorsCorpus({ 'spec/v2/errors.schema.json': `${JSON.stringify(schema, null, 2)}\n` }, DEFECTS));
    expect(closed.filter((d) => d.severity === 'warning')).toEqual([]);
    // The rows that carry one are told so by the schema instead.
    expect(closed.some((d) => /property "retriableException" is not allowed/.test(d.message))).toBe(true);
  });

  it('fires where a count of the registry is written by hand, with a fix to the count region', () => {
    const count = found.find((d) => d.file === 'spec/v2/core/notes.md');
    expect(count?.message).toBe('"**14** codes" states the size of the error registry by hand (it has 15); counts of a registry are generated');
    // The fixes of the whole rule, as `check --rule errors/registry --fix` works them out: that one count, exactly.
    const notes = fixtureFiles(DEFECTS)['spec/v2/core/notes.md'] ?? '';
    const outcome = fixRule('errors/registry', { base: DEFECTS, files: { [ERRORS_SCHEMA_PATH]: SCHEMA_TEXT } });
    expect(outcome.files.map((file) => [file.path, file.after])).toEqual([
      ['spec/v2/core/notes.md', notes.replace('registers **14** codes.', 'registers <!-- generated: count/errors -->**15**<!-- /generated: count/errors --> codes.')],
    ]);
    expect(applyFixes(notes, count?.fix ? [count.fix] : []).text).toBe(outcome.files[0]?.after);
  });

  it('reads a count in a sentence that names errors.json, and a count in a JSON or YAML string that disagrees with the registry', () => {
    const count = errorsCorpus({}).data('spec/v2/errors.json')?.value as { rows: unknown[] };
    const n = count.rows.length;
    const corpus = errorsCorpus({
      'spec/v2/core/table.md': `# T\n\nGenerated from \`spec/v2/errors.json\` (${n + 3} codes; the rest is prose).\n`,
      'schemas/v2/envelope.schema.json': `{ "description": "GENERATED from spec/v2/errors.json. ${n + 6} registered codes; vendor codes follow." }`,
      'api/v2/x.yaml': `info:\n  description: The registry has ${n} registered codes.\n`,
    });
    const found = run('errors/registry', corpus).filter((d) => d.file !== 'spec/v2/errors.json');
    expect(where(found)).toEqual(['schemas/v2/envelope.schema.json:1:55', 'spec/v2/core/table.md:3:39']);
    expect(found[0]?.message).toBe(`"${n + 6} registered codes" gives the size of the error registry as ${n + 6}; it has ${n}`);
    expect(found[0]?.fix).toBeUndefined();
    // The line its generator writes is the generator's: held to being right, never called hand-written.
    expect(found[1]?.message).toBe(`"${n + 3} codes" gives the size of the error registry as ${n + 3}; it has ${n}`);
    expect(found[1]?.fix).toBeUndefined();
    const right = errorsCorpus({ 'spec/v2/core/table.md': `# T\n\nGenerated from \`spec/v2/errors.json\` (${n} codes; the rest is prose).\n` });
    expect(run('errors/registry', right).filter((d) => d.file === 'spec/v2/core/table.md')).toEqual([]);
  });

  it('holds a corpus that keeps no count regions only to its counts being right', () => {
    const n = (errorsCorpus({}).data('spec/v2/errors.json')!.value as { rows: unknown[] }).rows.length;
    const files = fixtureFiles('errors/corpus');
    const withoutRegions = Object.fromEntries(Object.entries(files).map(([path, text]) => [path, text.replace(/<!-- \/?generated: count\/errors -->/g, '')]));
    const hand = (count: number) => ({ ...withoutRegions, 'spec/v2/core/hand.md': `# H\n\nThe registry \`spec/v2/errors.json\` registers **${count}** codes.\n` });
    expect(run('errors/registry', corpusFromFiles('/x', hand(n))).filter((d) => d.file === 'spec/v2/core/hand.md')).toEqual([]);
    expect(run('errors/registry', corpusFromFiles('/x', hand(n + 1))).filter((d) => d.file === 'spec/v2/core/hand.md').map((d) => d.message)).toEqual([`"**${n + 1}** codes" gives the size of the error registry as ${n + 1}; it has ${n}`]);
  });

  it('leaves ordinary counts, generated counts and code alone', () => {
    const corpus = corpusFromFiles('/x', {
      'spec/v2/core/a.md': '# A\n\nThe 11 codes below are identity codes. `97 registered codes`\n\n```text\nregisters 96 codes\n```\n\nIt registers <!-- generated: count/errors -->**1**<!-- /generated: count/errors --> codes.\n',
    });
    expect(run('errors/registry', corpus)).toEqual([]);
  });

  it('takes no count inside a document generated whole for a hand-written one, under any banner of the family; the same line by hand fires', () => {
    const body = '\nEvery registered code (108 codes), by HTTP status.\n\nCode | Status\n--- | ---\n';
    const banners = [
      '> **Status: Stable.** Generated from `spec/v2/errors.json` by `scripts/generate-error-envelope.mjs`; do not edit.\n',
      '<!-- GENERATED by scripts/generate-error-envelope.mjs from spec/v2/errors.json. DO NOT EDIT. -->\n',
      '*Auto-generated from the error registry; do not edit by hand.*\n',
    ];
    for (const banner of banners) {
      expect(run('errors/registry', errorsCorpus({ 'spec/v2/generated/error-codes.md': `# Error codes\n\n${banner}${body}` }))).toEqual([]);
    }
    expect(where(run('errors/registry', errorsCorpus({ 'spec/v2/generated/error-codes.md': `# Error codes\n\n> **Status: Stable.**\n${body}` })))).toEqual(['spec/v2/generated/error-codes.md:5:24']);
  });

  it('is quiet on a well-formed registry (exceptions confirmed) and on the repository', () => {
    expect(run('errors/registry', errorsCorpus())).toEqual([]);
    expect(run('errors/registry', loadCorpus(REPO))).toEqual([]);
  });

  it('reports a schema violation no rule words, at its place', () => {
    const corpus = errorsCorpus({ 'spec/v2/errors.json': editedRegistry('"retriable": true', '"retriable": "sometimes"') });
    const diagnostics = run('errors/registry', corpus);
    expect(where(diagnostics)).toEqual(['spec/v2/errors.json:58:7']);
    expect(diagnostics[0]?.message).toBe('does not match spec/v2/errors.schema.json: /rows/3/retriable: must be boolean');
    expect(planErrors(corpus).diagnostics.length).toBeGreaterThan(0);
    expect(driftDiagnostics(planErrors(corpus))).toEqual([]);
  });
});
