import { describe, expect, it } from 'vitest';
import { countOutputs, regionOutputs } from '../core/run/counts.js';
import { corpusFromFiles } from '../core/model/corpus.js';
import { defineGenerator, type Generator } from '../core/run/define.js';
import { driftDiagnostics, planGeneration } from '../core/run/generation.js';
import { renderTable } from '../core/markdown/table.js';

/** A generator of the shape real ones have: a registry in, a table region, counts and a whole file out. */
const things: Generator = defineGenerator({
  id: 'things',
  summary: 'things table',
  inputs: ['spec/v2/things.json'],
  generate(corpus, report) {
    const registry = corpus.data('spec/v2/things.json')?.value as { things?: string[] } | undefined;
    if (!registry?.things) {
      report({ file: 'spec/v2/things.json', message: 'no things' });
      return [];
    }
    const rows = registry.things.map((thing) => [`\`${thing}\``]);
    return [
      { path: 'spec/v2/core/a.md', region: 'things/table', content: renderTable(['Thing'], rows) },
      ...countOutputs(corpus, 'things', registry.things.length),
      { path: 'spec/v2/things.index.json', content: `${JSON.stringify({ count: registry.things.length }, null, 2)}\n` },
    ];
  },
});

const docWithRegions = (count: string, table: string) =>
  `# A\n\nIt has <!-- generated: count/things -->${count}<!-- /generated: count/things --> things.\n\n<!-- generated: things/table from spec/v2/things.json; do not edit -->\n${table}<!-- /generated: things/table -->\n\nHand-written text after.\n`;
const TABLE = '| Thing |\n| --- |\n| `one` |\n| `two` |\n';

