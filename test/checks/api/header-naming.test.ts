import { describe, expect, it } from 'vitest';
import { doc, lineOf, run, where } from '../../helpers.js';
import { corpusOf, edited, readTree } from '../../api/support.js';
import { API_BASE, at, GOOD, RULES, rulesApi } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/header-naming', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

describe('api/header-naming', () => {
  const found = run('api/header-naming', RULES);

  it('fires on each removed-in-v2 name wherever it is declared, referenced or not', () => {
    const removed = found.filter((d) => d.message.includes('removed in v2'));
    expect(where(removed)).toEqual([at('name: X-Dedup', 17), at('X-openwop-Trace:', 13), at('name: Capabilities-Etag', 13)]);
    expect(removed[0]?.hint).toBe('use OpenWOP-Dedup');
  });

  it('fires on a misspelled OpenWOP prefix and on a name that is neither standard nor OpenWOP-<Name>', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'name: openwop-version'), hint: 'write OpenWOP-Version', severity: 'error' }));
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'Trace-Token:'), hint: expect.stringMatching(/OpenWOP-Trace-Token/) }));
  });

  it('warns about a standard header spelled off-standard', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'Etag:'), severity: 'warning', hint: 'write ETag' }));
    expect(found).toHaveLength(6);
  });

  it('reads the headers of AsyncAPI messages too', () => {
    const files = edited(readTree(GOOD), 'api/v2/asyncapi.yaml', '        payload:', '        headers:\n          type: object\n          properties:\n            X-Force-Engine-Version: { type: integer }\n        payload:');
    const corpus = corpusOf(files);
    expect(where(run('api/header-naming', corpus))).toEqual([`api/v2/asyncapi.yaml:${lineOf(files['api/v2/asyncapi.yaml'] as string, 'X-Force-Engine-Version')}:13`]);
  });
});

describe('api/header-naming on a shared header keyed by component name', () => {
  const api = (extra: string) => `openapi: 3.1.0
info: { title: t, version: '2.0' }
paths:
  /runs:
    get:
      operationId: listRuns
      responses:
        '200':
          description: ok
          headers:
            OpenWOP-Version: { $ref: '#/components/headers/OpenWOPVersion' }
components:
  headers:
    OpenWOPVersion: { schema: { type: string }, description: the contract used }
${extra}`;

  it('judges the name where the header is used, not the key of the component it $refs (upstream keys them OpenWOPVersion)', () => {
    expect(run('api/header-naming', { 'api/v2/openapi.yaml': api('') })).toEqual([]);
  });

  it('still judges a component key nothing refers to, which is then the only name the header has', () => {
    const text = api('    TraceToken: { schema: { type: string }, description: a trace }\n');
    expect(where(run('api/header-naming', { 'api/v2/openapi.yaml': text }))).toEqual([`api/v2/openapi.yaml:${lineOf(text, 'TraceToken:')}:5`]);
  });

  it('fires where v2 prose spells a declared header in another case, and not in a sentence that speaks of v1, nor outside v2', () => {
    const prose = (body: string) => ({ 'api/v2/openapi.yaml': api(''), 'spec/v2/core/headers-note.md': doc('Note', body) });
    const found = run('api/header-naming', prose('| Header | Set when |\n| --- | --- |\n| `openwop-version: 2.0` | always |\n\nThe `OpenWOP-Version` header is always sent.'));
    expect(found.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`)).toEqual(['spec/v2/core/headers-note.md:9:4 header openwop-version is spelled OpenWOP-Version where api/v2/openapi.yaml declares it']);
    expect(run('api/header-naming', prose('A v1 host sent `openwop-version` instead.'))).toEqual([]);
    // A near miss of a declared header is a finding with "did you mean"; another header (a word more) is not one.
    expect(run('api/header-naming', prose('The host sends `OpenWOP-Versoin`, and `OpenWOP-Client-Version` too.')).map((d) => d.message)).toEqual([
      'header OpenWOP-Versoin is declared by no operation of api/v2/openapi.yaml; did you mean OpenWOP-Version?',
    ]);
    const schema = '{ "description": "Echoes `openwop-version: 2.0` back." }';
    expect(where(run('api/header-naming', { 'api/v2/openapi.yaml': api(''), 'schemas/v2/echo.schema.json': schema }))).toEqual(['schemas/v2/echo.schema.json:1:27']);
  });
});
