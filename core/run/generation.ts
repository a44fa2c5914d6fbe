/**
 * Runs generators over the model and composes their outputs into file contents. `generate`
 * writes the result; `check` and `generate --check` compare it with the disk (the drift gate).
 * One path for both, so a check can never pass on output that generation would change.
 */
import type { Corpus, MarkdownFile } from '../model/index.js';
import { isRegionContent, type GenerationContext, type Generator } from './define.js';
import { collector, type Diagnostic, type Report } from '../output/index.js';
import { timed } from './engine.js';

export const DRIFT_RULE = { id: 'generated/drift', summary: 'A generated file or region matches what its generator produces from the registries', severity: 'error' } as const;
export const REGION_RULE = { id: 'generated/region', summary: 'Generated-region markers are well formed, and each region has a generator that owns it', severity: 'error' } as const;

export interface PlannedFile {
  path: string;
  /** undefined when the file does not exist yet. */
  before: string | undefined;
  after: string;
  generators: string[];
}

export interface GenerationPlan {
  /** Every file some generator owns or writes into, changed or not. */
  files: PlannedFile[];
  diagnostics: Diagnostic[];
}

export function planGeneration(corpus: Corpus, generators: readonly Generator[]): GenerationPlan {
  const diagnostics: Diagnostic[] = [];
  const regionReport = collector(REGION_RULE.id, REGION_RULE.severity, diagnostics);
  const planned = new Map<string, PlannedFile>();
  const ownedRegions = new Map<string, Set<string>>();
  const context: GenerationContext = {
    contentOf(file) {
      const plannedFile = planned.get(file);
      if (plannedFile) return plannedFile.after;
      const existing = corpus.get(file);
      if (!existing) return undefined;
      return existing.kind === 'binary' ? existing.bytes : existing.text;
    },
    plannedPaths: () => [...planned.keys()],
  };

  // Generators that digest other outputs (runsLast) see them through `context`.
  for (const stage of [generators.filter((g) => !g.runsLast), generators.filter((g) => g.runsLast)]) {
    const { wholeFiles, regionContents } = runStage(corpus, stage, context, diagnostics);
    for (const [file, { content, generator }] of wholeFiles) {
      if (planned.has(file)) {
        regionReport({ file, message: `${file} is produced by ${generator} and also written by ${planned.get(file)?.generators.join(', ')}` });
        continue;
      }
      const existing = corpus.get(file);
      const before = existing && existing.kind !== 'binary' ? existing.text : undefined;
      planned.set(file, { path: file, before, after: content, generators: [generator] });
    }
    for (const [file, owned] of regionContents) {
      ownedRegions.set(file, new Set([...(ownedRegions.get(file) ?? []), ...owned.keys()]));
      const markdown = corpus.markdown(file);
      if (!markdown) {
        regionReport({ file, message: `generators write regions into ${file}, which is not a markdown file of the corpus` });
        continue;
      }
      if (planned.has(file)) {
        regionReport({ file, message: `${file} has regions from generators of two stages; a file is written by one stage only` });
        continue;
      }
      const after = spliceRegions(markdown, owned, regionReport);
      planned.set(file, { path: file, before: markdown.text, after, generators: [...new Set([...owned.values()].map((v) => v.generator))].sort() });
    }
  }

  for (const markdown of corpus.markdownFiles()) {
    for (const problem of markdown.regionProblems) regionReport({ file: markdown.path, ...problem });
    const owned = ownedRegions.get(markdown.path);
    for (const region of markdown.regions) {
      if (!owned?.has(region.id)) {
        regionReport({
          file: markdown.path,
          line: region.open.line,
          column: region.open.column,
          severity: 'warning',
          message: `generated region "${region.id}" has no generator; its content is maintained by hand until one owns it`,
          hint: 'check the region id, or add a generator that produces it',
        });
      }
    }
  }

  const files = [...planned.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, diagnostics };
}

type Owned = Map<string, { content: string; generator: string }>;

function runStage(corpus: Corpus, generators: readonly Generator[], context: GenerationContext, diagnostics: Diagnostic[]) {
  const wholeFiles: Owned = new Map();
  const regionContents = new Map<string, Owned>();
  for (const generator of generators) {
    const report = collector(`generate/${generator.id}`, 'error', diagnostics);
    let outputs;
    try {
      outputs = timed(`generate/${generator.id}`, () => generator.generate(corpus, report, context));
    } catch (error) {
      report({ file: generator.inputs[0] ?? '.', message: `generator ${generator.id} failed: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    for (const output of outputs) {
      if (isRegionContent(output)) {
        const perFile: Owned = regionContents.get(output.path) ?? new Map();
        const previous = perFile.get(output.region);
        if (previous && previous.content !== output.content) {
          report({ file: output.path, message: `region ${output.region} is produced by both ${previous.generator} and ${generator.id}` });
        }
        perFile.set(output.region, { content: output.content, generator: generator.id });
        regionContents.set(output.path, perFile);
      } else {
        const previous = wholeFiles.get(output.path);
        if (previous) report({ file: output.path, message: `${output.path} is produced by both ${previous.generator} and ${generator.id}` });
        wholeFiles.set(output.path, { content: output.content, generator: generator.id });
      }
    }
  }
  return { wholeFiles, regionContents };
}

function spliceRegions(markdown: MarkdownFile, owned: Owned, report: Report): string {
  const present = new Set(markdown.regions.map((region) => region.id));
  for (const [id, { generator }] of owned) {
    if (!present.has(id)) {
      report({
        file: markdown.path,
        message: `generator ${generator} owns region "${id}", but ${markdown.path} has no such region`,
        hint: `add <!-- generated: ${id} --> and <!-- /generated: ${id} --> where it belongs`,
      });
    }
  }
  let text = markdown.text;
  const ordered = [...markdown.regions].sort((a, b) => b.contentStart - a.contentStart);
  for (const region of ordered) {
    const output = owned.get(region.id);
    if (!output) continue;
    let content = output.content;
    if (region.kind === 'block') {
      if (content !== '' && !content.endsWith('\n')) content += '\n';
    } else {
      content = content.replace(/\s*\n\s*/g, ' ');
    }
    text = text.slice(0, region.contentStart) + content + text.slice(region.contentEnd);
  }
  return text;
}

/** The drift gate: one finding per stale or missing output, at its first differing line. */
export function driftDiagnostics(plan: GenerationPlan): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const report = collector(DRIFT_RULE.id, DRIFT_RULE.severity, diagnostics);
  for (const file of plan.files) {
    if (file.before === file.after) continue;
    const by = file.generators.join(', ');
    if (file.before === undefined) {
      report({ file: file.path, message: `${file.path} is missing; generator ${by} produces it`, hint: 'run `openwop-spec generate`' });
      continue;
    }
    const line = firstDifferingLine(file.before, file.after);
    const expected = file.after.split('\n')[line - 1];
    report({
      file: file.path,
      line,
      column: 1,
      message: `stale generated content: line ${line} differs from what ${by} produces${expected === undefined ? ' (the generated text is shorter)' : `; expected: ${truncate(expected)}`}`,
      hint: 'generated text is not edited by hand: change the registry it comes from, then run `openwop-spec generate`',
    });
  }
  return diagnostics;
}

export function firstDifferingLine(before: string, after: string): number {
  const a = before.split('\n');
  const b = after.split('\n');
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) if (a[i] !== b[i]) return i + 1;
  return length;
}

function truncate(text: string): string {
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}