describe('generation', () => {
  it('plans nothing to change when every output is current', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": ["one", "two"]}',
      'spec/v2/core/a.md': docWithRegions('**2**', TABLE),
      'spec/v2/core/b.md': '# B\n\nAlso <!-- generated: count/things -->**2**<!-- /generated: count/things -->.\n',
      'spec/v2/things.index.json': '{\n  "count": 2\n}\n',
    });
    const plan = planGeneration(corpus, [things]);
    expect(plan.diagnostics).toEqual([]);
    expect(driftDiagnostics(plan)).toEqual([]);
    expect(plan.files.map((f) => f.path)).toEqual([
      'spec/v2/core/a.md',
      'spec/v2/core/b.md',
      'spec/v2/things.index.json',
    ]);
  });

  it('reports every differing line of a stale output at that line, and rewrites only inside the markers', () => {
    const stale = docWithRegions('**1**', '| Thing |\n| --- |\n| `one` |\n');
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": ["one", "two"]}',
      'spec/v2/core/a.md': stale,
      'spec/v2/core/b.md':
        '# B\n\nLine two.\n\nAlso <!-- generated: count/things -->**96**<!-- /generated: count/things -->.\n',
    });
    const plan = planGeneration(corpus, [things]);
    const drift = driftDiagnostics(plan);
    expect(drift.map((d) => `${d.file}:${d.line}`)).toEqual([
      'spec/v2/core/a.md:3',
      'spec/v2/core/a.md:9',
      'spec/v2/core/b.md:5',
      'spec/v2/things.index.json:1',
    ]);
    // The count line differs; the table lacks a row, named where it would go.
    expect(drift[0]?.message).toBe(
      'stale generated content: line 3 differs from what things produces; expected: It has <!-- generated: count/things -->**2**<!-- /generated: count/things --> things.',
    );
    expect(drift[1]?.message).toBe(
      'stale generated content: things produces a row `two` here that is missing; expected: | `two` |',
    );
    expect(drift[3]?.message).toMatch(/missing/);
    const a = plan.files.find((f) => f.path === 'spec/v2/core/a.md');
    expect(a?.after).toBe(docWithRegions('**2**', TABLE));
    expect(a?.after.endsWith('Hand-written text after.\n')).toBe(true);
  });

  it('is idempotent: the planned output, planned again, changes nothing', () => {
    const files: Record<string, string> = {
      'spec/v2/things.json': '{"things": ["b|c", "a"]}',
      'spec/v2/core/a.md': docWithRegions('**0**', ''),
    };
    const first = planGeneration(corpusFromFiles('/r', files), [things]);
    for (const file of first.files) files[file.path] = file.after;
    const second = planGeneration(corpusFromFiles('/r', files), [things]);
    expect(driftDiagnostics(second)).toEqual([]);
    expect(files['spec/v2/core/a.md']).toContain('| `b\\|c` |');
  });

  it('reports a region a generator owns but the document lacks, and a region no generator owns', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": []}',
      'spec/v2/core/a.md':
        '# A\n\nNo regions here. <!-- generated: count/other -->**3**<!-- /generated: count/other -->\n',
    });
    const plan = planGeneration(corpus, [things]);
    expect(plan.diagnostics.map((d) => [d.rule, d.severity, d.message])).toEqual([
      [
        'generated/region',
        'error',
        expect.stringMatching(/owns region "things\/table", but spec\/v2\/core\/a.md has no such region/),
      ],
      ['generated/region', 'warning', expect.stringMatching(/"count\/other" has no generator/)],
    ]);
  });

  it('turns a generator that throws into a finding at its input', () => {
    const broken = defineGenerator({
      id: 'broken',
      summary: 's',
      inputs: ['spec/x.json'],
      generate: () => {
        throw new Error('boom');
      },
    });
    const plan = planGeneration(corpusFromFiles('/r', {}), [broken]);
    expect(plan.diagnostics).toMatchObject([
      { rule: 'generate/broken', file: 'spec/x.json', message: 'generator broken failed: boom' },
    ]);
  });

  it('lets a runsLast generator see the planned outputs of the others', () => {
    const digest = defineGenerator({
      id: 'digest',
      summary: 's',
      inputs: [],
      runsLast: true,
      generate: (_corpus, _report, context) => [
        { path: 'spec/v2/digest.txt', content: String(context.contentOf('spec/v2/things.index.json')) },
      ],
    });
    const plan = planGeneration(
      corpusFromFiles('/r', {
        'spec/v2/things.json': '{"things": ["x"]}',
        'spec/v2/core/a.md': docWithRegions('**1**', ''),
      }),
      [digest, things],
    );
    expect(plan.files.find((f) => f.path === 'spec/v2/digest.txt')?.after).toBe('{\n  "count": 1\n}\n');
  });

  describe('a file generated whole, under a "Generated from … do not edit" line', () => {
    /** Rows code | status | retriable, in the manner of errors-doc; the file may keep fewer columns. */
    const codes: Generator = defineGenerator({
      id: 'codes',
      summary: 'codes table',
      inputs: ['spec/v2/codes.json'],
      generate(corpus) {
        const registry = corpus.data('spec/v2/codes.json')?.value as { rows: Array<[string, number]> };
        const table = renderTable(
          ['Code', 'Status', 'Retriable'],
          registry.rows.map(([code, status]) => [`\`${code}\``, String(status), 'no']),
        );
        return [
          ...regionOutputs(corpus, 'codes/table', table, ['spec/v2/codes.json']),
          {
            path: 'spec/v2/core/headers.md',
            region: 'codes/headers',
            content: renderTable(['Header'], [['`A`']]),
            undecided: ['`B`'],
          },
        ];
      },
    });
    const page = (rows: string) =>
      `# Codes\n\n> **Status: Stable.** Generated from \`spec/v2/codes.json\` by \`scripts/generate-codes.mjs\`; do not edit.\n\nCode | Status\n--- | ---\n${rows}\nThe end.\n`;
    const registry = JSON.stringify({
      rows: [
        ['bad_input', 400],
        ['not_found', 404],
        ['gone', 410],
      ],
    });
    const current = page('`bad_input` | 400\n`not_found` | 404\n`gone` | 410\n');
    const headers =
      '# Headers\n\n> **Status: Stable.** Generated from `api/v2/openapi.yaml` by `scripts/derive.py`; do not edit.\n\n| Header |\n| --- |\n| `A` |\n| `B` |\n';
    const plan = (text: string) =>
      planGeneration(
        corpusFromFiles('/r', {
          'spec/v2/codes.json': registry,
          'spec/v2/generated/codes.md': text,
          'spec/v2/core/headers.md': headers,
        }),
        [codes],
      );

    it('is current when its table has the generated rows, cut to its own columns and written in its style', () => {
      expect(plan(current).diagnostics).toEqual([]);
      expect(driftDiagnostics(plan(current))).toEqual([]);
    });

    it('names each row that differs, is missing or is extra, at its line, and generate rewrites only the rows', () => {
      const stale = page('`bad_input` | 422\n`gone` | 410\n`teapot` | 418\n');
      const result = plan(stale);
      expect(driftDiagnostics(result).map((d) => `${d.line} ${d.message}`)).toEqual([
        '7 stale generated content: row `bad_input` (line 7) differs from what codes produces; expected: `bad_input` | 400',
        '8 stale generated content: codes produces a row `not_found` here that is missing; expected: `not_found` | 404',
        '9 stale generated content: row `teapot` is not in what codes produces; expected no such row',
      ]);
      expect(result.files.find((file) => file.path === 'spec/v2/generated/codes.md')?.after).toBe(current);
    });

    it("takes another generator's layout for what it is: rows in its own order, codes without backticks, an older banner, no finding", () => {
      const older = `# Codes\n\n<!-- GENERATED by scripts/old-codes.mjs from spec/v2/codes.json. DO NOT EDIT. -->\n\nCode | Status\n--- | ---\ngone | 410\nbad_input | **400**\nnot_found | 404\n\nThe end.\n`;
      expect(driftDiagnostics(plan(older))).toEqual([]);
      const wrong = older.replace('not_found | 404', 'not_found | 405').replace('gone | 410\n', '');
      expect(driftDiagnostics(plan(wrong)).map((d) => `${d.line} ${d.message.split(';')[0]}`)).toEqual([
        '8 stale generated content: row not_found (line 8) differs from what codes produces',
        // A missing row goes after the row the generator writes before it.
        '9 stale generated content: codes produces a row `gone` here that is missing',
      ]);
    });

    it('leaves a row the generator could not decide (and has reported) as it is', () => {
      expect(result(headers)).toBe(headers);
      function result(text: string) {
        return planGeneration(
          corpusFromFiles('/r', {
            'spec/v2/codes.json': registry,
            'spec/v2/generated/codes.md': current,
            'spec/v2/core/headers.md': text,
          }),
          [codes],
        ).files.find((file) => file.path === 'spec/v2/core/headers.md')?.after;
      }
    });

    it('says so when the file has no table with the generated columns', () => {
      const found = plan(page('').replace('Code | Status\n--- | ---\n', 'Name | Status\n--- | ---\n')).diagnostics;
      expect(found.map((d) => `${d.rule} ${d.file}:${d.line} ${d.message}`)).toEqual([
        'generated/region spec/v2/generated/codes.md:3 spec/v2/generated/codes.md is generated from spec/v2/codes.json, but has no table with the columns Code | Status | Retriable that codes produces for it (codes/table)',
      ]);
    });
  });
});
