/**
 * Every input is bounded per file: a file past a bound (nesting, aliases, size) is one located
 * finding at that file, and the rest of the run goes on. Text is read as written: invalid UTF-8 at
 * its byte, CRLF and a byte order mark kept in the bytes and invisible to the gates.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, loadCorpus, parseFile } from '../../core/model/corpus.js';
import { MAX_NESTING, parseJsonText, parseYamlText } from '../../core/model/structured.js';
import { collectRefs } from '../../core/api/refs.js';
import { CHECKS } from '../../checks/index.js';
import { runChecks } from '../../core/run/engine.js';
import { cli, fixture, readTree, run } from '../helpers.js';
import { copyCorpus, findingPlaces, tempTree } from './helpers.js';

const deepJson = (depth: number): string => `{"a": ${'['.repeat(depth - 1)}1${']'.repeat(depth - 1)}}\n`;

function aliasBomb(): string {
  let text = 'a: &a ["x","x","x","x","x","x","x","x","x"]\n';
  let previous = 'a';
  for (const name of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i']) {
    text += `${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]\n`;
    previous = name;
  }
  return text;
}

let untouched: Promise<string[]> | undefined;
/** The findings of a fresh copy of this repository's corpus, which two cases compare against: one run, on a copy of its own. */
function untouchedFindings(): Promise<string[]> {
  untouched ??= cli(['check', '--root', copyCorpus(), '--format', 'json', '--no-cache']).then((result) =>
    findingPlaces(result.stdout),
  );
  return untouched;
}

describe('nesting, aliases and size, per file', { timeout: 180_000 }, () => {
  it('a JSON file nested past the bound is one finding at the bracket that goes too deep', () => {
    for (const depth of [MAX_NESTING + 1, 3000, 8000, 100_000]) {
      const file = parseFile('schemas/v2/deep.json', Buffer.from(deepJson(depth)));
      expect(file.problems, String(depth)).toEqual([
        {
          message: expect.stringMatching(/nested more than 256 levels deep/),
          line: 1,
          column: 7 + MAX_NESTING - 1,
          kind: 'refused',
        },
      ]);
    }
    expect(parseFile('schemas/v2/ok.json', Buffer.from(deepJson(MAX_NESTING))).problems).toEqual([]);
    // The positioned parse holds to the same bound.
    expect(parseJsonText(deepJson(5000)).problems[0]?.message).toMatch(/nested more than/);
  });

  it('a YAML file nested past the bound, block or flow, is one finding at the node that goes too deep', () => {
    let block = '';
    for (let i = 0; i < MAX_NESTING + 5; i++) block += `${' '.repeat(i)}k${i}:\n`;
    block += `${' '.repeat(MAX_NESTING + 5)}v\n`;
    const blockProblems = parseYamlText(block).problems;
    expect(blockProblems).toHaveLength(1);
    expect(blockProblems[0]?.message).toMatch(/nested more than 256 levels deep/);
    expect(blockProblems[0]?.line).toBe(MAX_NESTING + 1);
    for (const depth of [300, 5000, 50_000]) {
      const problems = parseYamlText(`a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`).problems;
      expect(problems, String(depth)).toHaveLength(1);
      expect(problems[0]?.line).toBe(1);
      expect(problems[0]?.message).toMatch(/nested (more than 256 levels deep|too deeply to be read)/);
    }
  });

  it('a YAML alias bomb is one finding at its first alias, not an internal error', () => {
    const problems = parseYamlText(aliasBomb()).problems;
    expect(problems).toEqual([
      { message: expect.stringMatching(/aliases expand to more than 1000/), line: 2, column: 8, kind: 'refused' },
    ]);
    // Aliases within the bound read as before.
    expect(parseYamlText('a: &x [1, 2]\nb: *x\n').value).toEqual({ a: [1, 2], b: [1, 2] });
  });

  it('a recursive walk of core over a value at the bound does not overflow', () => {
    const corpus = corpusFromFiles('/r', { 'api/v2/deep.json': deepJson(MAX_NESTING) });
    const file = corpus.data('api/v2/deep.json');
    expect(file).toBeDefined();
    expect(() => collectRefs(file!)).not.toThrow();
  });

  it('end to end: deep JSON, deep YAML, an alias bomb and an oversized file are each one finding, and every other finding stays', async () => {
    const root = copyCorpus();
    const baseline = await untouchedFindings();
    writeFileSync(path.join(root, 'schemas/v2/deep.json'), deepJson(8000));
    writeFileSync(path.join(root, 'schemas/v2/deeper.json'), deepJson(3500));
    writeFileSync(path.join(root, 'api/v2/bomb.yaml'), aliasBomb());
    writeFileSync(path.join(root, 'api/v2/flow.yaml'), `a: ${'['.repeat(20_000)}${']'.repeat(20_000)}\n`);
    writeFileSync(path.join(root, 'docs/huge.txt'), Buffer.alloc(33 * 2 ** 20, 'a'));
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    // The stamp covers the new files, so it is stale; that is true, and said once.
    const found = findingPlaces(result.stdout)
      .filter((f) => !f.startsWith('generated/drift CORPUS-STAMP.json:'))
      .map((f) => f.replace(/^(corpus\/parse api\/v2\/flow\.yaml:1:)\d+$/, '$1COLUMN'));
    expect(found.filter((f) => !baseline.includes(f)).sort()).toEqual(
      [
        'corpus/parse api/v2/bomb.yaml:2:8',
        'corpus/parse api/v2/flow.yaml:1:COLUMN',
        `corpus/parse schemas/v2/deep.json:1:${7 + MAX_NESTING - 1}`,
        `corpus/parse schemas/v2/deeper.json:1:${7 + MAX_NESTING - 1}`,
        'corpus/parse docs/huge.txt:1:1',
      ].sort(),
    );
    expect(found.filter((f) => baseline.includes(f))).toEqual(baseline);
    // generate goes on as well: it restamps, and check then has only the five findings.
    expect((await cli(['generate', '--root', root])).status).toBe(0);
    expect(
      findingPlaces((await cli(['check', '--root', root, '--format', 'json'])).stdout).filter((f) =>
        f.startsWith('generated/'),
      ),
    ).toEqual([]);
  });
});

