/** For people at a terminal: grouped by file, each finding as a clickable file:line:col. */
import { isActive } from '../diagnostics.js';
import { visible } from '../escape.js';
import { count } from '../verdict.js';
import { fixableCount, problemsText } from './summary.js';
import type { Reporter } from './types.js';

const paint = (on: boolean, code: string, text: string): string => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export const stylish: Reporter = (diagnostics, { summary, color, baselineUpdate, failure, fixCommand }) => {
  const lines: string[] = [];
  let current: string | undefined;
  for (const d of diagnostics.filter(isActive)) {
    const file = visible(d.file);
    if (d.file !== current) {
      if (current !== undefined) lines.push('');
      lines.push(paint(color, '4', file));
      current = d.file;
    }
    const severity = d.severity === 'error' ? paint(color, '31', 'error  ') : paint(color, '33', 'warning');
    lines.push(
      `  ${file}:${d.line}:${d.column}  ${severity}  ${visible(d.message)}  ${paint(color, '2', visible(d.rule))}`,
    );
    if (d.hint) lines.push(`      ${paint(color, '2', `hint: ${visible(d.hint)}`)}`);
    for (const r of d.related ?? [])
      lines.push(
        `      ${paint(color, '2', `${r.message ? `${visible(r.message)}: ` : 'see '}${visible(r.file)}:${r.line}:${r.column}`)}`,
      );
  }
  const fixed = diagnostics.filter((d) => d.baselineState === 'absent');
  if (fixed.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(`fixed since the findings baseline (${fixed.length}):`);
    for (const d of fixed)
      lines.push(`  ${visible(d.file)}  ${visible(d.message)}  ${paint(color, '2', visible(d.rule))}`);
    if (baselineUpdate)
      lines.push(`      ${paint(color, '2', `hint: run \`${baselineUpdate}\` to drop them from the baseline`)}`);
  }
  const total = summary.errors + summary.warnings;
  if (lines.length > 0) lines.push('');
  const mark =
    total === 0 ? paint(color, '32', '✔') : summary.errors > 0 ? paint(color, '31', '✖') : paint(color, '33', '⚠');
  lines.push(`${mark} ${problemsText(summary)}`);
  const fixable = fixableCount(diagnostics);
  if (fixable > 0 && fixCommand) lines.push(`  ${count(fixable, 'problem')} fixable with \`${fixCommand}\``);
  // Errors fail a run, as everyone expects; warnings fail it only by a setting, which is said.
  if (failure && summary.errors === 0) lines.push(`  ${paint(color, '33', failure)}`);
  return `${lines.join('\n')}\n`;
};
