/**
 * A finding's fingerprint: what it is about, not where the file has it today. Rule, file and the
 * text at the location (whitespace folded) are hashed; the line number is left out, so a
 * suppression or a baseline entry survives an edit above it, and goes stale when the text it
 * accepted changes. Where there is no text to quote (the file is missing, or the place is the
 * file as a whole), the message stands in. A rule split out of another is hashed under the old id
 * (core/config/aliases.ts), so that what was accepted before the split stays accepted.
 */
import { fingerprintRuleId } from '../config/index.js';
import type { Corpus } from '../model/index.js';
import { sha256Hex, type Diagnostic } from '../output/index.js';

function locatedText(
  corpus: Corpus,
  d: Pick<Diagnostic, 'file' | 'line' | 'column' | 'endLine' | 'endColumn'>,
): string {
  const file = corpus.get(d.file);
  if (!file || file.kind === 'binary') return '';
  const text = file.text;
  const lineText = (line: number): string | undefined => {
    if (line < 1 || line > file.lines.lineCount) return undefined;
    const start = file.lines.lineStart(line);
    const end = text.indexOf('\n', start);
    return text.slice(start, end === -1 ? text.length : end);
  };
  const first = lineText(d.line);
  if (first === undefined) return '';
  let located: string;
  if (d.endLine === undefined || d.endColumn === undefined) located = first;
  else if (d.endLine === d.line) located = d.endColumn > d.column ? first.slice(d.column - 1, d.endColumn - 1) : first;
  else {
    const start = file.lines.lineStart(d.line) + d.column - 1;
    const end = file.lines.lineStart(d.endLine) + d.endColumn - 1;
    located = text.slice(start, Math.max(start, end));
  }
  return located.replace(/\s+/g, ' ').trim();
}

export function fingerprint(corpus: Corpus, d: Diagnostic): string {
  const text = locatedText(corpus, d) || d.message;
  return sha256Hex(JSON.stringify([fingerprintRuleId(d.rule), d.file, text])).slice(0, 32);
}

/** Each diagnostic with its fingerprint. */
export function withFingerprints(corpus: Corpus, diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return diagnostics.map((d) => (d.fingerprint ? d : { ...d, fingerprint: fingerprint(corpus, d) }));
}
