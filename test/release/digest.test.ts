import { describe, expect, it } from 'vitest';
import { jcs, jcsDigest, sha256Hex } from '../../core/output/digest.js';

/** JCS of a JSON text as a consumer would receive it: parsed, then canonicalized. */
const canonical = (text: string) => jcs(JSON.parse(text));

describe('SHA-256', () => {
  it('matches the FIPS 180-2 vectors', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex(Buffer.from('abc'))).toBe(sha256Hex('abc'));
  });
});

describe('RFC 8785 canonical JSON', () => {
  it('sorts keys by UTF-16 code units, not by code point or locale (RFC 8785 §3.2.3)', () => {
    const input =
      '{"\\u20ac":"Euro Sign","\\r":"Carriage Return","\\ufb33":"Hebrew Letter Dalet With Dagesh","1":"One","\\ud83d\\ude00":"Emoji: Grinning Face","\\u0080":"Control","\\u00f6":"Latin Small Letter O With Diaeresis"}';
    // Read the order off the text: Object.keys would put the integer-like key "1" first whatever the text says.
    const order = [...canonical(input).matchAll(/"([^"]*)":"([^"]*)"/g)].map((match) => match[2]);
    // U+1F600 is the surrogate pair D83D DE00: it sorts before U+FB33 by code unit, after it by code point.
    expect(order).toEqual([
      'Carriage Return',
      'One',
      'Control',
      'Latin Small Letter O With Diaeresis',
      'Euro Sign',
      'Emoji: Grinning Face',
      'Hebrew Letter Dalet With Dagesh',
    ]);
    expect(canonical('{"b":1,"a":2,"aa":3,"A":4}')).toBe('{"A":4,"a":2,"aa":3,"b":1}');
  });

  it('serializes the RFC 8785 §3.2.2 sample exactly', () => {
    const input = `{
      "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
      "string": "\\u20ac$\\u000F\\u000aA'\\u0042\\u0022\\u005c\\\\\\"\\/",
      "literals": [null, true, false]
    }`;
    expect(canonical(input)).toBe(
      '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}',
    );
  });

  it('hashes the number forms 1, 1.0 and 1e0 identically, and 1.5 differently', () => {
    const digests = ['{"n":1}', '{"n":1.0}', '{"n":1e0}', '{"n":10e-1}', '{"n": 1 }'].map((text) =>
      jcsDigest(JSON.parse(text)),
    );
    expect(new Set(digests).size).toBe(1);
    expect(jcsDigest(JSON.parse('{"n":1.5}'))).not.toBe(digests[0]);
  });

  it('hashes escapes and the literal characters they stand for identically', () => {
    const escaped = '{"s":"caf\\u00e9 \\u20ac \\ud83d\\ude00 \\/ \\u0041"}';
    const literal = '{"s":"café € 😀 / A"}';
    expect(jcsDigest(JSON.parse(escaped))).toBe(jcsDigest(JSON.parse(literal)));
    // Control characters are escaped in the canonical form, never written raw.
    expect(canonical('{"s":"\\u0007\\t"}')).toBe('{"s":"\\u0007\\t"}');
    expect(jcsDigest(JSON.parse('{"s":"cafe\\u0301"}'))).not.toBe(jcsDigest(JSON.parse(literal)));
  });

  it('ignores member order and whitespace, and keeps array order', () => {
    expect(jcsDigest(JSON.parse('{ "a" : [1, 2], "b": {"y": 1, "x": 2} }'))).toBe(
      jcsDigest(JSON.parse('{"b":{"x":2,"y":1},"a":[1,2]}')),
    );
    expect(jcsDigest([1, 2])).not.toBe(jcsDigest([2, 1]));
  });

  it('refuses what JSON cannot represent', () => {
    expect(() => jcs(Number.NaN)).toThrow();
    expect(() => jcs({ s: '\ud800' })).toThrow(/surrogate/);
    expect(() => jcs(undefined)).toThrow();
  });
});
