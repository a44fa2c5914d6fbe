/** For people at a terminal: grouped by file, each finding as a clickable file:line:col. */
import { isActive, type Summary } from '../diagnostics.js';
import { visible } from '../escape.js';
import type { Reporter } from './types.js';

const paint = (on: boolean, code: string, text: string): string => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export const stylish: Reporter = (diagnostics, { summary, color, baselineUpdate }) => {
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
    lines.push(`  ${file}:${d.line}:${d.column}  ${severity}  ${visible(d.message)}  ${paint(color, '2', visible(d.rule))}`);
    if (d.hint) lines.push(`      ${paint(color, '2', `hint: ${visible(d.hint)}`)}`);
    for (const r of d.related ?? []) lines.push(`      ${paint(color, '2', `${r.message ? `${visible(r.message)}: ` : 'see '}${visible(r.file)}:${r.line}:${r.column}`)}`);
  }
  const fixed = diagnostics.filter((d) => d.baselineState === 'absent');
  if (fixed.length > 0) {
    if (lines.length > 0) lines.push('');
    lines.push(`fixed since the findings baseline (${fixed.length}):`);
    for (const d of fixed) lines.push(`  ${visible(d.file)}  ${visible(d.message)}  ${paint(color, '2', visible(d.rule))}`);
    if (baselineUpdate) lines.push(`      ${paint(color, '2', `hint: run \`${baselineUpdate}\` to drop them from the baseline`)}`);
  }
  const total = summary.errors + summary.warnings;
  const accepted = acceptedText(summary);
  if (total === 0) {
    if (lines.length > 0) lines.push('');
    lines.push(`${paint(color, '32', '✔')} ${summary.files} files, no problems${accepted}`);
  } else {
    if (lines.length > 0) lines.push('');
    const mark = summary.errors > 0 ? paint(color, '31', '✖') : paint(color, '33', '⚠');
    lines.push(`${mark} ${total} problem${total === 1 ? '' : 's'} (${summary.errors} error${summary.errors === 1 ? '' : 's'}, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}) in ${summary.files} files${accepted}`);
  }
  return `${lines.join('\n')}\n`;
};

function acceptedText(summary: Summary): string {
  const parts: string[] = [];
  if (summary.hiddenWarnings) parts.push(`${summary.hiddenWarnings} warning${summary.hiddenWarnings === 1 ? '' : 's'} not shown (--quiet)`);
  if (summary.suppressed) parts.push(`${summary.suppressed} suppressed`);
  if (summary.baseline?.unchanged) parts.push(`${summary.baseline.unchanged} accepted by the findings baseline`);
  return parts.length > 0 ? `; ${parts.join(', ')}` : '';
}
