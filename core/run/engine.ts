/** Runs a set of gates over one corpus model. Knows no rule: the gates are passed in. */
import type { Corpus } from '../model/index.js';
import type { RuleSetting } from '../config/index.js';
import type { Check } from './define.js';
import { collector, sortDiagnostics, type Diagnostic } from '../output/index.js';

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

export function runChecks(corpus: Corpus, checks: readonly Check[], options: RunOptions = {}): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const check of checks) {
    const setting = options.settings?.get(check.id);
    if (setting && !setting.enabled) continue;
    const defaults = Object.fromEntries(Object.entries(check.options ?? {}).map(([name, spec]) => [name, spec.default]));
    const report = collector(check.id, setting?.severity ?? check.severity, diagnostics, setting?.configured === true);
    const context = { ...(options.previousRelease ? { previousRelease: options.previousRelease } : {}), options: setting?.options ?? defaults };
    try {
      timed(check.id, () => check.run(corpus, report, context));
    } catch (error) {
      // A gate that throws is a bug in the gate; say so as a finding rather than losing the run.
      report({ file: '.', message: `gate ${check.id} failed: ${error instanceof Error ? error.message : String(error)}`, hint: 'this is a toolchain bug; please report it' });
    }
  }
  return sortDiagnostics(diagnostics);
}

/** Selects rules by id or `family/*`; returns the unknown patterns too. */
export function selectRules<T extends { id: string }>(rules: readonly T[], patterns: readonly string[]): { selected: T[]; unknown: string[] } {
  if (patterns.length === 0) return { selected: [...rules], unknown: [] };
  const unknown: string[] = [];
  const chosen = new Set<T>();
  for (const pattern of patterns) {
    const matches = rules.filter((rule) => (pattern.endsWith('/*') ? rule.id.startsWith(pattern.slice(0, -1)) : rule.id === pattern));
    if (matches.length === 0) unknown.push(pattern);
    for (const match of matches) chosen.add(match);
  }
  return { selected: rules.filter((rule) => chosen.has(rule)), unknown };
}
