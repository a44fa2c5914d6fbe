import { describe, expect, it } from 'vitest';
import { run } from '../../helpers.js';
import { at, GOOD, RULES } from './helpers.js';

describe('api gates on a correct corpus', () => {
  it.each(['api/version-header'])('%s is quiet', (rule) => {
    expect(run(rule, GOOD)).toEqual([]);
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
