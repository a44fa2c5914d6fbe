/**
 * Generated regions of hand-written markdown: the text between
 * `<!-- generated: ID [from SOURCE][; do not edit] -->` and `<!-- /generated: ID -->`.
 * A region on lines of its own is a block; one inside a line (a count in prose) is inline.
 */
import type { Html } from 'mdast';

export interface RegionMarker {
  start: number;
  end: number;
  line: number;
  column: number;
}

export interface GeneratedRegion {
  id: string;
  kind: 'block' | 'inline';
  /** What the open marker says the region is generated from, if it says. */
  source: string | undefined;
  open: RegionMarker;
  close: RegionMarker;
  /** Offsets of the owned text: for a block, whole lines, ending with a newline. */
  contentStart: number;
  contentEnd: number;
}

export interface RegionProblem {
  message: string;
  line: number;
  column: number;
}

const MARKER = /<!--\s*(\/?)generated:\s*([A-Za-z0-9][\w./-]*)((?:(?!-->)[\s\S])*)-->/g;

export function findRegions(text: string, htmlNodes: readonly Html[]): { regions: GeneratedRegion[]; problems: RegionProblem[] } {
  const markers: Array<RegionMarker & { closing: boolean; id: string; rest: string }> = [];
  for (const node of htmlNodes) {
    const base = node.position?.start.offset;
    const line = node.position?.start.line ?? 1;
    const column = node.position?.start.column ?? 1;
    if (base === undefined) continue;
    for (const match of node.value.matchAll(MARKER)) {
      const before = node.value.slice(0, match.index);
      const newlines = before.split('\n');
      const markerLine = line + newlines.length - 1;
      const markerColumn = newlines.length === 1 ? column + before.length : (newlines[newlines.length - 1]?.length ?? 0) + 1;
      markers.push({
        closing: match[1] === '/',
        id: match[2] ?? '',
        rest: match[3] ?? '',
        start: base + (match.index ?? 0),
        end: base + (match.index ?? 0) + match[0].length,
        line: markerLine,
        column: markerColumn,
      });
    }
  }
  markers.sort((a, b) => a.start - b.start);

  const regions: GeneratedRegion[] = [];
  const problems: RegionProblem[] = [];
  let open: (typeof markers)[number] | undefined;
  for (const marker of markers) {
    if (!marker.closing) {
      if (open) {
        problems.push({ message: `generated region "${open.id}" is not closed before "${marker.id}" opens; regions do not nest`, line: open.line, column: open.column });
      }
      open = marker;
      continue;
    }
    if (!open) {
      problems.push({ message: `closing marker of generated region "${marker.id}" has no opening marker`, line: marker.line, column: marker.column });
      continue;
    }
    if (open.id !== marker.id) {
      problems.push({ message: `generated region "${open.id}" is closed by a marker for "${marker.id}"`, line: marker.line, column: marker.column });
      open = undefined;
      continue;
    }
    regions.push(makeRegion(text, open, marker));
    open = undefined;
  }
  if (open) {
    problems.push({ message: `generated region "${open.id}" is never closed (expected <!-- /generated: ${open.id} -->)`, line: open.line, column: open.column });
  }
  return { regions, problems };
}

function makeRegion(text: string, open: RegionMarker & { id: string; rest: string }, close: RegionMarker): GeneratedRegion {
  const openLineStart = text.lastIndexOf('\n', open.start - 1) + 1;
  const openLineEnd = lineEnd(text, open.end);
  const closeLineStart = text.lastIndexOf('\n', close.start - 1) + 1;
  const block =
    text.slice(openLineStart, open.start).trim() === '' &&
    text.slice(open.end, openLineEnd).trim() === '' &&
    text.slice(closeLineStart, close.start).trim() === '' &&
    closeLineStart > open.end;
  const source = /^\s*from\s+(.+?)\s*(?:;|$)/.exec(open.rest)?.[1];
  const { id } = open;
  const openMarker = { start: open.start, end: open.end, line: open.line, column: open.column };
  if (block) {
    return { id, kind: 'block', source, open: openMarker, close, contentStart: Math.min(openLineEnd + 1, closeLineStart), contentEnd: closeLineStart };
  }
  return { id, kind: 'inline', source, open: openMarker, close, contentStart: open.end, contentEnd: close.start };
}

function lineEnd(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index;
}

export function openMarkerText(id: string, source: string | undefined): string {
  return source ? `<!-- generated: ${id} from ${source}; do not edit -->` : `<!-- generated: ${id} -->`;
}
