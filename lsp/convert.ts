/** Between the model's offsets and findings (1-based lines, UTF-16 columns over LF text) and the protocol's 0-based positions. */
import type { Diagnostic as LspDiagnostic, Position, Range } from 'vscode-languageserver';
import type { CorpusFile } from '../core/model/index.js';
import type { Diagnostic } from '../core/output/index.js';

type Textual = Exclude<CorpusFile, { kind: 'binary' }>;

export function textual(file: CorpusFile | undefined): Textual | undefined {
  return file && file.kind !== 'binary' ? file : undefined;
}

function positionAt(file: Textual, offset: number): Position {
  const { line, column } = file.lines.position(Math.max(0, Math.min(offset, file.text.length)));
  return { line: line - 1, character: column - 1 };
}

export function rangeOf(file: Textual, start: number, end: number): Range {
  return { start: positionAt(file, start), end: positionAt(file, end) };
}

/** The model's offset of a protocol position (clamped to its line). */
export function offsetAt(file: Textual, position: Position): number {
  const start = file.lines.lineStart(position.line + 1);
  const next = file.text.indexOf('\n', start);
  const end = next === -1 ? file.text.length : next;
  return Math.min(start + position.character, end);
}

/** What the editor shows: the run's finding, its hint on a line of its own; the finding itself travels in `data`. */
export function toLsp(d: Diagnostic, file: CorpusFile | undefined, uriOf: (file: string) => string): LspDiagnostic {
  const start: Position = { line: d.line - 1, character: d.column - 1 };
  let end: Position;
  if (d.endLine !== undefined && d.endColumn !== undefined) end = { line: d.endLine - 1, character: d.endColumn - 1 };
  else {
    // Located at a point: the rest of the line, so that the editor has something to underline.
    const text = textual(file);
    const lineStart = text ? text.lines.lineStart(d.line) : 0;
    const lineEnd = text ? text.text.indexOf('\n', lineStart) : -1;
    const length = text ? (lineEnd === -1 ? text.text.length : lineEnd) - lineStart : 0;
    end = { line: d.line - 1, character: Math.max(d.column, length) };
  }
  return {
    range: { start, end },
    severity: d.severity === 'error' ? 1 : 2,
    code: d.rule,
    source: 'openwop-spec',
    message: d.hint ? `${d.message}\nhint: ${d.hint}` : d.message,
    ...(d.related?.length
      ? {
          relatedInformation: d.related.map((r) => ({
            location: {
              uri: uriOf(r.file),
              range: {
                start: { line: r.line - 1, character: r.column - 1 },
                end: { line: r.line - 1, character: r.column - 1 },
              },
            },
            message: r.message ?? 'related',
          })),
        }
      : {}),
    data: {
      rule: d.rule,
      message: d.message,
      ...(d.hint !== undefined ? { hint: d.hint } : {}),
      ...(d.fingerprint !== undefined ? { fingerprint: d.fingerprint } : {}),
      line: d.line,
      column: d.column,
    },
  };
}
