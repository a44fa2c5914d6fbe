import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fixture, run, where } from '../helpers.js';
import { corpusOf, edited, lineOf, readTree } from './support.js';

const GOOD = fixture('api/good');
const RULES = fixture('api/defects/rules');
const INVALID = fixture('api/defects/invalid');
const OPENAPI = 'api/v2/openapi.yaml';
const text = (root: string, file: string) => readFileSync(path.join(root, file), 'utf8');
const rulesApi = text(RULES, OPENAPI);
const at = (needle: string, column: number, after = 0, file = OPENAPI) => `${file}:${lineOf(file === OPENAPI ? rulesApi : text(RULES, file), needle, after)}:${column}`;

const API_RULES = ['api/valid', 'api/header-naming', 'api/idempotency-coverage', 'api/version-header', 'api/seams-excluded', 'api/channel-parity', 'api/error-responses'];

describe('api gates on a correct corpus', () => {
  it.each(API_RULES)('%s is quiet', (rule) => {
    expect(run(rule, GOOD)).toEqual([]);
  });
});

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

describe('api/idempotency-coverage', () => {
  const found = run('api/idempotency-coverage', RULES);

  it('fires on a mutating operation without Idempotency-Key, at the operation', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: OPENAPI, line: lineOf(rulesApi, 'delete:'), column: 5, message: expect.stringMatching(/deleteRun .* does not declare the Idempotency-Key/) }));
  });

  it('fires on a GET that takes the key (here inherited from its path item), at the declaration', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, "- $ref: '#/components/parameters/IdempotencyKey'"), column: 9, message: expect.stringMatching(/listRuns .* is a GET .*inherits the key/) }));
  });

  it('fires on a 2xx of a mutating operation that cannot mark a cached replay', () => {
    expect(where(found.filter((d) => d.message.includes('OpenWOP-Idempotent-Replay')))).toEqual([at("'201':", 9), at("'204':", 9)]);
    expect(found).toHaveLength(4);
  });
});

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

describe('api/seams-excluded', () => {
  const found = run('api/seams-excluded', RULES);

  it('fires on a seam path and a sample-host operation in the canonical document', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: OPENAPI, line: lineOf(rulesApi, '/conformance/seams/reset:'), column: 3 }));
    expect(found).toContainEqual(expect.objectContaining({ file: OPENAPI, line: lineOf(rulesApi, 'get:', lineOf(rulesApi, '/samples:')), message: expect.stringMatching(/sample-host/) }));
  });

  it('fires on seam entries of the path manifest, by path and by seam operationId', () => {
    expect(where(found.filter((d) => d.file === 'spec/v2/path-manifest.json'))).toEqual(['spec/v2/path-manifest.json:5:33', 'spec/v2/path-manifest.json:6:64']);
  });

  it('fires on a seams-document operation outside /conformance/seams/', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: 'api/seams-v2.yaml', line: 12, column: 3, message: expect.stringMatching(/outside the seams path space/) }));
    expect(found).toHaveLength(5);
  });
});

describe('api/channel-parity', () => {
  const found = run('api/channel-parity', RULES);

  it('fires when the runEvents address and the streamRunEvents path differ, at the address', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: 'api/v2/asyncapi.yaml', line: 7, column: 14, message: expect.stringMatching(/\/runs\/\{runId\}\/stream, but streamRunEvents resolves to \/runs\/\{runId\}\/events/) }));
  });

  it('fires when a hostEvents channel has no streamHostEvents operation', () => {
    expect(found).toContainEqual(expect.objectContaining({ file: OPENAPI, line: lineOf(rulesApi, 'paths:'), message: expect.stringMatching(/no operation streamHostEvents/) }));
    expect(found).toHaveLength(2);
  });

  it('compares absolute paths: a server path prefix on one side only breaks parity', () => {
    const files = edited(readTree(GOOD), 'api/v2/asyncapi.yaml', '    protocol: https', '    protocol: https\n    pathname: /v2');
    const result = run('api/channel-parity', corpusOf(files));
    expect(result.map((d) => d.message)).toEqual([expect.stringMatching(/runEvents resolves to \/v2\/runs\/\{runId\}\/events/), expect.stringMatching(/hostEvents resolves to \/v2\/host\/events/)]);
  });
});

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
