import { describe, expect, it } from 'vitest';
import { lineOf, run } from '../../helpers.js';
import { corpusOf, edited, readTree } from '../../api/support.js';
import { corpusFromFiles } from '../../../core/model/corpus.js';
import { defaultConfig } from '../../../core/config/index.js';
import { API_BASE, GOOD, OPENAPI, RULES, rulesApi } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/error-responses', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

describe('api/error-responses', () => {
  const found = run('api/error-responses', RULES);
  const codesLine = lineOf(rulesApi, 'x-openwop-error-codes: [run_already_active');

  it('fires on an error body that is not the envelope, at its schema', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'schema:', codesLine), column: 15, message: expect.stringMatching(/409 response of createRun .* not the error envelope: it is an inline schema/) }));
  });

  it('fires on an unregistered code and on a code documented under another status, at the code', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: codesLine, column: 55, message: 'error code not_found is registered with status 404 but documented under 409' }));
    expect(found).toContainEqual(expect.objectContaining({ line: codesLine, column: 66, message: expect.stringMatching(/no_such_code .* not registered/) }));
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'example: { error: run_terminal'), message: 'error code run_terminal is registered with status 409 but documented under 404' }));
  });

  it('fires on an x-openwop-error-codes that is not a list of codes', () => {
    const files = edited(readTree(GOOD), OPENAPI, 'x-openwop-error-codes: [run_already_active]', 'x-openwop-error-codes: run_already_active');
    expect(run('api/error-responses', corpusOf(files))).toMatchObject([{ line: lineOf(files[OPENAPI] as string, 'x-openwop-error-codes: run_already_active'), message: expect.stringMatching(/not a list of error codes/) }]);
  });

  it('accepts a well-formed vendor code', () => {
    expect(found.some((d) => d.message.includes('acme.custom_failure'))).toBe(false);
  });

  it('fires on a 404 that challenges, a 401 that does not, and a protected operation with no 401', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'WWW-Authenticate:', lineOf(rulesApi, "'404':")), column: 13, message: expect.stringMatching(/404 .* declares WWW-Authenticate/) }));
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, "'401':", lineOf(rulesApi, '/runs/{runId}/events:')), message: expect.stringMatching(/401 response of streamRunEvents .* no WWW-Authenticate/) }));
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, 'delete:'), message: expect.stringMatching(/deleteRun .* documents no 401/) }));
    expect(found).toHaveLength(7);
  });
});

describe('api/error-responses: the envelope named by its $id', () => {
  const REF = "$ref: '../../schemas/v2/error-envelope.schema.json'";
  const ENVELOPE = 'schemas/v2/error-envelope.schema.json';
  /** The good fixture with its envelope referenced by `id`; without the envelope file, naming it must suffice. */
  const byId = (id: string, withEnvelope = true) => {
    const files = edited(readTree(GOOD), OPENAPI, REF, `$ref: '${id}'`);
    if (!withEnvelope) delete files[ENVELOPE];
    return files;
  };
  const base = defaultConfig();
  const elsewhere = { ...base, layout: { ...base.layout, schemaIds: [['schemas/v2/', 'https://specs.example/v2/'], ['', 'https://specs.example/']] as Array<readonly [string, string]> } };

  it('takes the $id the default layout gives it, with or without the file', () => {
    expect(run('api/error-responses', corpusOf(byId('https://openwop.dev/schemas/v2/error-envelope.schema.json')))).toEqual([]);
    expect(run('api/error-responses', corpusOf(byId('https://openwop.dev/schemas/v2/error-envelope.schema.json', false)))).toEqual([]);
  });

  it('takes the $id under the base the layout gives its folder, which names nothing under the default layout', () => {
    const id = 'https://specs.example/v2/error-envelope.schema.json';
    expect(run('api/error-responses', corpusFromFiles('/fixture', byId(id), elsewhere))).toEqual([]);
    expect(run('api/error-responses', corpusFromFiles('/fixture', byId(id, false), elsewhere))).toEqual([]);
    const files = byId(id, false);
    const found = run('api/error-responses', corpusOf(files));
    expect(found).toMatchObject([{ line: lineOf(files[OPENAPI] as string, `$ref: '${id}'`), message: expect.stringMatching(/not the error envelope: its \$ref does not resolve/) }]);
  });
});

describe('api/error-responses on a shared 401 without its challenge', () => {
  const api = `openapi: 3.1.0
info: { title: t, version: '2.0' }
security:
  - bearer: []
paths:
  /runs:
    get:
      operationId: listRuns
      responses:
        '200': { description: ok }
        '401': { $ref: '#/components/responses/Unauthenticated' }
    post:
      operationId: createRun
      responses:
        '201': { description: created }
        '401': { $ref: '#/components/responses/Unauthenticated' }
  /tools:
    get:
      operationId: listTools
      responses:
        '200': { description: ok }
        '401':
          description: no credential
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
  responses:
    Unauthenticated:
      description: Missing or invalid credential.
`;
  const line = (needle: string) => api.split('\n').findIndex((l) => l.includes(needle)) + 1;

  it('reports the shared response once, where it is defined, and an inline one where it is written', () => {
    const found = run('api/error-responses', { 'api/v2/openapi.yaml': api }).filter((d) => d.message.includes('WWW-Authenticate'));
    expect(found.map((d) => `${d.line} ${d.message}`)).toEqual([
      `${line('          description: no credential') - 1} the 401 response of listTools (GET /tools) declares no WWW-Authenticate challenge`,
      `${line('    Unauthenticated:')} the 401 response of listRuns (GET /runs) and 1 other operation declares no WWW-Authenticate challenge`,
    ]);
  });
});
