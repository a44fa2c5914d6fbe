/** Generated JSON: two-space indent and a final newline; key order is the order the generator builds. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
