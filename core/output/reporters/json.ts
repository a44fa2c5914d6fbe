/**
 * The machine contract: {"diagnostics":[…],"summary":{…}}; findings a suppression accepted are in
 * "suppressed", and with a findings baseline the accepted and fixed ones in "baseline". Each
 * finding carries its messageId and data (what a consumer decides by; the message may be reworded)
 * and, when `--fix` would apply one, its fix (a replacement of [start, end) of the file's text).
 */
import { isActive, type Diagnostic } from '../diagnostics.js';
import { safeJson } from '../escape.js';
import type { Reporter } from './types.js';

export const json: Reporter = (diagnostics, { summary }) => {
  const out: Record<string, unknown> = { diagnostics: diagnostics.filter(isActive).map(entry) };
  const suppressed = diagnostics.filter((d) => d.suppression);
  if (suppressed.length > 0) out.suppressed = suppressed.map((d) => ({ ...entry(d), suppression: d.suppression }));
  if (summary.baseline) {
    out.baseline = {
      unchanged: diagnostics.filter((d) => !d.suppression && d.baselineState === 'unchanged').map(entry),
      fixed: diagnostics.filter((d) => d.baselineState === 'absent').map(entry),
    };
  }
  out.summary = summary;
  return `${safeJson(JSON.stringify(out, null, 2))}\n`;
};

function entry(d: Diagnostic): Record<string, unknown> {
  const e: Record<string, unknown> = {
    rule: d.rule,
    severity: d.severity,
    file: d.file,
    line: d.line,
    column: d.column,
  };
  if (d.endLine !== undefined) e.endLine = d.endLine;
  if (d.endColumn !== undefined) e.endColumn = d.endColumn;
  if (d.messageId !== undefined) e.messageId = d.messageId;
  if (d.data !== undefined) e.data = d.data;
  e.message = d.message;
  if (d.hint !== undefined) e.hint = d.hint;
  if (d.fix !== undefined) e.fix = d.fix;
  if (d.related !== undefined) e.related = d.related;
  if (d.fingerprint !== undefined) e.fingerprint = d.fingerprint;
  return e;
}
