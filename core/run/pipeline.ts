/**
 * The run: the one pipeline every verb calls (`check`, `check FILE…`, `check --fix`, `--fix-dry-run`,
 * `generate`, `stamp`, `pack`'s refusal) and a language server can call over an in-memory corpus
 * (unsaved edits included: build the Corpus from their text). It reads nothing from the disk and
 * writes nothing; the caller loads the corpus, and writes what `fixCorpus` (fix-loop.ts) returns.
 * The options are what the config and the command line make of a run; scripts/run-setup.ts
 * (`configureRun`) builds them for the verbs, and a language server can take them from there too,
 * then call `runCorpus(withContents(corpus, unsaved), options)` on every change.
 *
 * The stages, in order. This list is the one place a stage is added:
 *
 *   evaluate      plan generation, drift, the gates (one pass over one model)
 *   cascade       a parse failure first, and what only follows from it left out (cascade.ts)
 *   relocate      a finding inside generated text moved to its source (relocate.ts)
 *   scope         file arguments: the findings of the named files and their dependents (scope.ts)
 *   fingerprints  each finding's rule, file and located text, hashed (fingerprint.ts)
 *   suppressions  in-source and external suppressions, and the findings about them (suppressions.ts)
 *   severities    the config's severity for each rule, and its `off` (the only place either is applied)
 *   baseline      a findings baseline: only new findings fail (findings-baseline.ts)
 *
 * Severities come before the baseline because the baseline records the severity a finding is
 * reported at. What is left to the caller is presentation: `--quiet`, the reporter, the exit code.
 */
import type { RuleSetting } from '../config/index.js';
import type { Corpus } from '../model/index.js';
import { isActive, sortDiagnostics, type Diagnostic } from '../output/index.js';
import { causeFirst, parseFailuresFirst } from './cascade.js';
import type { Check, Generator } from './define.js';
import { prepareChecks, runChecks, type RunOptions } from './engine.js';
import { compareWithBaseline, type BaselineEntry } from './findings-baseline.js';
import { withFingerprints } from './fingerprint.js';
import { DRIFT_RULE, driftDiagnostics, planGeneration, REGION_RULE, type GenerationPlan } from './generation.js';
import { relocateGenerated } from './relocate.js';
import { dependentScope } from './scope.js';
import { withFileOptions, type SettingsFor } from './overrides.js';
import { applySuppressions } from './suppressions.js';
import { Reuse, type RunMemo } from './reuse.js';

/** The rule id of a generator's own findings (it cannot read its registry, say): `generate/<id>`. */
export function generatorRule(generator: Pick<Generator, 'id'>): string {
  return `generate/${generator.id}`;
}

/** What the run runs: the tool's gates, generators and every rule a finding can carry. */
export interface Catalog {
  checks: readonly Check[];
  /** In the order they run (the ones that digest every file last). */
  generators: readonly Generator[];
  /** Every rule id a finding can carry, and whether its findings may carry a fix. */
  rules: ReadonlyArray<{ id: string; fixable?: boolean }>;
  /**
   * The files whose findings can change with the named ones beyond what links, `$ref`s and
   * generation show: the documents that mention a registry's entries. Supplied by the registries
   * layer, which this one may not import.
   */
  mentionDependents?: (corpus: Corpus, files: ReadonlySet<string>) => Iterable<string>;
}

export interface PipelineOptions {
  catalog: Catalog;
  /** The rules that run: chosen (`--rule`) and not turned off. */
  ran: ReadonlySet<string>;
  /** Per rule, from the config: whether it is on, its severity and options. Absent: the defaults. */
  settings: ReadonlyMap<string, RuleSetting>;
  /** Per file, when the config's `overrides` give some files other settings (overrides.ts). */
  settingsFor?: SettingsFor;
  previousRelease?: string;
  /** The external suppressions file (root-relative) and its text, when there is one. */
  suppressions?: { path: string; text: string };
  /** Today's date in UTC, YYYY-MM-DD (suppression expiry). */
  today: string;
  /** A findings baseline: what it records is accepted, only new findings fail. */
  baseline?: readonly BaselineEntry[];
  /** File arguments (root-relative): report only on these and what depends on them. */
  files?: ReadonlySet<string>;
  /**
   * Successive runs over one corpus as it is edited (a language server): the run records what each
   * gate and generator reads, and given the previous result (of a run with the same options) runs
   * again only those whose reads the changes touch (reuse.ts). `changed`: paths the caller knows
   * changed outside the model (files on disk that are not corpus files); the model's own changes
   * are found by comparing it with the previous one. The findings are those of a run without it.
   */
  reuse?: { previous?: RunResult; changed?: Iterable<string> };
}

