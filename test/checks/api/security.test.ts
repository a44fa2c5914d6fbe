import { describe, expect, it } from 'vitest';
import { run } from '../../helpers.js';
import { runWithOptions } from '../options.js';

const OPENAPI = (operations: string, root = "security:\n  - { bearer: [] }\n  - { mutualTLS: [] }\n") => `openapi: 3.1.0
info: { title: t, version: '2.0' }
${root}paths:
${operations}components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
    mutualTLS: { type: mutualTLS }
`;

const VOCABULARY = `${JSON.stringify({ rows: [{ scope: 'runs:read', meaning: 'read runs' }, { scope: 'runs:create', meaning: 'start runs' }] }, null, 2)}\n`;

const GOOD_OPS = `  /runs:
    get:
      operationId: listRuns
      responses: { '200': { description: ok } }
    post:
      operationId: createRun
      security:
        - { bearer: [runs:create] }
        - { mutualTLS: [runs:create] }
      responses: { '201': { description: ok } }
  /.well-known/openwop:
    get:
      operationId: discover
      security: []
      responses: { '200': { description: ok } }
`;

const line = (text: string, needle: string): number => text.split('\n').findIndex((l) => l.includes(needle)) + 1;

describe('api/security', () => {
  it('is quiet when every operation is public or accepts every scheme with the same registered scopes', () => {
    expect(run('api/security', { 'api/v2/openapi.yaml': OPENAPI(GOOD_OPS), 'spec/v2/scopes.json': VOCABULARY })).toEqual([]);
  });

  it('fires at an undefined scheme, a scheme left out, scopes that differ and a scope not in the vocabulary', () => {
    const ops = `  /runs:
    post:
      operationId: createRun
      security:
        - { bearer: [runs:create] }
      responses: { '201': { description: ok } }
    get:
      operationId: listRuns
      security:
        - { bearer: [runs:read] }
        - { mutualTLS: [runs:list] }
      responses: { '200': { description: ok } }
  /keys:
    get:
      operationId: listKeys
      security:
        - { apiKey: [] }
      responses: { '200': { description: ok } }
`;
    const text = OPENAPI(ops);
    const found = run('api/security', { 'api/v2/openapi.yaml': text, 'spec/v2/scopes.json': VOCABULARY });
    expect(found.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      `${line(text, 'operationId: createRun') + 1}:7 createRun (POST /runs) requires \`bearer\` but not \`mutualTLS\`; an operation is public or accepts every scheme`,
      `${line(text, 'operationId: listRuns') + 1}:7 listRuns (GET /runs) asks different scopes of different schemes (bearer: [runs:read]; mutualTLS: [runs:list])`,
      `${line(text, 'mutualTLS: [runs:list]')}:25 scope \`runs:list\` is not in the scope vocabulary spec/v2/scopes.json`,
      `${line(text, 'apiKey: []')}:13 security requirement names \`apiKey\`, which components.securitySchemes does not define`,
    ]);
  });

  it('says nothing of scopes when the corpus registers no vocabulary, and checks them against one it does', () => {
    const text = OPENAPI(GOOD_OPS);
    expect(run('api/security', { 'api/v2/openapi.yaml': text })).toEqual([]);
    expect(runWithOptions('api/security', { 'api/v2/openapi.yaml': text, 'reg/scopes.json': VOCABULARY }, { vocabulary: 'reg/scopes.json' })).toEqual([]);
  });

  it('checks the document-level requirement an operation inherits, and AsyncAPI scheme references', () => {
    const text = OPENAPI(GOOD_OPS, 'security:\n  - { bearer: [] }\n');
    const asyncapi = `asyncapi: 3.0.0
info: { title: t, version: '2.0' }
servers:
  main: { host: h, protocol: https, security: [{ $ref: '#/components/securitySchemes/ApiKey' }] }
components:
  securitySchemes:
    bearer: { type: http, scheme: bearer }
`;
    const found = run('api/security', { 'api/v2/openapi.yaml': text, 'api/v2/asyncapi.yaml': asyncapi, 'spec/v2/scopes.json': VOCABULARY });
    expect(found.map((d) => `${d.file}:${d.line} ${d.message}`)).toEqual([
      'api/v2/asyncapi.yaml:4 security names #/components/securitySchemes/ApiKey, which components.securitySchemes does not define',
      `api/v2/openapi.yaml:${line(text, '/runs:') + 1} listRuns (GET /runs) requires \`bearer\` but not \`mutualTLS\` (through the document-level security); an operation is public or accepts every scheme`,
    ]);
  });
});
