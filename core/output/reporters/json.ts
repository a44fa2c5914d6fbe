/** The machine contract: {"diagnostics":[…],"summary":{errors,warnings,files}}; fixes are not part of it. */
import type { Reporter } from './types.js';

export const json: Reporter = (diagnostics, { summary }) => {
  const out = diagnostics.map((d) => {
    const entry: Record<string, unknown> = { rule: d.rule, severity: d.severity, file: d.file, line: d.line, column: d.column };
    if (d.endLine !== undefined) entry.endLine = d.endLine;
    if (d.endColumn !== undefined) entry.endColumn = d.endColumn;
    entry.message = d.message;
    if (d.hint !== undefined) entry.hint = d.hint;
    return entry;
  });
  return `${JSON.stringify({ diagnostics: out, summary }, null, 2)}\n`;
};
