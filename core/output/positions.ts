/**
 * Line and column arithmetic over a text (1-based lines, 1-based UTF-16 columns), and what a
 * finding's place is before it is resolved. Every layer that turns an offset into a line and
 * column goes through `LineIndex`; a place is resolved only when a finding is collected.
 */

/** A resolved place in a file: where it starts and, when known, where it ends. */
export interface Span {
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
}

/**
 * A place not yet worked out to a line and column (the corpus model's `Location`): a finding that
 * carries one is resolved once, when it is collected, so a model may hold a place for every item
 * it builds and only the reported ones cost anything.
 */
export interface Locatable {
  /** Relative to the corpus root, `/` separators. */
  readonly file: string;
  resolve(): Span;
}

/** Offsets at which each line starts; computed once per text. */
export class LineIndex {
  private readonly starts: number[];

  constructor(text: string) {
    // indexOf, not a loop over char codes: a short run builds this once per file while the loop
    // would still be interpreted, which cost about 25 ms on this corpus against 3 ms.
    const starts = [0];
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
    this.starts = starts;
  }

  get lineCount(): number {
    return this.starts.length;
  }

  /** 1-based line and column of a 0-based offset. */
  position(offset: number): { line: number; column: number } {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low + 1, column: offset - (this.starts[low] ?? 0) + 1 };
  }

  /** 0-based offset of a 1-based line's first character. */
  lineStart(line: number): number {
    return this.starts[Math.max(0, Math.min(line - 1, this.starts.length - 1))] ?? 0;
  }

  span(start: number, end: number): Span {
    const from = this.position(start);
    const to = this.position(end);
    return { line: from.line, column: from.column, endLine: to.line, endColumn: to.column };
  }
}
