/**
 * Unified diffs of text, in the form git writes them: three lines of context, `@@ -a,b +c,d @@`
 * headers (a count of 1 left out) followed by the nearest earlier line that starts with a letter,
 * `_` or `$`, cut at 80 bytes. The published package diffs (the seeds) have exactly this form.
 */

type Op = { kind: ' ' | '-' | '+'; text: string };

const CONTEXT = 3;
/** Past this many differing lines, the middle of a file is shown as replaced whole. */
const MAX_EDIT_DISTANCE = 2000;

/** The hunks of a unified diff from `before` to `after` (undefined for absent); '' when equal. */
export function unifiedHunks(before: string | undefined, after: string | undefined): string {
  const oldLines = splitLines(before);
  const ops = diffLines(oldLines, splitLines(after));
  const hunks: string[] = [];
  let i = 0;
  while (i < ops.length) {
    if (ops[i]?.kind === ' ') {
      i++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change
    // that is within 2*CONTEXT unchanged lines of the one before it.
    let end = i;
    for (let j = i; j < ops.length; j++) {
      if (ops[j]?.kind !== ' ') end = j;
      else if (j - end > 2 * CONTEXT) break;
    }
    const start = Math.max(0, i - CONTEXT);
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    let oldStart = 0;
    let newStart = 0;
    for (let j = 0; j < start; j++) {
      if (ops[j]?.kind !== '+') oldStart++;
      if (ops[j]?.kind !== '-') newStart++;
    }
    const body: string[] = [];
    let oldCount = 0;
    let newCount = 0;
    for (let j = start; j < stop; j++) {
      const op = ops[j] as Op;
      if (op.kind !== '+') oldCount++;
      if (op.kind !== '-') newCount++;
      if (op.text.endsWith(NO_NEWLINE)) body.push(`${op.kind}${op.text.slice(0, -1)}`, '\\ No newline at end of file');
      else body.push(`${op.kind}${op.text}`);
    }
    const header = `@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`;
    const func = functionLine(oldLines, oldStart);
    hunks.push([func ? `${header} ${func}` : header, ...body].join('\n'));
    i = stop;
  }
  return hunks.length > 0 ? `${hunks.join('\n')}\n` : '';
}

function range(start: number, count: number): string {
  const first = count === 0 ? start : start + 1;
  return count === 1 ? `${first}` : `${first},${count}`;
}

/** git's default funcname: the nearest line above the hunk starting with a letter, `_` or `$`. */
function functionLine(lines: readonly string[], before: number): string | undefined {
  for (let k = before - 1; k >= 0; k--) {
    const line = (lines[k] ?? '').replace(NO_NEWLINE, '');
    if (/^[A-Za-z_$]/.test(line)) return truncateBytes(line, 80).trimEnd();
  }
  return undefined;
}

function truncateBytes(text: string, limit: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= limit) return text;
  // Cut on a character boundary: drop continuation bytes of a character the limit splits.
  let end = limit;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * A last line without a newline keeps a trailing '\n' as a mark (no line can contain one), so it
 * never matches the same text with a newline on the other side.
 */
const NO_NEWLINE = '\n';

function splitLines(text: string | undefined): string[] {
  if (text === undefined || text === '') return [];
  const lines = text.split('\n');
  const last = lines.pop() as string;
  if (last !== '') lines.push(`${last}${NO_NEWLINE}`);
  return lines;
}

/** Myers' O(ND) line diff, after trimming the common head and tail. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [
    ...a.slice(0, head).map((text): Op => ({ kind: ' ', text })),
    ...middle,
    ...a.slice(a.length - tail).map((text): Op => ({ kind: ' ', text })),
  ];
}

function myers(a: readonly string[], b: readonly string[]): Op[] {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((text) => ({ kind: '+', text }));
  if (m === 0) return a.map((text) => ({ kind: '-', text }));
  const max = Math.min(n + m, MAX_EDIT_DISTANCE);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && (v[offset + k - 1] ?? 0) < (v[offset + k + 1] ?? 0))
          ? (v[offset + k + 1] ?? 0)
          : (v[offset + k - 1] ?? 0) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return [...a.map((text): Op => ({ kind: '-', text })), ...b.map((text): Op => ({ kind: '+', text }))];

  // Walk the trace back from (n, m); trace[d] holds v before step d, for k in [-d-1, d+1].
  const ops: Op[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d > 0; d--) {
    const previous = trace[d] as Int32Array;
    const at = (k: number) => previous[k + d + 1] ?? 0;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const prevK = down ? k + 1 : k - 1;
    const prevX = at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      ops.push({ kind: ' ', text: a[x - 1] as string });
      x--;
      y--;
    }
    if (down) ops.push({ kind: '+', text: b[y - 1] as string });
    else ops.push({ kind: '-', text: a[x - 1] as string });
    x = prevX;
    y = prevY;
  }
  while (x > 0 && y > 0) {
    ops.push({ kind: ' ', text: a[x - 1] as string });
    x--;
    y--;
  }
  return ops.reverse();
}
