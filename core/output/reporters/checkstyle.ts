/**
 * Checkstyle XML, which Jenkins (warnings-ng), reviewdog, Bitbucket and SonarQube import: one
 * <file> per file with findings, one <error> per finding that counts, its rule as `source`.
 */
import { isActive, type Diagnostic } from '../diagnostics.js';
import { withHint } from './summary.js';
import type { Reporter } from './types.js';
import { markupAttributes, XML_DECLARATION } from './markup.js';

export const checkstyle: Reporter = (diagnostics) => {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics.filter(isActive)) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const lines = [XML_DECLARATION, '<checkstyle version="4.3">'];
  for (const [file, found] of byFile) {
    lines.push(`  <file ${markupAttributes({ name: file })}>`);
    for (const d of found)
      lines.push(
        `    <error ${markupAttributes({ line: d.line, column: d.column, severity: d.severity, message: withHint(d), source: d.rule })}/>`,
      );
    lines.push('  </file>');
  }
  lines.push('</checkstyle>');
  return `${lines.join('\n')}\n`;
};
