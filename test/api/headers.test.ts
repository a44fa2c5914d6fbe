import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { driftDiagnostics, planGeneration } from '../../core/run/generation.js';
import headers, { HEADERS_DOC } from '../../generators/headers.js';
import { fixture, lineOf } from '../helpers.js';
import { corpusOf, edited, plan, plannedText, corpusTexts, tableRows } from './support.js';

const GOOD = fixture('api/good');
const DEFECTS = fixture('api/defects/headers');
const OPENAPI = 'api/v2/openapi.yaml';

describe('generator headers', () => {
  it('reproduces the committed tables of the good fixture exactly (no drift, no finding)', () => {
    const result = plan(loadCorpus(GOOD));
    expect(result.diagnostics).toEqual([]);
    expect(driftDiagnostics(result)).toEqual([]);
  });

  it('lists each header once per table, counting distinct operations, sorted case-insensitively', () => {
    const text = plannedText(loadCorpus(GOOD), HEADERS_DOC);
    expect(tableRows(text, 'headers/request').map((row) => [row[0], row[1]])).toEqual([
      ['`Idempotency-Key`', '1'],
      ['`If-None-Match`', '2'],
      ['`Last-Event-ID`', '1'],
      ['`OpenWOP-Client-Version`', '5'],
      ['`OpenWOP-Dedup`', '1'],
      // declared on getRun at both the path item and the operation: still one operation
      ['`OpenWOP-Version`', '5'],
    ]);
    expect(tableRows(text, 'headers/response').map((row) => [row[0], row[1]])).toEqual([
      // once inline and once through the shared 304 response, on two operations
      ['`ETag`', '2'],
      ['`OpenWOP-Idempotent-Replay`', '1'],
      ['`OpenWOP-Version`', '5'],
      ['`Retry-After`', '1'],
      ['`WWW-Authenticate`', '4'],
    ]);
    expect(text.endsWith('Hand-written text after the tables.\n')).toBe(true);
  });

  it('keeps a description written over three lines whole, folded to one line, its link rebased onto headers.md', () => {
    const text = plannedText(loadCorpus(GOOD), HEADERS_DOC);
    const row = tableRows(text, 'headers/request').find((cells) => cells[0] === '`OpenWOP-Version`');
    expect(row?.[2]).toBe(
      'Selects the contract: one of the versions the host lists ([versioning.md §1.2](versioning.md#12-selecting-a-contract)). An unlisted value is refused with 406.',
    );
  });

  it('escapes a | inside a description so the row keeps three cells', () => {
    const text = plannedText(loadCorpus(GOOD), HEADERS_DOC);
    expect(text).toContain('| `OpenWOP-Dedup` | 1 | A claim on the pair (tenantId \\| scopeId); a duplicate is refused. |');
  });

  it('reports a header with no description at the line naming it, instead of an empty Meaning', () => {
    const files = corpusTexts(DEFECTS);
    const result = planGeneration(corpusOf(files), [headers]);
    const openapi = files[OPENAPI] as string;
    const missing = result.diagnostics.find((d) => d.message.includes('OpenWOP-Region'));
    expect(missing).toMatchObject({ rule: 'generate/headers', file: OPENAPI, line: lineOf(openapi, 'name: OpenWOP-Region'), column: 17 });
    expect(missing?.message).toMatch(/has no description/);
    expect(plannedText(corpusOf(files), HEADERS_DOC)).not.toMatch(/OpenWOP-Region/);
  });

  it('writes one neutral row for a header each operation describes in its own words, keeping the neutral Meaning the document gives it; no finding', () => {
    const files = corpusTexts(DEFECTS);
    const result = planGeneration(corpusOf(files), [headers]);
    expect(result.diagnostics.filter((d) => d.message.includes('OpenWOP-Mode'))).toEqual([]);
    const neutral = 'Described per operation: each operation that declares it states what it means there.';
    expect(tableRows(plannedText(corpusOf(files), HEADERS_DOC), 'headers/request')).toContainEqual(['`OpenWOP-Mode`', '2', neutral]);
    // The document's own neutral text for the row stays; it is not drift.
    const doc = files[HEADERS_DOC] as string;
    const own = '| `OpenWOP-Mode` | 2 | Set per operation \\| see each one. |';
    files[HEADERS_DOC] = doc.replace('<!-- /generated: headers/request -->', `| Header | Operations | Meaning |\n| --- | --- | --- |\n${own}\n<!-- /generated: headers/request -->`);
    expect(tableRows(plannedText(corpusOf(files), HEADERS_DOC), 'headers/request')).toContainEqual(['`OpenWOP-Mode`', '2', 'Set per operation \\| see each one.']);
  });

  it('writes a neutral row, not one operation\'s text, for a header one operation describes and another declares bare', () => {
    const files = corpusTexts(DEFECTS);
    files[OPENAPI] = (files[OPENAPI] as string).replace('          description: The mode, as getB understands it.\n', '');
    const result = planGeneration(corpusOf(files), [headers]);
    expect(result.diagnostics.filter((d) => d.message.includes('OpenWOP-Mode'))).toEqual([]);
    expect(tableRows(plannedText(corpusOf(files), HEADERS_DOC), 'headers/request')).toContainEqual(['`OpenWOP-Mode`', '2', 'Described per operation: each operation that declares it states what it means there.']);
  });

  it("lets the shared component's description win over an inline or overriding one", () => {
    const text = plannedText(corpusOf(corpusTexts(DEFECTS)), HEADERS_DOC);
    expect(tableRows(text, 'headers/response')).toContainEqual(['`OpenWOP-Trace`', '2', 'The trace of the request, from the shared component.']);
    expect(tableRows(text, 'headers/request')).toContainEqual(['`OpenWOP-Shared`', '1', 'The shared text.']);
  });

  it('reports two shared components that disagree, at the later one', () => {
    const files = corpusTexts(DEFECTS);
    const result = planGeneration(corpusOf(files), [headers]);
    const cost = result.diagnostics.find((d) => d.message.includes('OpenWOP-Cost'));
    expect(cost).toMatchObject({ file: OPENAPI, line: lineOf(files[OPENAPI] as string, 'CostHeader:'), column: 5 });
    expect(cost?.message).toMatch(/shared components disagree/);
    expect(result.diagnostics).toHaveLength(2);
  });

  it('is deterministic and idempotent: planning its own output again changes nothing', () => {
    const files = corpusTexts(GOOD);
    const first = plan(corpusOf(files));
    for (const file of first.files) files[file.path] = file.after;
    const second = plan(corpusOf(files));
    expect(driftDiagnostics(second)).toEqual([]);
    expect(second.files.map((f) => f.after)).toEqual(first.files.map((f) => f.after));
  });

  it('fills nothing in a corpus without headers.md, and reports tables whose source is gone at their region', () => {
    const files = corpusTexts(GOOD);
    delete files[OPENAPI];
    const noDoc = { ...files };
    delete noDoc[HEADERS_DOC];
    expect(planGeneration(corpusOf(noDoc), [headers])).toEqual({ files: [], diagnostics: [] });
    const orphaned = planGeneration(corpusOf(files), [headers]).diagnostics.filter((d) => d.severity === 'error');
    expect(orphaned).toMatchObject([{ file: HEADERS_DOC, line: lineOf(files[HEADERS_DOC] as string, 'generated: headers/request'), message: expect.stringMatching(/does not exist/) }]);
  });

  it('says so in one finding when the OpenAPI document is not OpenAPI', () => {
    const files = edited(corpusTexts(GOOD), OPENAPI, 'openapi: 3.1.0', 'swagger: "2.0"');
    const result = planGeneration(corpusOf(files), [headers]);
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toMatchObject([{ rule: 'generate/headers', file: OPENAPI, line: 1 }]);
  });
});
