import { describe, expect, it } from 'vitest';
import { lineOf, run, where } from '../../helpers.js';
import { corpusOf, edited, readTree } from '../../api/support.js';
import { API_BASE, GOOD, INVALID, OPENAPI, text } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/valid', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

describe('api/valid', () => {
  const api = text(INVALID, OPENAPI);
  const found = run('api/valid', INVALID);
  const line = (needle: string, after = 0) => lineOf(api, needle, after);

  it('maps an official-schema violation to the offending key, in OpenAPI and in AsyncAPI', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: OPENAPI, line: line('resposnes'), column: 7, message: expect.stringMatching(/OpenAPI 3\.1 schema.*"resposnes" is not allowed/) }));
    expect(found).toContainEqual(expect.objectContaining({ file: 'api/v2/asyncapi.yaml', line: 8, column: 5, message: expect.stringMatching(/AsyncAPI 3\.0\.0 schema.*"colour" is not allowed/) }));
  });

  it('reports every $ref that does not resolve, local or cross-file, at the $ref', () => {
    const refs = found.filter((d) => d.message.startsWith('$ref does not resolve'));
    expect(where(refs)).toEqual([
      `${OPENAPI}:${line('#/components/schemas/Missing')}:31`,
      `${OPENAPI}:${line('absent.schema.json')}:27`,
      `${OPENAPI}:${line('present.schema.json')}:31`,
    ]);
    expect(refs[1]?.message).toMatch(/schemas\/v2\/absent\.schema\.json .* does not exist/);
    expect(refs[2]?.message).toMatch(/has nothing at #\/\$defs\/nothing/);
  });

  it('reports a cycle of references without hanging', () => {
    const cycles = found.filter((d) => d.message.startsWith('$ref is circular'));
    expect(where(cycles)).toEqual([
      `${OPENAPI}:${line("$ref: '#/components/responses/Loop'")}:17`,
      `${OPENAPI}:${line("$ref: '#/components/responses/Pool'")}:13`,
      `${OPENAPI}:${line("$ref: '#/components/responses/Loop'", line('Loop:'))}:13`,
    ]);
  });

  it('reports a duplicate operationId and path parameters that do not match the path', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: line('operationId: getRun', line('post:')), message: 'operationId getRun is also the operationId of GET /runs/{runId}' }));
    expect(found.filter((d) => /does not declare the path parameter \{runId\}/.test(d.message)).map((d) => d.line)).toEqual([line('get:'), line('post:')]);
    expect(found).toContainEqual(expect.objectContaining({ line: line('name: thingId'), message: expect.stringMatching(/thingId does not appear in the path \/things/) }));
    expect(found).toHaveLength(12);
  });

  it('locates a violation under a numeric-looking key (a response status)', () => {
    const files = edited(readTree(GOOD), OPENAPI, "        '406':\n          $ref: '#/components/responses/VersionUnsupported'", "        '406': 7");
    const found = run('api/valid', corpusOf(files));
    expect(found).toMatchObject([{ line: lineOf(files[OPENAPI] as string, "'406': 7"), column: 9, message: expect.stringMatching(/responses\/406: must be object/) }]);
  });

  it('refuses a version with no published schema, at the version', () => {
    const files = edited(readTree(GOOD), OPENAPI, 'openapi: 3.1.0', 'openapi: 3.0.3');
    expect(run('api/valid', corpusOf(files))).toMatchObject([{ file: OPENAPI, line: 2, column: 10, message: expect.stringMatching(/no published schema/) }]);
  });
});
