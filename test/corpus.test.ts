import { describe, expect, it } from 'vitest';
import { corpusFromFiles, loadCorpus } from '../core/model/corpus.js';
import { compareDocumentOrder, type PathSegment } from '../core/model/structured.js';
import { Location } from '../core/model/location.js';
import { fixture } from './helpers.js';

describe('the corpus model', () => {
  it('walks the corpus directories only, in a stable order', () => {
    const corpus = loadCorpus(fixture('good'));
    expect([...corpus.files.keys()]).toEqual([
      'api/v2/openapi.yaml',
      'spec/v2/core/a.md',
      'spec/v2/core/b.md',
      'spec/v2/things.json',
    ]);
  });

  it('indexes headings with GitHub anchors, duplicates suffixed', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/x.md':
        '# T\n\n## Layer 1: `Idempotency-Key`\n\n## Notes\n\n## Notes\n\n## Notes\n\n### 1.4 Response version header\n\n## AI envelopes: E1–E5\n',
    });
    const file = corpus.markdown('spec/x.md');
    expect(file?.headings.map((h) => h.slug)).toEqual([
      't',
      'layer-1-idempotency-key',
      'notes',
      'notes-1',
      'notes-2',
      '14-response-version-header',
      'ai-envelopes-e1e5',
    ]);
    expect(file?.headings.map((h) => h.number)).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      '1.4',
      undefined,
    ]);
    expect(file?.headings[1]?.text).toBe('Layer 1: Idempotency-Key');
  });

  it('collects links, definitions, images, explicit ids and fenced code with positions', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/x.md':
        '# T\n\nA [link](a.md#b) and ![img](i.png).\n\n<a id="custom"></a>\n\n<!-- example: schemas/v2/s.json -->\n```json\n{}\n```\n\n[ref]: other.md\n',
    });
    const file = corpus.markdown('spec/x.md');
    expect(file?.links.map((l) => [l.kind, l.url, l.line, l.column])).toEqual([
      ['link', 'a.md#b', 3, 3],
      ['image', 'i.png', 3, 22],
      ['definition', 'other.md', 12, 1],
    ]);
    expect(file?.anchors.has('custom')).toBe(true);
    expect(file?.codeBlocks).toHaveLength(1);
    expect(file?.codeBlocks[0]).toMatchObject({
      lang: 'json',
      line: 8,
      annotation: '<!-- example: schemas/v2/s.json -->',
    });
  });

  it('keeps the line and column of every JSON and YAML node', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/r.json': '{\n  "rows": [\n    { "code": "a" },\n    { "code": "b" }\n  ]\n}\n',
      'api/o.yaml': 'paths:\n  /runs:\n    get:\n      operationId: listRuns\n',
    });
    const json = corpus.data('spec/r.json');
    const yaml = corpus.data('api/o.yaml');
    expect(json?.value).toEqual({ rows: [{ code: 'a' }, { code: 'b' }] });
    expect(Location.pointer(json!, ['rows', 1, 'code']).resolve()).toMatchObject({ line: 4, column: 7 });
    expect(Location.pointer(json!, ['rows', 1, 'code'], 'value').resolve()).toMatchObject({ line: 4, column: 15 });
    expect(Location.pointer(yaml!, ['paths', '/runs', 'get', 'operationId']).resolve()).toMatchObject({
      line: 4,
      column: 7,
    });
    expect(Location.pointer(yaml!, ['paths', '/runs', 'post']).resolve()).toMatchObject({ line: 2, column: 3 });
  });

  it('records parse problems instead of throwing, and keeps reading other files', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/dup.json': '{\n  "a": 1,\n  "a": 2\n}\n',
      'spec/bad.json': '{\n  "a": 1,\n}\n',
      'spec/ok.json': '{"a": 1}',
      'spec/bin.json': Buffer.from([0x7b, 0x00, 0x7d]),
    });
    expect(corpus.get('spec/dup.json')?.problems[0]).toMatchObject({ line: 3, column: 3 });
    expect(corpus.get('spec/bad.json')?.problems[0]).toMatchObject({ line: 3 });
    expect(corpus.get('spec/bin.json')?.problems[0]?.message).toMatch(/binary/);
    expect(corpus.data('spec/ok.json')?.value).toEqual({ a: 1 });
    expect(corpus.data('spec/bad.json')).toBeUndefined();
  });

  it('reads JSON without a positioned parse, yet finds a duplicate key however its strings are escaped', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/escaped.json': '{"a\\"": "x\\\\", "b": ["\\\\\\"", {"c": "\\u0022"}], "n": null}',
      'spec/nested-dup.json': '{\n  "rows": [\n    {"code": "a", "note": "say \\"hi\\"", "code": "b"}\n  ]\n}\n',
      'spec/proto.json': '{"__proto__": {"x": 1}, "y": 2}',
    });
    const escaped = corpus.get('spec/escaped.json');
    expect(escaped?.problems).toEqual([]);
    expect(corpus.data('spec/escaped.json')?.value).toEqual({ 'a"': 'x\\', b: ['\\"', { c: '"' }], n: null });
    expect(corpus.get('spec/nested-dup.json')?.problems[0]).toMatchObject({ line: 3, column: 41 });
    expect(corpus.data('spec/proto.json')?.value).toEqual(JSON.parse('{"__proto__": {"x": 1}, "y": 2}'));
    // Positions are still there when a gate asks for one.
    const proto = corpus.data('spec/proto.json');
    expect(proto && Location.pointer(proto, ['y']).resolve()).toMatchObject({ line: 1, column: 25 });
  });

  it('orders paths by where they are written, from the parsed value alone', () => {
    const value =
      corpusFromFiles('/r', {
        'api/a.yaml': 'paths:\n  /z:\n    get: {}\n  /a:\n    post: {}\nlist: [x, y, z]\n',
      }).data('api/a.yaml')?.value ?? {};
    const paths: PathSegment[][] = [
      ['list', 2],
      ['paths', '/a', 'post'],
      ['list', 0],
      ['paths', '/z'],
      ['paths', '/z', 'get'],
    ];
    expect([...paths].sort((a, b) => compareDocumentOrder(value, a, b))).toEqual([
      ['paths', '/z'],
      ['paths', '/z', 'get'],
      ['paths', '/a', 'post'],
      ['list', 0],
      ['list', 2],
    ]);
  });

  it("keeps a file's bytes exactly, byte order mark included, while its text has none", () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": "é — ok"}\n', 'utf8')]);
    const corpus = corpusFromFiles('/r', { 'spec/bom.json': bytes, 'spec/plain.md': '# Title — with a dash\n' });
    const file = corpus.data('spec/bom.json');
    expect(file?.text.startsWith('{')).toBe(true);
    expect(file?.value).toEqual({ a: 'é — ok' });
    expect(file?.bytes.equals(bytes)).toBe(true);
    expect(corpus.get('spec/plain.md')?.bytes.toString('utf8')).toBe('# Title — with a dash\n');
  });

  it('finds block and inline generated regions, and reports broken markers', () => {
    const text =
      '# T\n\nIt has <!-- generated: count/x -->**2**<!-- /generated: count/x --> rows.\n\n<!-- generated: table/x from r.json; do not edit -->\n| A |\n| --- |\n<!-- /generated: table/x -->\n\n<!-- generated: open/only -->\n';
    const file = corpusFromFiles('/r', { 'spec/x.md': text }).markdown('spec/x.md');
    const [inline, block] = file?.regions ?? [];
    expect(inline).toMatchObject({ id: 'count/x', kind: 'inline' });
    expect(text.slice(inline!.contentStart, inline!.contentEnd)).toBe('**2**');
    expect(block).toMatchObject({ id: 'table/x', kind: 'block', source: 'r.json' });
    expect(text.slice(block!.contentStart, block!.contentEnd)).toBe('| A |\n| --- |\n');
    expect(file?.regionProblems).toEqual([
      { message: expect.stringMatching(/open\/only.*never closed/), line: 10, column: 1 },
    ]);
  });

  it('ignores region markers shown inside code', () => {
    const file = corpusFromFiles('/r', { 'spec/x.md': '# T\n\n```md\n<!-- generated: a/b -->\n```\n' }).markdown(
      'spec/x.md',
    );
    expect(file?.regions).toEqual([]);
    expect(file?.regionProblems).toEqual([]);
  });
});