export interface RunResult {
  corpus: Corpus;
  /** The generation plan of this corpus; undefined when no generation rule ran. */
  plan: GenerationPlan | undefined;
  /** Judged, in report order (parse failures first). */
  diagnostics: Diagnostic[];
  /** Under file arguments: the files judged (the named ones and their dependents). */
  scope?: ReadonlySet<string>;
  /** Under `reuse`: what the next run over an edited model can keep. */
  memo?: RunMemo;
}

/** Every stage but presentation, over one corpus model. */
export function runCorpus(corpus: Corpus, options: PipelineOptions): RunResult {
  const reuse = options.reuse
    ? new Reuse(corpus, reuseBasis(options), options.reuse.previous?.memo, options.reuse.changed)
    : undefined;
  const { diagnostics: found, plan } = evaluate(corpus, options, reuse);
  const planned = plan ?? planGeneration(corpus, options.catalog.generators);
  const caused = causeFirst(corpus, found, {
    derivedFrom: derivedFrom(planned, options.catalog.generators),
    rerun: rerunOver(options),
  });
  const located = relocateGenerated(corpus, caused, planned, options.catalog.generators);
  const scope = options.files ? filesJudged(corpus, options.files, planned, options.catalog) : undefined;
  const scoped = scope
    ? located.filter((d) => scope.has(d.file) || d.related?.some((r) => scope.has(r.file)))
    : located;
  const suppressed = applySuppressions(corpus, withFingerprints(corpus, scoped), {
    today: options.today,
    ran: options.ran,
    known: new Set(options.catalog.rules.map((rule) => rule.id)),
    ...(options.suppressions ? { file: options.suppressions } : {}),
    ...(scope ? { inScope: (file: string) => scope.has(file) } : {}),
  });
  const judged = applySeverities(withFingerprints(corpus, suppressed), options.settings, options.settingsFor);
  return {
    corpus,
    plan,
    diagnostics: judgedAgainst(judged, options.baseline),
    ...(scope ? { scope } : {}),
    ...(reuse ? { memo: reuse.next } : {}),
  };
}

/** What a run's kept findings depend on besides the model: the same objects, or nothing is kept. */
function reuseBasis(options: PipelineOptions): unknown[] {
  return [options.catalog, options.ran, options.settings, options.settingsFor, options.previousRelease];
}

/** The last stage: findings compared with a baseline when there is one, in reporting order. `check --update` calls it again with the baseline it has just written. */
export function judgedAgainst(
  diagnostics: readonly Diagnostic[],
  baseline: readonly BaselineEntry[] | undefined,
): Diagnostic[] {
  return parseFailuresFirst(sortDiagnostics(baseline ? compareWithBaseline(diagnostics, baseline) : [...diagnostics]));
}

/** The files `check FILE…` judges: the named ones and the files whose findings depend on them. */
function filesJudged(
  corpus: Corpus,
  files: ReadonlySet<string>,
  plan: GenerationPlan | undefined,
  catalog: Catalog,
): Set<string> {
  const scope = dependentScope(corpus, files, plan, catalog.generators);
  for (const file of catalog.mentionDependents?.(corpus, scope) ?? []) scope.add(file);
  return scope;
}

/**
 * The config's word on each finding's rule, applied once for every rule a finding can carry
 * (gates, generation, suppressions): a rule turned off says nothing, a severity set is the
 * severity of every finding of the rule.
 */
function applySeverities(
  diagnostics: readonly Diagnostic[],
  settings: ReadonlyMap<string, RuleSetting>,
  settingsFor?: SettingsFor,
): Diagnostic[] {
  return diagnostics.flatMap((d) => {
    const setting = (settingsFor ? settingsFor(d.file) : settings).get(d.rule);
    if (setting && !setting.enabled) return [];
    return [setting?.configured && setting.severity !== d.severity ? { ...d, severity: setting.severity } : d];
  });
}

/** Whether the run plans generation: a generation rule (drift, regions, a generator's own) runs. */
function plansGeneration(options: Pick<PipelineOptions, 'ran' | 'catalog'>): boolean {
  return (
    options.ran.has(DRIFT_RULE.id) ||
    options.ran.has(REGION_RULE.id) ||
    options.catalog.generators.some((g) => options.ran.has(generatorRule(g)))
  );
}

function engineOptions(options: PipelineOptions): RunOptions {
  return {
    ...(options.previousRelease ? { previousRelease: options.previousRelease } : {}),
    settings: options.settings,
  };
}

