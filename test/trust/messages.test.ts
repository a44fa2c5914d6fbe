/** Messages that say what is really wrong. */
import { describe, expect, it } from 'vitest';
import { run } from '../helpers.js';

const registry = (status: unknown) =>
  JSON.stringify(
    {
      version: '2',
      vendorCodePattern: '^x_',
      rows: [
        {
          code: 'bad_request',
          httpStatus: status,
          statusSource: 'v2 decision',
          retriable: false,
          details: null,
          since: '2.0',
          source: 'x',
        },
      ],
    },
    null,
    2,
  );

describe('errors/registry on httpStatus', () => {
  it('a status written as a string says it is a string, and how to write it', () => {
    const found = run('errors/registry', { 'spec/v2/errors.json': registry('400') }).filter((d) =>
      d.message.includes('httpStatus'),
    );
    expect(found.map((d) => d.message)).toEqual(['httpStatus of bad_request is the string "400", not a number']);
    expect(found[0]?.hint).toBe('write it as the number 400, without quotes');
    expect(found[0]?.line).toBe(7);
  });

  it('a number out of range is still called out of range', () => {
    const found = run('errors/registry', { 'spec/v2/errors.json': registry(299) }).filter((d) =>
      d.message.includes('httpStatus'),
    );
    expect(found.map((d) => d.message)).toEqual(['httpStatus 299 of bad_request is not a 4xx or 5xx status']);
  });
});
