/**
 * parseYamlValue: a YAML file's value read by js-yaml when the document is plain, by yaml
 * otherwise. Whichever parser answers, the value and the problems are the ones yaml's positioned
 * parse gives (parseYamlText), on every YAML file of this repository and of the upstream corpus,
 * and on the corners where the two libraries could part: scalar resolution, keys, tags, aliases,
 * several documents, nesting.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { walkFiles } from '../../core/model/file-walk.js';
import { MAX_NESTING, parseYamlText, parseYamlValue, plainYamlValue } from '../../core/model/structured.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

const REPO = path.resolve(import.meta.dirname, '..', '..');

function yamlFiles(root: string, directories: readonly string[]): string[] {
  return directories
    .filter((directory) => existsSync(path.join(root, directory)))
    .flatMap((directory) =>
      walkFiles(root, directory, {
        dotfiles: false,
        unreadable: (relative, code) => {
          throw new Error(`cannot read ${relative}: ${code}`);
        },
      }),
    )
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => path.join(root, file));
}

/** What yaml's own parse makes of the text: the reference. */
function reference(text: string): { value: unknown; problems: unknown[] } {
  const parsed = parseYamlText(text);
  return { value: parsed.value, problems: parsed.problems };
}

const CORNERS: Record<string, string> = {
  'integers in every core form': 'a: [0, -0, +12, 0o17, 017, 0x1F, 08, 1_000, 0b101, 1,000]\n',
  'floats and their specials': 'a: [1., .5, 1e3, 0.1e-2, 6.8523015e+5, .inf, -.Inf, +.inf, 1e, .e3]\n',
  'booleans and nulls in their spellings': 'a: [true, True, TRUE, tRue, yes, on, null, Null, NULL, nULL, ~, ]\n',
  'dates and times stay strings': 'a: 2024-01-01\nb: 12:30:00\nc: 1:20\n',
  'keys that are numbers and booleans': '200: ok\n404: missing\ntrue: yes\n1.0: one\n',
  'a key written as null': '~: x\nnull: y\n',
  'core tags': 'a: !!str 1\nb: !!int "7"\nc: !!float 1\n',
  'a tag outside the core schema': 'a: !!binary aGk=\n',
  'an application tag': 'a: !thing 1\n',
  'a non-specific tag': 'a: ! 12\n',
  'a YAML 1.1 directive': '%YAML 1.1\n---\na: yes\nb: 010\n',
  'an exclamation mark in prose': 'a: do not! ever\nb: "quoted !bang"\n',
  'a merge key is a plain key': '<<: {b: 1}\nc: 2\n',
  'an alias of a collection': 'a: &x [1, 2]\nb: *x\n',
  'an alias of a scalar': 'a: &x hello\nb: *x\n',
  'a complex key': '? [a, b]\n: c\n',
  'two documents': 'a: 1\n---\nb: 2\n',
  'a duplicate key': 'a: 1\nb: 2\na: 3\n',
  'escapes in double quotes': 'a: "\\x41\\u00e9\\t\\"q\\""\nb: \'it\'\'s\'\n',
  'block scalars with chomping': 'a: |\n  x\n  y\n\nb: >-\n  x\n  y\n\nc: |+\n  z\n\n',
  'a plain scalar over several lines': 'a: one\n  two\n  three\nb: end\n',
  'flow collections with trailing commas': 'a: [1, 2, ]\nb: {c: 1, }\n',
  'a member named __proto__': '__proto__: {polluted: true}\nsafe: 1\n',
  'a tab before a value': 'a:\t1\n',
  'an empty document': '',
  'a comment only': '# nothing here\n',
  'a bare scalar document': 'just text\n',
  'unclosed flow': 'a: [1, 2\n',
  'bad indentation': 'a:\n  b: 1\n c: 2\n',
  'a CRLF document': 'a: 1\r\nb:\r\n  - x\r\n',
  'quoted scalars over several lines': 'a: \'one\n  two\n\n  three\'\nb: "one \\\n  two"\n',
  'every double-quoted escape': 'a: "\\U0001F600 \\N \\_ \\L \\P \\0 \\a \\e"\n',
  'an indentation indicator and folding of more-indented lines': 'a: |2\n    x\n   y\nb: >\n  x\n    more\n  y\n',
  'numbers that are not quite numbers':
    'a: 3.1.0\nb: 2.0\nc: 12345678901234567890\nd: -0.0\ne: -0x1F\nf: b:c\ng: b#c\n',
  'a merge of an anchored map': 'base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n',
  'a sequence not indented under its key, and empty items': 'a:\n- 1\n-\n- 2\n',
  'document markers': '---\na: 1\n...\n',
  'members named like Object.prototype': 'constructor: 1\ntoString: 2\nb: {__proto__: 1}\n',
};