/** Stage 1: the findings of one pass over the model, and the generation plan it made. */
function evaluate(
  corpus: Corpus,
  options: PipelineOptions,
  reuse: Reuse | undefined,
): { diagnostics: Diagnostic[]; plan: GenerationPlan | undefined } {
  const checks = options.catalog.checks.filter((check) => options.ran.has(check.id));
  const diagnostics: Diagnostic[] = [];
  let plan: GenerationPlan | undefined;
  // Before generation is planned, so that background work (schemas compiling) overlaps it too.
  prepareChecks(corpus, checks, engineOptions(options), reuse);
  if (plansGeneration(options)) {
    plan = planGeneration(corpus, options.catalog.generators, reuse);
    diagnostics.push(...generationFindings(plan, options));
    if (options.ran.has(DRIFT_RULE.id)) diagnostics.push(...driftDiagnostics(plan, options.catalog.generators));
  }
  const found = runChecks(corpus, checks, engineOptions(options), reuse);
  const { settingsFor } = options;
  diagnostics.push(
    ...(settingsFor
      ? withFileOptions(
          corpus,
          found,
          options.settings,
          settingsFor,
          new Set(checks.map((check) => check.id)),
          (rule, settings) =>
            runChecks(
              corpus,
              checks.filter((check) => check.id === rule),
              { ...engineOptions(options), settings },
              reuse,
            ),
        )
      : found),
  );
  return { diagnostics: sortDiagnostics(diagnostics), plan };
}

/** The plan's own findings the run reports: region markers when that rule runs, a generator's when it or drift runs. */
function generationFindings(plan: GenerationPlan, options: PipelineOptions): Diagnostic[] {
  return plan.diagnostics.filter((d) =>
    d.rule === REGION_RULE.id
      ? options.ran.has(REGION_RULE.id)
      : options.ran.has(d.rule) || options.ran.has(DRIFT_RULE.id),
  );
}

/** Each generated output and what its generators read (`*`: every file). */
function derivedFrom(plan: GenerationPlan, generators: readonly Generator[]): Map<string, string[]> {
  const inputs = new Map(generators.map((g) => [g.id, g.runsLast ? ['*'] : g.inputs]));
  return new Map(plan.files.map((file) => [file.path, file.generators.flatMap((id) => inputs.get(id) ?? [])]));
}

/** The findings the named rules give over another reading of the corpus (its broken files read as far as they go). */
function rerunOver(options: PipelineOptions) {
  return (corpus: Corpus, rules: ReadonlySet<string>): Diagnostic[] => {
    const again = runChecks(
      corpus,
      options.catalog.checks.filter((check) => rules.has(check.id)),
      engineOptions(options),
    );
    // A generator's own findings (a region with no generator, a registry it cannot read) come from planning.
    if (
      [...rules].some((rule) => !options.catalog.checks.some((check) => check.id === rule) && rule !== DRIFT_RULE.id)
    ) {
      again.push(...generationFindings(planGeneration(corpus, options.catalog.generators), options));
    }
    return again;
  };
}

/** The rule of a required file the corpus lacks (the corpus/required gate's). */
const REQUIRED_RULE_ID = 'corpus/required';

/** The rules `generate` and `stamp` answer to: drift, region markers, each generator's own, and the required files. */
export function generationRules(catalog: Pick<Catalog, 'generators'>): Set<string> {
  return new Set([DRIFT_RULE.id, REGION_RULE.id, REQUIRED_RULE_ID, ...catalog.generators.map(generatorRule)]);
}

/** What `generate`, `generate --check` and `stamp` work from: the one run, over the generation rules alone. */
export interface GenerationRun {
  /** The run (every stage: the config's severities and `off`, suppressions, the findings baseline). */
  result: RunResult;
  plan: GenerationPlan;
  /** The findings of the generation rules as `check` reports them; `generate --check` fails on what of them fails `check`. */
  findings: Diagnostic[];
  /**
   * Of those, what stops any output being written (half a regeneration is worse than none): a
   * generator's or the regions' error, or a required file missing that no generator writes
   * (output over a corpus without it would digest less than the corpus is). Drift is not: it is
   * what writing repairs.
   */
  blocking: Diagnostic[];
}

/**
 * The pipeline run for the generation verbs: the generation rules, whatever the config's choice
 * of gates (`generate` writes every output even when the config turns drift off; findings of a
 * rule turned off are left out as in every run), over the whole corpus.
 */
export function runGeneration(corpus: Corpus, options: PipelineOptions): GenerationRun {
  const ran = generationRules(options.catalog);
  const { files: _whole, ...whole } = options;
  const result = runCorpus(corpus, { ...whole, ran });
  const plan = result.plan ?? planGeneration(corpus, options.catalog.generators);
  const findings = result.diagnostics.filter((d) => ran.has(d.rule));
  const written = new Set(plan.files.map((file) => file.path));
  const blocking = findings.filter(
    (d) =>
      isActive(d) &&
      d.severity === 'error' &&
      d.rule !== DRIFT_RULE.id &&
      !(d.rule === REQUIRED_RULE_ID && written.has(String(d.data?.file))),
  );
  return { result, plan, findings, blocking };
}
