import { describe, expect, it } from 'vitest';
import { parseConfigText } from '../../core/config/read.js';

/** Strict JSON texts: read by JSON.parse; each with a comment after it is read by jsonc-parser. */
const TEXTS = [
  '{"rules": {"docs/v1-mentions": ["error", {"v1Mentions": 46}]}, "include": ["spec/**"]}',
  '{\n  "a": {"b": [1, {"c": null}], "b": "again"},\n  "__proto__": {"polluted": true},\n  "constructor": "x"\n}',
  '[1e999, -0, "\\ud800", "\\u0000"]',
  '{}',
];

describe('reading a JSON config', () => {
  it('gives the same value, prototype-less objects, and the same positions whichever parser reads it', () => {
    for (const text of TEXTS) {
      const strict = parseConfigText(text, 'c.json');
      const commented = parseConfigText(`${text}\n// a comment only JSONC allows\n`, 'c.json');
      expect(strict.value).toStrictEqual(commented.value);
      expect(JSON.stringify(strict.value)).toBe(JSON.stringify(commented.value));
      if (typeof strict.value === 'object' && !Array.isArray(strict.value)) {
        expect(Object.getPrototypeOf(strict.value)).toBeNull();
        expect(Object.getPrototypeOf(commented.value)).toBeNull();
        expect(Object.keys(strict.value as object)).toEqual(Object.keys(commented.value as object));
      }
      for (const [path, part] of [
        [['rules', 'docs/v1-mentions', 1, 'v1Mentions'], 'value'],
        [['a', 'b'], 'key'],
        [['__proto__', 'polluted'], 'value'],
        [[1], 'value'],
        [['absent'], 'value'],
      ] as const)
        expect(strict.at(path, part)).toEqual(commented.at(path, part));
    }
    const polluted = parseConfigText(TEXTS[1] as string, 'c.json').value as Record<string, Record<string, unknown>>;
    expect(Object.hasOwn(polluted, '__proto__')).toBe(true);
    expect(polluted.a?.b).toBe('again');
    expect(parseConfigText(TEXTS[0] as string, 'c.json').at(['rules', 'docs/v1-mentions', 1, 'v1Mentions'])).toEqual({
      line: 1,
      column: 57,
      endColumn: 59,
    });
  });

  it('says where a syntax error is, JSON or not', () => {
    expect(() => parseConfigText('{"a": 1,,}', 'c.json')).toThrow(/^1:9: is not JSON/);
    expect(() => parseConfigText('', 'c.json')).toThrow(/is not JSON/);
  });
});