describe('text as written', { timeout: 180_000 }, () => {
  it('invalid UTF-8 is reported at the bad byte', () => {
    const bytes = Buffer.concat([
      Buffer.from('# Title\n\nSome t\u00e9xt and '),
      Buffer.from([0xc3, 0x28]),
      Buffer.from(' more\n'),
    ]);
    const file = parseFile('spec/v2/core/a.md', bytes);
    expect(file.problems).toEqual([
      { message: expect.stringMatching(/^not valid UTF-8/), line: 3, column: 15, kind: 'encoding' },
    ]);
    const lone = parseFile('docs/b.md', Buffer.concat([Buffer.from('ok\n\u{1F600} '), Buffer.from([0xff])]));
    expect(lone.problems[0]).toMatchObject({ line: 2, column: 4 });
  });

  it('a UTF-16 file is named for what it is', () => {
    const file = parseFile('spec/v2/core/a.md', Buffer.from('\uFEFF# A\n', 'utf16le'));
    expect(file.problems).toEqual([
      { message: 'a .md file in UTF-16 (its byte order mark says so); save it as UTF-8', line: 1, column: 1 },
    ]);
  });

  it("a duplicate key in JSON is worded in JSON's terms, at the second occurrence", () => {
    const file = parseFile('spec/v2/x.json', Buffer.from('{\n  "code": 1,\n  "code": 2\n}\n'));
    expect(file.problems).toEqual([
      { message: expect.stringMatching(/^duplicate key "code": an object has this member twice/), line: 3, column: 3 },
    ]);
    expect(file.problems[0]?.message).not.toMatch(/Map keys/);
    // YAML keeps its own words.
    expect(parseFile('api/x.yaml', Buffer.from('a: 1\na: 2\n')).problems[0]?.message).toMatch(/unique/);
  });

  it('a CRLF or BOM file reads as LF text for the gates, and keeps its exact bytes', () => {
    const crlf = Buffer.from('# A\r\n\r\n> **Status: Stable.**\r\n');
    const file = parseFile('spec/v2/core/a.md', crlf);
    expect(file.kind === 'markdown' && file.text).toBe('# A\n\n> **Status: Stable.**\n');
    expect(file.bytes.equals(crlf)).toBe(true);
    expect(file.kind === 'markdown' && file.style).toEqual({ crlf: true, bom: false });
    const bom = Buffer.from('\uFEFF{"a": 1}\r\n');
    const data = parseFile('spec/v2/a.json', bom);
    expect(data.kind === 'json' && data.value).toEqual({ a: 1 });
    expect(data.bytes.equals(bom)).toBe(true);
  });

  it('CRLF core documents give no false finding: the declaration sections in them still resolve', () => {
    // The events fixture's declaration cites a section of core/forms.md, and its profiles one of core/overview.md.
    const files = readTree(fixture('events/good'));
    const documents = ['spec/v2/core/overview.md', 'spec/v2/core/forms.md'];
    const crlf = { ...files };
    for (const document of documents) crlf[document] = (files[document] ?? '').replace(/\n/g, '\r\n');
    expect(documents.every((document) => crlf[document]?.includes('\r\n'))).toBe(true);
    const sections = (
      JSON.parse(files['spec/v2/declaration.json'] ?? '{}') as { families: { section?: string }[] }
    ).families
      .map((family) => family.section)
      .filter((section) => section !== undefined);
    expect(sections).toEqual(['core/forms.md#instantiation']);
    const found = (texts: Record<string, string>) =>
      runChecks(corpusFromFiles('/nonexistent-root', texts), CHECKS).map(
        (d) => `${d.rule} ${d.file}:${d.line}:${d.column}`,
      );
    const before = found(files);
    expect(before.filter((finding) => finding.startsWith('declaration/sections '))).toEqual([]);
    expect(found(crlf)).toEqual(before);
  });
});

describe('the loader', () => {
  it('reads a root of a few files with no problem', () => {
    const root = tempTree({ 'docs/a.md': '# A\n', 'openwop-spec.config.json': '{"required": []}\n' });
    expect(loadCorpus(root).files.size).toBe(1);
    expect(run('corpus/parse', root)).toEqual([]);
  });
});
