/**
 * GitHub Actions workflow commands: one ::error or ::warning line per finding, shown inline on the
 * diff, and a ::notice with the run's counts last, so that the summary is in the annotations too.
 */
import { isActive } from '../diagnostics.js';
import { visible } from '../escape.js';
import { problemsText } from './summary.js';
import type { Reporter } from './types.js';

// The runner decodes %25, %0D and %0A in data, and in properties %3A and %2C as well; any other
// control character would reach the log raw, so it is shown as its escape.
const escapeData = (text: string): string =>
  visible(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export const github: Reporter = (diagnostics, { summary, toolName, failure }) => {
  const lines = diagnostics.filter(isActive).map((d) => {
    const properties = [`file=${escapeProperty(d.file)}`, `line=${d.line}`, `col=${d.column}`];
    if (d.endLine !== undefined) properties.push(`endLine=${d.endLine}`);
    if (d.endColumn !== undefined && (d.endLine === undefined || d.endLine === d.line))
      properties.push(`endColumn=${d.endColumn}`);
    properties.push(`title=${escapeProperty(d.rule)}`);
    const message = d.hint ? `${d.message} (${d.hint})` : d.message;
    return `::${d.severity} ${properties.join(',')}::${escapeData(message)}`;
  });
  lines.push(
    `::notice title=${escapeProperty(toolName)}::${escapeData(failure ? `${problemsText(summary)}; ${failure}` : problemsText(summary))}`,
  );
  return `${lines.join('\n')}\n`;
};
