/**
 * The `> **Normative home:** \`family\`, \`family\`.` line of a core document's status block:
 * which families of spec/v2/declaration.json the document is the home of.
 */
import type { MarkdownFile } from '../model/index.js';

export interface NormativeHomeName {
  family: string;
  line: number;
  /** Column of the family name (inside its backticks). */
  column: number;
}

const LINE = /^(\s*>\s?)\*\*Normative home:\*\*(.*)$/;

/** The families a document's status block names, or [] when it has no Normative home line. */
export function normativeHomes(file: MarkdownFile): NormativeHomeName[] {
  const quote = file.tree.children.find((node) => node.type === 'blockquote');
  const start = quote?.position?.start.line;
  const end = quote?.position?.end.line;
  if (start === undefined || end === undefined) return [];
  const names: NormativeHomeName[] = [];
  for (let line = start; line <= end; line++) {
    const from = file.lines.lineStart(line);
    const to = line < file.lines.lineCount ? file.lines.lineStart(line + 1) - 1 : file.text.length;
    const text = file.text.slice(from, to);
    const match = LINE.exec(text);
    if (!match) continue;
    const offset = text.length - (match[2] ?? '').length;
    for (const name of (match[2] ?? '').matchAll(/`([^`]+)`/g)) {
      names.push({ family: name[1] ?? '', line, column: offset + (name.index ?? 0) + 2 });
    }
  }
  return names;
}
