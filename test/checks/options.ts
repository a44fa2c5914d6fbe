import { CHECKS } from '../../checks/index.js';
import { corpusFromFiles } from '../../core/model/index.js';
import type { Diagnostic } from '../../core/output/index.js';
import { runChecks } from '../../core/run/index.js';

/** Runs one rule over in-memory files with some of its options set, the rest at their defaults. */
export function runWithOptions(rule: string, files: Record<string, string>, given: Record<string, unknown>): Diagnostic[] {
  const check = CHECKS.find((c) => c.id === rule);
  if (!check) throw new Error(`no rule ${rule}`);
  const defaults = Object.fromEntries(Object.entries(check.options ?? {}).map(([name, spec]) => [name, spec.default]));
  const settings = new Map([[rule, { enabled: true, severity: check.severity, options: { ...defaults, ...given }, configured: false }]]);
  return runChecks(corpusFromFiles('/nonexistent-root', files), [check], { settings });
}
