import { describe, expect, it } from 'vitest';
import { follow, resolveRef } from '../../core/api/refs.js';
import { rebaseLinks } from '../../core/markdown/links.js';
import { headerUsage, openApiModel, requestHeaders } from '../../core/api/openapi.js';
import { corpusOf } from './support.js';

const openapiDoc = (body: string) => `openapi: 3.1.0\ninfo: { title: t, version: '1' }\n${body}`;

describe('core/api/openapi', () => {
  const corpus = corpusOf({
    'api/v2/openapi.yaml': openapiDoc(`paths:
  /a/{id}:
    parameters:
      - { name: id, in: path, required: true, schema: { type: string } }
      - $ref: '#/components/parameters/Mode'
    get:
      operationId: getA
      parameters:
        - { name: OpenWOP-Mode, in: header, description: The operation's own. }
      responses:
        '200': { $ref: '#/components/responses/Ok' }
    post:
      operationId: postA
      security: []
      requestBody: { content: {} }
      responses:
        '200': { $ref: 'shared.yaml#/Ok' }
components:
  parameters:
    Mode: { name: openwop-mode, in: header, description: The shared one. }
  responses:
    Ok:
      description: ok
      headers:
        OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }
  headers:
    OpenWOP-Version: { description: The contract. }
`),
    'api/v2/shared.yaml': 'Ok:\n  description: ok\n  headers:\n    ETag: { description: A validator. }\n',
  });
  const model = openApiModel(corpus);

  it('merges path-item and operation parameters, the operation winning by name and location (case-insensitively for headers)', () => {
    const [getA, postA] = model?.operations ?? [];
    expect(requestHeaders(getA!).map((p) => [p.name, p.level, p.description])).toEqual([['OpenWOP-Mode', 'operation', "The operation's own."]]);
    expect(requestHeaders(postA!).map((p) => [p.name, p.level, p.component])).toEqual([['openwop-mode', 'path-item', 'Mode']]);
  });

  it('follows response $refs, in the same file and across files, to their headers', () => {
    expect(model?.operations.map((o) => o.responses[0]?.headers.map((h) => h.name))).toEqual([['OpenWOP-Version'], ['ETag']]);
    expect(model?.operations[1]?.responses[0]?.defined.file.path).toBe('api/v2/shared.yaml');
  });

  it('knows which operations need a credential and which take a body', () => {
    expect(model?.operations.map((o) => [o.operationId, o.authenticated, o.requestBody])).toEqual([
      ['getA', false, false],
      ['postA', false, true],
    ]);
  });

  it('groups header declarations case-insensitively, counting operations once', () => {
    const usage = headerUsage(model!, 'request');
    expect(usage.map((u) => [u.key, u.operations.length, u.declarations.length])).toEqual([['openwop-mode', 2, 2]]);
  });
});

describe('core/api/refs', () => {
  const corpus = corpusOf({
    'api/a.yaml': 'x: { $ref: "#/y" }\ny: { $ref: "#/x" }\nz: { $ref: "b.json#/list/1" }\n',
    'api/b.json': '{ "list": [1, { "v": true }] }',
  });
  const file = corpus.data('api/a.yaml')!;

  it('resolves a pointer into another file, array indexes as numbers', () => {
    const result = resolveRef(corpus, { file, segments: ['z'] }, 'b.json#/list/1');
    expect(result).toMatchObject({ ok: true, value: { v: true }, site: { segments: ['list', 1] } });
  });

  it('stops on a cycle and says so', () => {
    const result = follow(corpus, { file, segments: ['x'] }, { $ref: '#/y' });
    expect(result).toMatchObject({ ok: false, cycle: true });
  });

  it('does not resolve what is outside the corpus', () => {
    expect(resolveRef(corpus, { file, segments: [] }, 'https://example.com/x.json')).toMatchObject({ ok: false, external: true });
    expect(resolveRef(corpus, { file, segments: [] }, '../../../etc/passwd')).toMatchObject({ ok: false });
  });
});

describe('core/markdown/links', () => {
  it('rebases relative links onto the new file and leaves others alone', () => {
    const text = 'See [a](../../spec/v2/core/a.md#x), [web](https://example.com/a.md) and [same](#top).';
    expect(rebaseLinks(text, 'api/v2/openapi.yaml', 'spec/v2/core/headers.md')).toBe('See [a](a.md#x), [web](https://example.com/a.md) and [same](#top).');
  });
});
