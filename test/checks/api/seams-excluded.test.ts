import { describe, expect, it } from 'vitest';
import { lineOf, run, where } from '../../helpers.js';

import { API_BASE, OPENAPI, RULES, rulesApi } from './helpers.js';
import { testRule } from '../../rule-tester.js';

testRule('api/seams-excluded', { valid: [{ name: 'a correct API corpus', base: API_BASE }], invalid: [] });

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
