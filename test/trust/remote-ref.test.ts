/** A remote `$ref` is never fetched, so it is an error wherever it is written, unless the config allows it. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../core/config/load.js';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { cli, run } from '../helpers.js';
import { copyCorpus, findingPlaces } from './helpers.js';

const OPENAPI = `openapi: 3.1.0
info:
  title: T
  version: '1'
paths:
  /things:
    get:
      operationId: listThings
      responses:
        '200':
          description: ok
          content:
            application/json:
              schema:
                $ref: 'https://example.com/schemas/thing.json#/Thing'
`;

describe('a remote $ref', { timeout: 120_000 }, () => {
  it('in OpenAPI is an error at the $ref, quiet when the config allows remote refs', () => {
    const found = run('api/valid', corpusFromFiles('/r', { 'api/v2/openapi.yaml': OPENAPI }));
    expect(found.map((d) => `${d.severity} ${d.file}:${d.line}:${d.column}`)).toEqual([
      'error api/v2/openapi.yaml:15:23',
    ]);
    expect(found[0]?.message).toMatch(
      /^\$ref names a remote document \(https:\/\/example\.com\/schemas\/thing\.json#\/Thing\), which is never fetched/,
    );
    const allowed = corpusFromFiles(
      '/r',
      { 'api/v2/openapi.yaml': OPENAPI },
      { ...defaultConfig(), allowRemoteRefs: true },
    );
    expect(run('api/valid', allowed)).toEqual([]);
  });

  it('fails check on this corpus, and passes it with allowRemoteRefs in the config', async () => {
    const root = copyCorpus();
    const file = path.join(root, 'api/v2/openapi.yaml');
    const text = readFileSync(file, 'utf8');
    const local = "'#/components/parameters/OpenWOPVersion'";
    const at = text.indexOf(local);
    expect(at).toBeGreaterThan(0);
    writeFileSync(
      file,
      `${text.slice(0, at)}'//cdn.example.org/parameters.yaml#/OpenWOPVersion'${text.slice(at + local.length)}`,
    );
    const line = text.slice(0, at).split('\n').length;
    const result = await cli(['check', '--root', root, '--format', 'json', '--rule', 'api/valid']);
    expect(result.status).toBe(1);
    expect(findingPlaces(result.stdout)).toEqual([
      `api/valid api/v2/openapi.yaml:${line}:${at - text.lastIndexOf('\n', at)}`,
    ]);
    writeFileSync(path.join(root, 'openwop-spec.config.json'), '{"allowRemoteRefs": true}\n');
    expect((await cli(['check', '--root', root, '--rule', 'api/valid'])).status).toBe(0);
  });
});
