/**
 * A findings baseline, for adopting the tool on a corpus that already has findings: the file
 * records today's findings by fingerprint (with a count, since one text can hold two equal
 * findings); a later run fails only on findings beyond it, and names the entries no longer found,
 * so that the file is rewritten smaller (`--update`) and never grows by accident.
 */
import { fingerprintRuleId } from '../config/index.js';
import { compareStrings, formatJson, type Diagnostic, type Severity } from '../output/index.js';

export interface BaselineEntry {
  rule: string;
  file: string;
  fingerprint: string;
  count: number;
  /** For the reader of the file and for reporting a fixed entry; not part of the match. */
  message: string;
  severity: Severity;
}

export class FindingsBaselineError extends Error {}

export function parseFindingsBaseline(text: string, name: string): BaselineEntry[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new FindingsBaselineError(`findings baseline ${name} is not JSON: ${(error as Error).message}`);
  }
  const findings = (value as { findings?: unknown } | null)?.findings;
  if (!Array.isArray(findings))
    throw new FindingsBaselineError(
      `findings baseline ${name} is not {"findings": [...]}; write it with \`check --baseline-findings ${name} --update\``,
    );
  return findings.map((entry: unknown, index: number) => {
    const e = (entry ?? {}) as Record<string, unknown>;
    if (typeof e.rule !== 'string' || typeof e.file !== 'string' || typeof e.fingerprint !== 'string') {
      throw new FindingsBaselineError(
        `findings baseline ${name}: findings[${index}] needs "rule", "file" and "fingerprint" strings`,
      );
    }
    const count = typeof e.count === 'number' && Number.isInteger(e.count) && e.count > 0 ? e.count : 1;
    return {
      rule: e.rule,
      file: e.file,
      fingerprint: e.fingerprint,
      count,
      message: typeof e.message === 'string' ? e.message : '',
      severity: e.severity === 'warning' ? 'warning' : 'error',
    };
  });
}

/** The baseline of these findings (the active ones: a suppressed finding needs no baseline). */
export function renderFindingsBaseline(diagnostics: readonly Diagnostic[]): string {
  const entries = new Map<string, BaselineEntry>();
  for (const d of diagnostics) {
    if (d.suppression || !d.fingerprint) continue;
    const key = `${d.rule}\u0000${d.file}\u0000${d.fingerprint}`;
    const entry = entries.get(key);
    if (entry) entry.count++;
    else
      entries.set(key, {
        rule: d.rule,
        file: d.file,
        fingerprint: d.fingerprint,
        count: 1,
        message: d.message,
        severity: d.severity,
      });
  }
  const findings = [...entries.values()]
    .sort(
      (a, b) =>
        compareStrings(a.file, b.file) ||
        compareStrings(a.rule, b.rule) ||
        compareStrings(a.fingerprint, b.fingerprint),
    )
    .map(({ count, ...rest }) => (count === 1 ? rest : { ...rest, count }));
  return formatJson({
    $comment:
      'Findings accepted when openwop-spec was adopted: only findings beyond these fail. Shrink it with `check --baseline-findings FILE --update` as they are fixed; never add to it by hand.',
    findings,
  });
}

/**
 * Each active diagnostic as `new` or `unchanged`, and one `absent` diagnostic per baseline entry
 * (or part of its count) no longer found.
 */
export function compareWithBaseline(
  diagnostics: readonly Diagnostic[],
  baseline: readonly BaselineEntry[],
): Diagnostic[] {
  const remaining = new Map<string, number>();
  // An entry written under an old id matches the findings of the rules split out of it.
  const key = (rule: string, file: string, fingerprint: string | undefined): string =>
    `${fingerprintRuleId(rule)}\u0000${file}\u0000${fingerprint ?? ''}`;
  for (const entry of baseline)
    remaining.set(
      key(entry.rule, entry.file, entry.fingerprint),
      (remaining.get(key(entry.rule, entry.file, entry.fingerprint)) ?? 0) + entry.count,
    );
  const out: Diagnostic[] = diagnostics.map((d) => {
    if (d.suppression) return d;
    const k = key(d.rule, d.file, d.fingerprint);
    const left = remaining.get(k) ?? 0;
    if (left > 0) {
      remaining.set(k, left - 1);
      return { ...d, baselineState: 'unchanged' as const };
    }
    return { ...d, baselineState: 'new' as const };
  });
  for (const entry of baseline) {
    const k = key(entry.rule, entry.file, entry.fingerprint);
    const left = remaining.get(k) ?? 0;
    if (left <= 0) continue;
    remaining.set(k, 0);
    for (let i = 0; i < left; i++) {
      out.push({
        rule: entry.rule,
        severity: entry.severity,
        file: entry.file,
        line: 1,
        column: 1,
        message: entry.message || `a ${entry.rule} finding`,
        fingerprint: entry.fingerprint,
        baselineState: 'absent',
      });
    }
  }
  return out;
}
