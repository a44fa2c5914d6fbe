/** For people at a terminal: grouped by file, each finding as a clickable file:line:col. */
import type { Reporter } from './types.js';

const paint = (on: boolean, code: string, text: string): string => (on ? `\u001b[${code}m${text}\u001b[0m` : text);

export const stylish: Reporter = (diagnostics, { summary, color }) => {
  const lines: string[] = [];
  let current: string | undefined;
  for (const d of diagnostics) {
    if (d.file !== current) {
      if (current !== undefined) lines.push('');
      lines.push(paint(color, '4', d.file));
      current = d.file;
    }
    const severity = d.severity === 'error' ? paint(color, '31', 'error  ') : paint(color, '33', 'warning');
    lines.push(`  ${d.file}:${d.line}:${d.column}  ${severity}  ${d.message}  ${paint(color, '2', d.rule)}`);
    if (d.hint) lines.push(`      ${paint(color, '2', `hint: ${d.hint}`)}`);
  }
  const total = summary.errors + summary.warnings;
  if (total === 0) {
    lines.push(`${paint(color, '32', '✔')} ${summary.files} files, no problems`);
  } else {
    if (lines.length > 0) lines.push('');
    const mark = summary.errors > 0 ? paint(color, '31', '✖') : paint(color, '33', '⚠');
    lines.push(`${mark} ${total} problem${total === 1 ? '' : 's'} (${summary.errors} error${summary.errors === 1 ? '' : 's'}, ${summary.warnings} warning${summary.warnings === 1 ? '' : 's'}) in ${summary.files} files`);
  }
  return `${lines.join('\n')}\n`;
};
