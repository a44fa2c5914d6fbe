import { describe, expect, it } from 'vitest';
import { lineOf, run } from '../../helpers.js';
import { corpusOf, edited, readTree } from '../../api/support.js';
import { API_BASE, GOOD, OPENAPI, RULES, rulesApi } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/channel-parity', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

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
