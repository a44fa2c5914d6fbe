/** Runs a set of gates over one corpus model. Knows no rule: the gates are passed in. */
import { defineService, type Corpus } from '../model/index.js';
import { matchesPattern, type RuleSetting } from '../config/index.js';
import { wordedReport, type Check, type CheckContext } from './define.js';
import { collector, placeOf, sortDiagnostics, type Diagnostic, type Report } from '../output/index.js';
import type { Reuse } from './reuse.js';

/** Milliseconds spent per gate or generator in this process, for OPENWOP_SPEC_TIMING=1. */
export const timings = new Map<string, number>();

/** The heap in use when each timed step ended, in bytes: what the step left behind (OPENWOP_SPEC_TIMING=1). */
export const heapAfter = new Map<string, number>();

export function timed<T>(id: string, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    timings.set(id, (timings.get(id) ?? 0) + performance.now() - start);
    if (process.env.OPENWOP_SPEC_TIMING) heapAfter.set(id, process.memoryUsage().heapUsed);
  }
}

export interface RunOptions {
  previousRelease?: string;
  /** Per rule: whether it runs, its severity and options (from the config); absent: its defaults. */
  settings?: ReadonlyMap<string, RuleSetting>;
}

export function runChecks(
  corpus: Corpus,
  checks: readonly Check[],
  options: RunOptions = {},
  reuse?: Reuse,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const enabled = checks.filter((check) => options.settings?.get(check.id)?.enabled !== false);
  prepareChecks(corpus, enabled, options, reuse);
  // Gates that started work in the background run last, so that it has had the others' time.
  for (const check of [...enabled.filter((c) => !c.prepare), ...enabled.filter((c) => c.prepare)]) {
    if (!reuse) {
      runOne(corpus, check, options, diagnostics);
      continue;
    }
    // Over a model that differs from the last run's in a few files: a gate whose reads they miss keeps its findings.
    diagnostics.push(...reuse.check(memoKey(check, options), corpus, (view) => runOne(view, check, options, [])));
  }
  return sortDiagnostics(diagnostics);
}

/** One gate over one model, its findings added to `diagnostics` (which is returned). */
function runOne(corpus: Corpus, check: Check, options: RunOptions, diagnostics: Diagnostic[]): Diagnostic[] {
  // The gate's default severity: the config's is applied once, by the pipeline (applySeverities).
  const report = wordedReport(check, 'gate', fixesDeclared(check, collector(check.id, check.severity, diagnostics)));
  try {
    timed(check.id, () => check.run(corpus, report, contextOf(check, options)));
  } catch (error) {
    // A gate that throws is a bug in the gate; say so as a finding rather than losing the run.
    const reason = error instanceof Error ? error.message : String(error);
    report({
      file: '.',
      messageId: GATE_FAILED,
      data: { reason },
      message: `gate ${check.id} failed: ${reason}`,
      hint: 'this is a toolchain bug; please report it',
    });
  }
  return diagnostics;
}

/** What a gate's kept findings are of: the gate, and the options and release it ran with. */
function memoKey(check: Check, options: RunOptions): string {
  return `${check.id}\0${JSON.stringify(contextOf(check, options))}`;
}

/** The gates whose background work has been started on a model (under reuse, on each gate's own view). */
const PreparedChecks = defineService('prepared gates', (): Set<string> => new Set());

/**
 * Lets each gate that will run start its background work (Check.prepare), once per corpus model:
 * a verb calls it as soon as the corpus is loaded, runChecks again (then it does nothing).
 */
export function prepareChecks(corpus: Corpus, checks: readonly Check[], options: RunOptions = {}, reuse?: Reuse): void {
  for (const check of checks) {
    if (!check.prepare || options.settings?.get(check.id)?.enabled === false) continue;
    const key = reuse ? memoKey(check, options) : '';
    // Under reuse a gate runs over its own recording view, so that view is what it prepares; a gate whose findings are kept prepares nothing.
    if (reuse?.keeps(key)) continue;
    const model = reuse ? reuse.view(key, corpus) : corpus;
    const done = model.service(PreparedChecks);
    if (done.has(check.id)) continue;
    done.add(check.id);
    try {
      timed(`${check.id} (prepare)`, () => check.prepare?.(model, contextOf(check, options)));
    } catch {
      // Preparing is an optimisation: the gate's run does the work itself, and reports what fails.
    }
  }
}

function contextOf(check: Check, options: RunOptions): CheckContext {
  const setting = options.settings?.get(check.id);
  const defaults = Object.fromEntries(Object.entries(check.options ?? {}).map(([name, spec]) => [name, spec.default]));
  return {
    ...(options.previousRelease ? { previousRelease: options.previousRelease } : {}),
    options: setting?.options ?? defaults,
  };
}

/** The message id of the engine's report of a gate that threw. */
export const GATE_FAILED = 'gate-failed';

/** The message id of the engine's report of a fix from a gate that does not declare `fixable`. */
export const UNDECLARED_FIX = 'undeclared-fix';

/** Whether a finding is the engine's report of a gate that threw, not a finding of the gate. */
export function isGateFailure(d: Pick<Diagnostic, 'messageId'>): boolean {
  return d.messageId === GATE_FAILED;
}

/**
 * `fixable` is what `rules` and the rules reference promise, so the engine holds a gate to it: a
 * fix from a gate that does not declare it is dropped and reported as the toolchain bug it is.
 */
function fixesDeclared(check: Check, report: Report): Report {
  if (check.fixable) return report;
  return (finding) => {
    if (!finding.fix) return report(finding);
    const { fix: _dropped, ...rest } = finding;
    report(rest);
    const { file, line, column } = placeOf(finding);
    report({
      file,
      line,
      column,
      messageId: UNDECLARED_FIX,
      data: { rule: check.id },
      message: `gate ${check.id} carried a fix but does not declare \`fixable\`; the fix was not applied`,
      hint: 'this is a toolchain bug; please report it',
    });
  };
}

/** Selects rules by id, `family/*` or an old id split into several (core/config/aliases.ts); returns the unknown patterns too. */
export function selectRules<T extends { id: string }>(
  rules: readonly T[],
  patterns: readonly string[],
): { selected: T[]; unknown: string[] } {
  if (patterns.length === 0) return { selected: [...rules], unknown: [] };
  const unknown: string[] = [];
  const chosen = new Set<T>();
  for (const pattern of patterns) {
    const matches = rules.filter((rule) => matchesPattern(rule.id, pattern));
    if (matches.length === 0) unknown.push(pattern);
    for (const match of matches) chosen.add(match);
  }
  return { selected: rules.filter((rule) => chosen.has(rule)), unknown };
}
