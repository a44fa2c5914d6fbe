/** Markdown tables for generated regions: one row a line, `|` escaped, whitespace folded, never cut short. */

export function escapeCell(text: string): string {
  return text.replace(/\s+/g, ' ').trim().replace(/\|/g, '\\|');
}

/** `cells` are already markdown (backticks and all); only folding and `|` escaping are applied. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(' | ')} |`;
  return [line(headers), `| ${headers.map(() => '---').join(' | ')} |`, ...rows.map(line)].join('\n') + '\n';
}
