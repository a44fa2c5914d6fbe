/** The words every human-facing report shares: the counts of a run and what was accepted beside them. */
import { isActive, type Diagnostic, type Summary } from '../diagnostics.js';
import { count } from '../verdict.js';

/** `3 problems (2 errors, 1 warning) in 7 files` or `1 file, no problems`, with what was accepted. */
export function problemsText(summary: Summary): string {
  const total = summary.errors + summary.warnings;
  const head =
    total === 0
      ? `${count(summary.files, 'file')}, no problems`
      : `${count(total, 'problem')} (${count(summary.errors, 'error')}, ${count(summary.warnings, 'warning')}) in ${count(summary.files, 'file')}`;
  return `${head}${acceptedText(summary)}`;
}

function acceptedText(summary: Summary): string {
  const parts: string[] = [];
  if (summary.hiddenWarnings) parts.push(`${count(summary.hiddenWarnings, 'warning')} not shown (--quiet)`);
  if (summary.suppressed) parts.push(`${summary.suppressed} suppressed`);
  if (summary.baseline?.unchanged) parts.push(`${summary.baseline.unchanged} accepted by the findings baseline`);
  return parts.length > 0 ? `; ${parts.join(', ')}` : '';
}

/** How many of the findings that count carry a fix `check --fix` applies. */
export function fixableCount(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.filter((d) => isActive(d) && d.fix !== undefined).length;
}

/** A finding's message with its hint, for formats that have one text field. */
export function withHint(d: Pick<Diagnostic, 'message' | 'hint'>): string {
  return d.hint ? `${d.message} (hint: ${d.hint})` : d.message;
}
