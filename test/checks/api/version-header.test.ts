import { describe, expect, it } from 'vitest';
import { run } from '../../helpers.js';
import { API_BASE, at, RULES } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/version-header', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

describe('api/version-header', () => {
  const found = run('api/version-header', RULES);

  it('fires on an operation missing a version request header, and on responses missing OpenWOP-Version', () => {
    expect(found.map((d) => [`${d.file}:${d.line}:${d.column}`, d.message.match(/OpenWOP-[A-Za-z-]+/)?.[0]])).toEqual([
      [at('delete:', 5), 'OpenWOP-Client-Version'],
      [at("'204':", 9), 'OpenWOP-Version'],
      // a shared response is reported once, where it is defined
      [at('Ok:', 5), 'OpenWOP-Version'],
    ]);
  });
});

describe('api/version-header on a protocol revision without OpenWOP-Client-Version', () => {
  const api = `openapi: 3.1.0
info: { title: t, version: '2.0' }
paths:
  /runs:
    get:
      operationId: listRuns
      parameters:
      - $ref: '#/components/parameters/OpenWOPVersion'
      responses:
        '200':
          description: ok
          headers:
            OpenWOP-Version: { $ref: '#/components/headers/OpenWOPVersion' }
    post:
      operationId: createRun
      responses:
        '201':
          description: created
          headers:
            OpenWOP-Version: { $ref: '#/components/headers/OpenWOPVersion' }
components:
  parameters:
    OpenWOPVersion: { name: OpenWOP-Version, in: header, schema: { type: string } }
  headers:
    OpenWOPVersion: { schema: { type: string }, description: the contract used }
`;
  const generated = '# Headers\n\n> **Status: Stable.** Generated from `api/v2/openapi.yaml`; do not edit.\n\n| `OpenWOP-Client-Version` | 55 | from a later revision |\n';
  const line = (needle: string) => api.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('asks for the header only when an operation declares it or hand-written prose names it (upstream\'s versioning.md does not)', () => {
    const found = run('api/version-header', { 'api/v2/openapi.yaml': api, 'spec/v2/core/headers.md': generated });
    expect(found.map((d) => `${d.line} ${d.message.match(/OpenWOP-[A-Za-z-]+/)?.[0]}`)).toEqual([`${line('post:')} OpenWOP-Version`]);
  });

  it('asks every operation for it once the corpus says every operation accepts it', () => {
    const versioning = '# Versioning\n\n> **Status: Stable.**\n\n## Why this exists\n\nA client MAY send `OpenWOP-Client-Version`. Every operation accepts it.\n';
    const found = run('api/version-header', { 'api/v2/openapi.yaml': api, 'spec/v2/core/versioning.md': versioning });
    expect(found.map((d) => `${d.line} ${d.message.match(/OpenWOP-[A-Za-z-]+/)?.[0]}`)).toEqual([`${line('get:')} OpenWOP-Client-Version`, `${line('post:')} OpenWOP-Client-Version`, `${line('post:')} OpenWOP-Version`]);
  });
});
