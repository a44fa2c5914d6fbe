/**
 * The run's reuse between successive models (core/run/reuse.ts), as the language server drives it
 * (scripts/lsp-run.ts over lsp/workspace.ts): after each edit of a sequence, the run handed the
 * previous result reports exactly what a fresh run reports for the same model, and it kept the
 * findings of the gates the edit cannot change.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { recordingView, Reuse, SharedServices, type RunMemo, type Reads } from '../../core/run/reuse.js';
import { defineService, type Corpus } from '../../core/model/index.js';
import { Workspace } from '../../lsp/workspace.js';
import { corpusRun } from '../../scripts/lsp-run.js';
import { copyFixture } from '../helpers.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const A = 'spec/v2/core/a.md';
const B = 'spec/v2/core/b.md';
const THINGS = 'spec/v2/things.json';

/** The findings as the report gives them, without the run's memo. */
function diagnosticsJson(result: { diagnostics: unknown[] }): string {
  return JSON.stringify(result.diagnostics);
}

function memoOf(result: { pipeline?: { memo?: RunMemo } }): RunMemo {
  const memo = result.pipeline?.memo;
  if (!memo) throw new Error('the run kept no memo');
  return memo;
}

describe('a run handed the previous result', () => {
  it('reports what a fresh run reports after each edit of a sequence, and keeps the findings of gates the edit does not touch', () => {
    const root = copyFixture('good');
    roots.push(root);
    const run = corpusRun(root);
    const workspace = new Workspace(root, run.config);
    const text = (file: string): string => {
      const found = workspace.corpus.get(file);
      if (!found || found.kind === 'binary') throw new Error(`${file} is not a text file of the corpus`);
      return found.text;
    };
    const a = text(A);
    const b = text(B);
    const things = text(THINGS);
    let last = run.run(workspace.corpus);
    expect(last.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    const steps: Array<{ file: string; text: string; fires?: string }> = [
      // A heading cited from another document renamed: the citing document's findings change.
      { file: B, text: b.replace('## Some heading', '## Another heading'), fires: 'links/section-ref' },
      { file: B, text: b },
      // A link broken, then restored.
      {
        file: A,
        text: a.replace('Alpha depends on [b.md](b.md)', 'Alpha depends on [b.md](missing.md)'),
        fires: 'links/file',
      },
      { file: A, text: a },
      // A data file that stops parsing (what follows from it is left out, cascade.ts), then parses again.
      { file: THINGS, text: things.replace('"two"]', '"two",'), fires: 'corpus/parse' },
      { file: THINGS, text: things },
    ];
    for (const step of steps) {
      workspace.setText(step.file, step.text);
      const reused = run.run(workspace.corpus, { previous: last });
      const fresh = run.run(workspace.corpus);
      expect(diagnosticsJson(reused)).toBe(diagnosticsJson(fresh));
      if (step.fires) expect(reused.diagnostics.map((d) => d.rule)).toContain(step.fires);
      else expect(reused.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
      // Some gate's findings were kept from the previous run (the same record), and some gate ran again.
      const before = memoOf(last);
      const after = memoOf(reused);
      const kept = [...after.checks].filter(([key, entry]) => before.checks.get(key) === entry);
      expect(kept.length).toBeGreaterThan(0);
      expect(kept.length).toBeLessThan(after.checks.size);
      last = reused;
    }
  });

  it('a run with other options keeps nothing', () => {
    const root = copyFixture('good');
    roots.push(root);
    const first = corpusRun(root);
    const workspace = new Workspace(root, first.config);
    const previous = first.run(workspace.corpus);
    // Another configuration of the same root: its options are other objects.
    const again = corpusRun(root).run(workspace.corpus, { previous });
    const before = memoOf(previous);
    expect([...memoOf(again).checks].filter(([key, entry]) => before.checks.get(key) === entry)).toEqual([]);
  });
});

describe('the recording view', () => {
  it('records the files looked up, the kinds iterated and the listing, and answers as the model does', () => {
    const root = copyFixture('good');
    roots.push(root);
    const run = corpusRun(root);
    const corpus: Corpus = new Workspace(root, run.config).corpus;
    const reads: Reads = {
      paths: new Set(),
      all: false,
      kinds: new Set(),
      listing: false,
      irregular: false,
      uses: new Set(),
    };
    const view = recordingView(corpus, reads);
    expect(view.markdown(A)).toBe(corpus.markdown(A));
    expect(view.data(THINGS)).toBe(corpus.data(THINGS));
    expect(view.exists('spec/v2/nowhere.md')).toBe(false);
    expect(reads).toEqual({
      paths: new Set([A, THINGS, 'spec/v2/nowhere.md']),
      all: false,
      kinds: new Set(),
      listing: false,
      irregular: false,
      uses: new Set(),
    });
    expect(view.markdownFiles().map((f) => f.path)).toEqual(corpus.markdownFiles().map((f) => f.path));
    expect([...reads.kinds]).toEqual(['markdown']);
    expect([...view.files.keys()]).toEqual([...corpus.files.keys()]);
    expect(reads.listing).toBe(true);
    expect(reads.all).toBe(false);
    expect(new Map(view.files).size).toBe(corpus.files.size);
    expect(reads.all).toBe(true);
  });

  it('builds a service once for every view of a run and charges each asker with what the service read', () => {
    const root = copyFixture('good');
    roots.push(root);
    const corpus: Corpus = new Workspace(root, corpusRun(root).config).corpus;
    let builds = 0;
    const Titles = defineService('titles', (model: Corpus) => {
      builds++;
      return model.markdown(A)?.text.split('\n')[0];
    });
    const services = new SharedServices(corpus);
    const none = (): Reads => ({
      paths: new Set(),
      all: false,
      kinds: new Set(),
      listing: false,
      irregular: false,
      uses: new Set(),
    });
    const first = none();
    const second = none();
    const one = recordingView(corpus, first, services).service(Titles);
    const other = recordingView(corpus, second, services).service(Titles);
    expect(one).toBe(other);
    expect(one).toBe(corpus.markdown(A)?.text.split('\n')[0]);
    expect(builds).toBe(1);
    // Neither asker read the file itself; each is charged with the service's read of it.
    expect(first.paths.size + second.paths.size).toBe(0);
    const [used] = [...first.uses];
    expect(used?.paths).toEqual(new Set([A]));
    expect([...second.uses]).toEqual([used]);
  });

  it('keeps a service for the next run when the edit misses what it read, and builds it again when the edit touches that', () => {
    const root = copyFixture('good');
    roots.push(root);
    const workspace = new Workspace(root, corpusRun(root).config);
    let builds = 0;
    const FirstLine = defineService('first line of a', (model: Corpus) => {
      builds++;
      return model.markdown(A)?.text.split('\n')[0];
    });
    const basis = [{}];
    const ask = (memo?: RunMemo) => {
      const reuse = new Reuse(workspace.corpus, basis, memo);
      return { value: reuse.view('gate', workspace.corpus).service(FirstLine), memo: reuse.next };
    };
    const first = ask();
    // B is edited: what the service read (A) is untouched, so the next run takes it as it was.
    workspace.setText(B, `${workspace.corpus.markdown(B)?.text ?? ''}\nMore.\n`);
    const second = ask(first.memo);
    expect(builds).toBe(1);
    expect(second.value).toBe(first.value);
    // A is edited: the service is built again, over the new text.
    workspace.setText(A, `# Renamed\n${workspace.corpus.markdown(A)?.text ?? ''}`);
    const third = ask(second.memo);
    expect(builds).toBe(2);
    expect(third.value).toBe('# Renamed');
  });
});
