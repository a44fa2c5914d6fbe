/** Applies the fixes carried by diagnostics to a file's text; overlapping fixes after the first are left for a next pass. */
import type { Fix } from '../output/index.js';

export function applyFixes(text: string, fixes: readonly Fix[]): { text: string; applied: number } {
  const ordered = [...fixes].sort((a, b) => a.start - b.start || a.end - b.end);
  let result = '';
  let cursor = 0;
  let applied = 0;
  for (const fix of ordered) {
    if (fix.start < cursor || fix.end < fix.start || fix.end > text.length) continue;
    result += text.slice(cursor, fix.start) + fix.text;
    cursor = fix.end;
    applied++;
  }
  return { text: result + text.slice(cursor), applied };
}