describe('parseYamlValue', () => {
  it("gives yaml's value and problems on every corner where js-yaml and yaml could part", () => {
    for (const [name, text] of Object.entries(CORNERS)) {
      expect({ name, ...parseYamlValue(text) }).toEqual({ name, ...reference(text) });
    }
  });

  it('takes js-yaml only for a plain document, leaving yaml the rest', () => {
    expect(plainYamlValue('openapi: 3.1.0\npaths:\n  /runs: {get: {responses: {"200": {description: ok}}}}\n')).toEqual(
      {
        plain: true,
        value: { openapi: '3.1.0', paths: { '/runs': { get: { responses: { '200': { description: 'ok' } } } } } },
      },
    );
    for (const name of [
      'core tags',
      'a non-specific tag',
      'a YAML 1.1 directive',
      'an alias of a collection',
      'a key written as null',
      'a tag outside the core schema',
      'a complex key',
      'two documents',
      'a duplicate key',
      'unclosed flow',
    ]) {
      expect({ name, ...plainYamlValue(CORNERS[name] as string) }).toEqual({ name, plain: false });
    }
  });

  it('leaves a document nested past the bound to yaml, which refuses it as one located problem', () => {
    const deep = `a:${Array.from({ length: MAX_NESTING + 4 }, (_, depth) => `\n${'  '.repeat(depth + 1)}b${depth}:`).join('')} end\n`;
    expect(plainYamlValue(deep)).toEqual({ plain: false });
    const { value, problems } = parseYamlValue(deep);
    expect(value).toBeUndefined();
    expect(problems).toEqual([
      {
        message: expect.stringMatching(/^nested more than 256 levels deep/),
        line: expect.any(Number),
        column: expect.any(Number),
        kind: 'refused',
      },
    ]);
    expect(problems).toEqual(reference(deep).problems);
  });

  /** `atLeast`: how many files the tree is known to hold, so that a walk finding none fails. */
  const agreesWithYaml = (files: readonly string[], atLeast: number): void => {
    expect(files.length).toBeGreaterThanOrEqual(atLeast);
    let plain = 0;
    for (const file of files) {
      const text = readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
      expect({ file, ...parseYamlValue(text) }).toEqual({ file, ...reference(text) });
      if (plainYamlValue(text).plain) plain++;
    }
    // The fast path is the usual one: nearly every real document is plain.
    expect(plain).toBeGreaterThan(files.length * 0.8);
  };

  it('reads every YAML file of this repository as yaml does', () => {
    agreesWithYaml(yamlFiles(REPO, ['api', 'spec', 'schemas', 'SECURITY', 'conformance', 'docs', 'test/fixtures']), 19);
  });

  it.skipIf(!upstreamPresent(import.meta.url))('reads every YAML file of the upstream corpus as yaml does', () => {
    agreesWithYaml(yamlFiles(UPSTREAM, ['api', 'spec', 'schemas', 'SECURITY', 'conformance', 'docs']), 4);
  });
});
