import { describe, expect, it } from 'vitest';
import { lineOf, run, where } from '../../helpers.js';

import { API_BASE, at, OPENAPI, RULES, rulesApi } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/idempotency-coverage', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

describe('api/idempotency-coverage', () => {
  const found = run('api/idempotency-coverage', RULES);

  it('is quiet on a DELETE without Idempotency-Key: HTTP makes it idempotent, so a retry cannot multiply work', () => {
    expect(found.filter((d) => d.message.includes('deleteRun'))).toEqual([]);
  });

  it('fires on a GET that takes the key (here inherited from its path item), at the declaration', () => {
    expect(found).toContainEqual(expect.objectContaining({ line: lineOf(rulesApi, "- $ref: '#/components/parameters/IdempotencyKey'"), column: 9, message: expect.stringMatching(/listRuns .* is a GET .*inherits the key/) }));
  });

  it('fires on a 2xx of a keyed operation that cannot mark a cached replay, where the replay header is a shared component', () => {
    expect(where(found.filter((d) => d.message.includes('OpenWOP-Idempotent-Replay')))).toEqual([at("'201':", 9)]);
    expect(found).toHaveLength(2);
  });

  const api = (operations: string, replay: string) => `openapi: 3.1.0
info: { title: t, version: '2.0' }
paths:
${operations}components:
  parameters:
    IdempotencyKey: { name: Idempotency-Key, in: header, schema: { type: string } }
  headers:
${replay}`;
  const keyed = (method: string, id: string, headers = '') => `  /${id}:
    ${method}:
      operationId: ${id}
      parameters: [{ $ref: '#/components/parameters/IdempotencyKey' }]
      responses: { '200': { description: ok${headers} } }
`;
  const REPLAY = "    Replay: { description: served from the cache, schema: { type: boolean } }\n";
  const withReplay = ", headers: { OpenWOP-Idempotent-Replay: { $ref: '#/components/headers/Replay' } }";

  it('fires on a POST or PATCH without the key that creates or accepts work; not on a PUT or DELETE, nor on a POST that answers 200 (a render may change nothing)', () => {
    const bare = (method: string, id: string, status = '201') => `  /${id}:\n    ${method}:\n      operationId: ${id}\n      responses: { '${status}': { description: ok } }\n`;
    const files = { 'api/v2/openapi.yaml': api(bare('post', 'create') + bare('patch', 'edit', '202') + bare('post', 'render', '200') + bare('put', 'replace') + bare('delete', 'remove'), REPLAY) };
    expect(run('api/idempotency-coverage', files).map((d) => d.message.split(' is a ')[0])).toEqual(['create (POST /create)', 'edit (PATCH /edit)']);
  });

  it('asks the replay header of keyed operations only where the document shares it as a component; declared inline where it chooses, it is not asked', () => {
    const shared = { 'api/v2/openapi.yaml': api(keyed('post', 'create', withReplay) + keyed('post', 'cancel') + keyed('put', 'update'), REPLAY) };
    expect(run('api/idempotency-coverage', shared).map((d) => d.message.split(' does not')[0])).toEqual(['200 response of cancel (POST /cancel), a POST,', '200 response of update (PUT /update), a PUT,']);
    const inline = ", headers: { OpenWOP-Idempotent-Replay: { description: served from the cache, schema: { type: boolean } } }";
    const once = { 'api/v2/openapi.yaml': api(keyed('post', 'create', inline) + keyed('post', 'cancel'), "    Other: { schema: { type: string } }\n") };
    expect(run('api/idempotency-coverage', once)).toEqual([]);
  });
});
