/**
 * Why a run fails, in words: the reports say it beside the counts, so that a run failing on
 * warnings alone (`--fail-severity warning`, `--max-warnings`) is not a mystery.
 */
import { isActive, type Diagnostic } from './diagnostics.js';

/** What fails a run: an error always; warnings under failSeverity warning or past maxWarnings. */
export interface FailPolicy {
  /** Undefined: no limit. */
  maxWarnings?: number;
  failSeverity?: 'error' | 'warning';
}

/** `failing: …` for a run that fails, undefined for one that passes. */
export function failureReason(diagnostics: readonly Diagnostic[], policy: FailPolicy = {}): string | undefined {
  const active = diagnostics.filter(isActive);
  const errors = active.filter((d) => d.severity === 'error').length;
  const warnings = active.length - errors;
  if (errors > 0) return `failing: ${count(errors, 'error')}`;
  if (policy.failSeverity === 'warning' && warnings > 0)
    return `failing: ${count(warnings, 'warning')} and --fail-severity warning`;
  if (policy.maxWarnings !== undefined && warnings > policy.maxWarnings)
    return `failing: ${count(warnings, 'warning')}, more than --max-warnings ${policy.maxWarnings} allows`;
  return undefined;
}

export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
