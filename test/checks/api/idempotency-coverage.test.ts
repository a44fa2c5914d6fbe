import { describe, expect, it } from 'vitest';
import { run, where } from '../../helpers.js';
import { lineOf } from '../../api/support.js';
import { at, GOOD, OPENAPI, RULES, rulesApi } from './helpers.js';

describe('api gates on a correct corpus', () => {
  it.each(['api/idempotency-coverage'])('%s is quiet', (rule) => {
    expect(run(rule, GOOD)).toEqual([]);
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
