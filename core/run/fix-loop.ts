/**
 * `check --fix` and `--fix-dry-run`, worked out in memory to a fixed point: apply the fixes the
 * run's findings carry, regenerate every generated output that is stale (stale before or made
 * stale by the fixes: generation is a function of the sources, so there is one right content),
 * run again over the result, and repeat until a pass changes nothing. A fix that only moves the
 * text to where another applies, or two fixes that overlap, take more passes; the passes are
 * bounded, as a linter bounds its fix passes, and the bound reached is a finding.
 *
 * The outcome is the bytes of every file that changed, which the caller writes as one set (or
 * prints as a patch: the same bytes), and the run over exactly those bytes: the stamp in it digests
 * what is written, and a second `--fix` finds nothing to do.
 */
import { Corpus, parseFile, type CorpusFile } from '../model/index.js';
import { encodeText, type Diagnostic } from '../output/index.js';
import { coreReport, type CoreRule } from './define.js';
import { applyFixes } from './fixes.js';
import { DRIFT_RULE, planGeneration, plannedContent, type GenerationPlan } from './generation.js';
import { runCorpus, type PipelineOptions, type RunResult } from './pipeline.js';

/** Passes of fixes and regeneration before `--fix` gives up (ESLint stops at 10). */
const MAX_FIX_PASSES = 10;

export const FIX_RULE = {
  id: 'fix/converges',
  summary: '`check --fix` reaches a state its fixes and generators leave alone within a bounded number of passes',
  severity: 'error',
  messages: {
    'no-fixed-point': '--fix still changed {{files}} after {{passes}} passes: its fixes or generators do not settle',
  },
} as const satisfies CoreRule;

interface FileChange {
  path: string;
  /** The text before (undefined: a file the run creates) and after. */
  before: string | undefined;
  after: string;
  /** The bytes to write: the text in the style of the file it replaces. */
  content: Buffer;
}

export interface FixOutcome {
  /** The run over the fixed corpus: what remains. */
  result: RunResult;
  /** Every file whose bytes change, in path order. */
  files: FileChange[];
  /** Fixes applied, over all passes, and the files they changed. */
  fixes: number;
  fixedFiles: number;
  /** Generated files brought up to date. */
  regenerated: number;
  passes: number;
  /** Generation was held back because a generator reports errors (half a regeneration is worse than none). */
  generationBlocked: boolean;
}

export function fixCorpus(corpus: Corpus, options: PipelineOptions): FixOutcome {
  const regenerate = options.ran.has(DRIFT_RULE.id);
  const changed = new Map<string, Buffer>();
  const fixedFiles = new Set<string>();
  const regenerated = new Set<string>();
  let fixes = 0;
  let generationBlocked = false;
  let current = corpus;
  let result = runCorpus(current, options);
  let passes = 0;
  for (;;) {
    const fixed = fixesOf(current, result.diagnostics);
    let next = fixed.contents.size > 0 ? withContents(current, fixed.contents) : current;
    // The plan of the run is the plan of `next` when no fix changed anything.
    const plan = regenerate
      ? ((next === current ? result.plan : undefined) ?? planGeneration(next, options.catalog.generators))
      : undefined;
    const outputs = plan ? staleOutputs(plan) : new Map<string, Buffer>();
    generationBlocked = plan ? plan.diagnostics.some((d) => d.severity === 'error') : false;
    if (generationBlocked) outputs.clear();
    if (fixed.contents.size === 0 && outputs.size === 0) break;
    if (passes === MAX_FIX_PASSES) {
      result = { ...result, diagnostics: [notConverging(fixed.contents, outputs), ...result.diagnostics] };
      break;
    }
    passes++;
    fixes += fixed.applied;
    for (const file of fixed.contents.keys()) fixedFiles.add(file);
    for (const file of outputs.keys()) regenerated.add(file);
    if (outputs.size > 0) next = withContents(next, outputs);
    for (const [file, bytes] of [...fixed.contents, ...outputs]) changed.set(file, bytes);
    current = next;
    result = runCorpus(current, options);
  }
  return {
    result,
    files: changes(corpus, current, changed),
    fixes,
    fixedFiles: fixedFiles.size,
    regenerated: regenerated.size,
    passes,
    generationBlocked,
  };
}

/** The fixes of the findings that count (a suppressed finding was accepted as it is), applied per file. */
function fixesOf(
  corpus: Corpus,
  diagnostics: readonly Diagnostic[],
): { contents: Map<string, Buffer>; applied: number } {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics)
    if (d.fix && d.suppression === undefined && d.baselineState !== 'absent')
      byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const contents = new Map<string, Buffer>();
  let applied = 0;
  for (const [file, found] of byFile) {
    const source = corpus.get(file);
    if (!source || source.kind === 'binary') continue;
    const result = applyFixes(
      source.text,
      found.flatMap((d) => (d.fix ? [d.fix] : [])),
    );
    if (result.applied === 0 || result.text === source.text) continue;
    contents.set(file, encodeText(result.text, source.style));
    applied += result.applied;
  }
  return { contents, applied };
}

/** The bytes of every planned output that differs from the file it replaces. */
function staleOutputs(plan: GenerationPlan): Map<string, Buffer> {
  return new Map(
    plan.files.filter((file) => file.before !== file.after).map((file) => [file.path, plannedContent(file)]),
  );
}

/** The corpus with these files in place of (or beside) its own; the others are the same parsed objects. */
function withContents(corpus: Corpus, contents: ReadonlyMap<string, Buffer>): Corpus {
  const files = new Map<string, CorpusFile>(corpus.files);
  for (const [file, bytes] of contents) files.set(file, parseFile(file, bytes));
  return new Corpus(corpus.root, files, corpus.cacheDir, corpus.config, corpus.irregular, corpus.irregularKinds);
}

function changes(original: Corpus, fixed: Corpus, changed: ReadonlyMap<string, Buffer>): FileChange[] {
  const out: FileChange[] = [];
  for (const [file, content] of changed) {
    const before = original.get(file);
    if (before && before.bytes.equals(content)) continue;
    const after = fixed.get(file);
    out.push({
      path: file,
      before: before && before.kind !== 'binary' ? before.text : undefined,
      after: after && after.kind !== 'binary' ? after.text : content.toString('utf8'),
      content,
    });
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function notConverging(fixed: ReadonlyMap<string, Buffer>, outputs: ReadonlyMap<string, Buffer>): Diagnostic {
  const still = [...new Set([...fixed.keys(), ...outputs.keys()])].sort();
  const found: Diagnostic[] = [];
  coreReport(
    FIX_RULE,
    found,
  )({
    file: still[0] ?? '.',
    line: 1,
    column: 1,
    messageId: 'no-fixed-point',
    data: { passes: MAX_FIX_PASSES, files: still.join(', ') },
    hint: 'the corpus was written as the last pass left it; run `openwop-spec check` to see what remains, and report the rules whose fixes keep changing the text',
  });
  return found[0] as Diagnostic;
}
