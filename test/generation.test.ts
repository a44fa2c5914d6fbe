import { describe, expect, it } from 'vitest';
import { countOutputs } from '../core/run/counts.js';
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

const doc = (count: string, table: string) =>
  `# A\n\nIt has <!-- generated: count/things -->${count}<!-- /generated: count/things --> things.\n\n<!-- generated: things/table from spec/v2/things.json; do not edit -->\n${table}<!-- /generated: things/table -->\n\nHand-written text after.\n`;
const TABLE = '| Thing |\n| --- |\n| `one` |\n| `two` |\n';

describe('generation', () => {
  it('plans nothing to change when every output is current', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": ["one", "two"]}',
      'spec/v2/core/a.md': doc('**2**', TABLE),
      'spec/v2/core/b.md': '# B\n\nAlso <!-- generated: count/things -->**2**<!-- /generated: count/things -->.\n',
      'spec/v2/things.index.json': '{\n  "count": 2\n}\n',
    });
    const plan = planGeneration(corpus, [things]);
    expect(plan.diagnostics).toEqual([]);
    expect(driftDiagnostics(plan)).toEqual([]);
    expect(plan.files.map((f) => f.path)).toEqual(['spec/v2/core/a.md', 'spec/v2/core/b.md', 'spec/v2/things.index.json']);
  });

  it('reports every differing line of a stale output at that line, and rewrites only inside the markers', () => {
    const stale = doc('**1**', '| Thing |\n| --- |\n| `one` |\n');
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": ["one", "two"]}',
      'spec/v2/core/a.md': stale,
      'spec/v2/core/b.md': '# B\n\nLine two.\n\nAlso <!-- generated: count/things -->**96**<!-- /generated: count/things -->.\n',
    });
    const plan = planGeneration(corpus, [things]);
    const drift = driftDiagnostics(plan);
    expect(drift.map((d) => `${d.file}:${d.line}`)).toEqual(['spec/v2/core/a.md:3', 'spec/v2/core/a.md:9', 'spec/v2/core/b.md:5', 'spec/v2/things.index.json:1']);
    // The count line differs; the table lacks a row, named where it would go.
    expect(drift[0]?.message).toBe('stale generated content: line 3 differs from what things produces; expected: It has <!-- generated: count/things -->**2**<!-- /generated: count/things --> things.');
    expect(drift[1]?.message).toBe('stale generated content: things produces a row `two` here that is missing; expected: | `two` |');
    expect(drift[3]?.message).toMatch(/missing/);
    const a = plan.files.find((f) => f.path === 'spec/v2/core/a.md');
    expect(a?.after).toBe(doc('**2**', TABLE));
    expect(a?.after.endsWith('Hand-written text after.\n')).toBe(true);
  });

  it('is idempotent: the planned output, planned again, changes nothing', () => {
    const files: Record<string, string> = { 'spec/v2/things.json': '{"things": ["b|c", "a"]}', 'spec/v2/core/a.md': doc('**0**', '') };
    const first = planGeneration(corpusFromFiles('/r', files), [things]);
    for (const file of first.files) files[file.path] = file.after;
    const second = planGeneration(corpusFromFiles('/r', files), [things]);
    expect(driftDiagnostics(second)).toEqual([]);
    expect(files['spec/v2/core/a.md']).toContain('| `b\\|c` |');
  });

  it('reports a region a generator owns but the document lacks, and a region no generator owns', () => {
    const corpus = corpusFromFiles('/r', {
      'spec/v2/things.json': '{"things": []}',
      'spec/v2/core/a.md': '# A\n\nNo regions here. <!-- generated: count/other -->**3**<!-- /generated: count/other -->\n',
    });
    const plan = planGeneration(corpus, [things]);
    expect(plan.diagnostics.map((d) => [d.rule, d.severity, d.message])).toEqual([
      ['generated/region', 'error', expect.stringMatching(/owns region "things\/table", but spec\/v2\/core\/a.md has no such region/)],
      ['generated/region', 'warning', expect.stringMatching(/"count\/other" has no generator/)],
    ]);
  });

  it('turns a generator that throws into a finding at its input', () => {
    const broken = defineGenerator({ id: 'broken', summary: 's', inputs: ['spec/x.json'], generate: () => { throw new Error('boom'); } });
    const plan = planGeneration(corpusFromFiles('/r', {}), [broken]);
    expect(plan.diagnostics).toMatchObject([{ rule: 'generate/broken', file: 'spec/x.json', message: 'generator broken failed: boom' }]);
  });

  it('lets a runsLast generator see the planned outputs of the others', () => {
    const digest = defineGenerator({
      id: 'digest',
      summary: 's',
      inputs: [],
      runsLast: true,
      generate: (_corpus, _report, context) => [{ path: 'spec/v2/digest.txt', content: String(context.contentOf('spec/v2/things.index.json')) }],
    });
    const plan = planGeneration(corpusFromFiles('/r', { 'spec/v2/things.json': '{"things": ["x"]}', 'spec/v2/core/a.md': doc('**1**', '') }), [digest, things]);
    expect(plan.files.find((f) => f.path === 'spec/v2/digest.txt')?.after).toBe('{\n  "count": 1\n}\n');
  });
});
