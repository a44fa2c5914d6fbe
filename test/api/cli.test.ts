import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, copyFixture, lineOf } from '../helpers.js';

describe('openwop-spec check --rule api/*', () => {
  it('exits 0 on a correct corpus', async () => {
    const result = await cli(['check', '--rule', 'api/*', '--root', copyFixture('api/good')]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it('exits 1 and names the line when X-Dedup is declared', async () => {
    const root = copyFixture('api/good');
    const file = path.join(root, 'api/v2/openapi.yaml');
    const text = readFileSync(file, 'utf8').replace('        - $ref: \'#/components/parameters/IdempotencyKey\'\n', "        - $ref: '#/components/parameters/IdempotencyKey'\n        - { name: X-Dedup, in: header, description: Old., schema: { type: string } }\n");
    writeFileSync(file, text);
    const result = await cli(['check', '--rule', 'api/*', '--root', root]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`api/v2/openapi.yaml:${lineOf(text, 'X-Dedup')}:`);
    expect(result.stdout).toMatch(/X-Dedup was removed in v2.*api\/header-naming/);
  });
});
