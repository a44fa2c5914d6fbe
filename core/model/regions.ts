/**
 * Generated regions of hand-written markdown: the text between
 * `<!-- generated: ID [from SOURCE][; do not edit] -->` and `<!-- /generated: ID -->`.
 * A region on lines of its own is a block; one inside a line (a count in prose) is inline.
 */
import { generatedBannerLine } from '../markdown/index.js';
import type { Html } from 'mdast';

interface RegionMarker {
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

export function findRegions(
  text: string,
  htmlNodes: readonly Html[],
): { regions: GeneratedRegion[]; problems: RegionProblem[] } {
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
      const markerColumn =
        newlines.length === 1 ? column + before.length : (newlines[newlines.length - 1]?.length ?? 0) + 1;
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
        problems.push({
          message: `generated region "${open.id}" is not closed before "${marker.id}" opens; regions do not nest`,
          line: open.line,
          column: open.column,
        });
      }
      open = marker;
      continue;
    }
    if (!open) {
      problems.push({
        message: `closing marker of generated region "${marker.id}" has no opening marker`,
        line: marker.line,
        column: marker.column,
      });
      continue;
    }
    if (open.id !== marker.id) {
      problems.push({
        message: `generated region "${open.id}" is closed by a marker for "${marker.id}"`,
        line: marker.line,
        column: marker.column,
      });
      open = undefined;
      continue;
    }
    regions.push(makeRegion(text, open, marker));
    open = undefined;
  }
  if (open) {
    problems.push({
      message: `generated region "${open.id}" is never closed (expected <!-- /generated: ${open.id} -->)`,
      line: open.line,
      column: open.column,
    });
  }
  return { regions, problems };
}

function makeRegion(
  text: string,
  open: RegionMarker & { id: string; rest: string },
  close: RegionMarker,
): GeneratedRegion {
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
    return {
      id,
      kind: 'block',
      source,
      open: openMarker,
      close,
      contentStart: Math.min(openLineEnd + 1, closeLineStart),
      contentEnd: closeLineStart,
    };
  }
  return { id, kind: 'inline', source, open: openMarker, close, contentStart: open.end, contentEnd: close.start };
}

function lineEnd(text: string, from: number): number {
  const index = text.indexOf('\n', from);
  return index === -1 ? text.length : index;
}

/**
 * A markdown file generated whole: a banner of the "generated … do not edit" family near its top,
 * upstream's "Generated from `SOURCE` [and `SOURCE`…] by `TOOL`; do not edit" or an older one. The
 * sources are the paths it names between "from" and "by".
 */
export interface WholeFileMark {
  line: number;
  sources: string[];
}

/** The backticked paths between "from" and "by" (or the line's end), else the bare paths there. */
const SOURCES = /\bfrom\s+(.+?)(?:\s+by\b|;|\s+[—–-]\s|$)/i;

export function wholeFileMark(text: string): WholeFileMark | undefined {
  const line = generatedBannerLine(text);
  if (line === undefined) return undefined;
  const from = SOURCES.exec(text.split('\n')[line - 1] ?? '')?.[1] ?? '';
  const quoted = [...from.matchAll(/`([^`]+)`/g)].map((source) => source[1] as string);
  const sources =
    quoted.length > 0
      ? quoted
      : [...from.matchAll(/[\w.-]+(?:\/[\w.-]+)+\.(?:json|ya?ml|md)\b/g)].map((source) => source[0]);
  return { line, sources };
}

/** A GFM pipe table as written in a file: its header cells and the offsets of its body rows. */
export interface TextTable {
  header: string[];
  /** Whether rows are written `| a | b |` rather than `a | b`. */
  outerPipes: boolean;
  /** 1-based line of the header row. */
  line: number;
  /** Offsets of the body rows: whole lines, the last one's newline excluded. */
  bodyStart: number;
  bodyEnd: number;
  rows: string[][];
}

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

/** The pipe tables of a markdown text outside fenced code, in order. */
export function textTables(text: string): TextTable[] {
  const lines = text.split('\n');
  const offsets: number[] = [];
  let offset = 0;
  for (const line of lines) {
    offsets.push(offset);
    offset += line.length + 1;
  }
  const tables: TextTable[] = [];
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker) {
      if (fence === undefined) fence = marker[0] as string;
      else if (marker.startsWith(fence)) fence = undefined;
      continue;
    }
    if (
      fence !== undefined ||
      !line.includes('|') ||
      !DELIMITER_ROW.test(lines[i + 1] ?? '') ||
      !(lines[i + 1] ?? '').includes('-')
    )
      continue;
    const header = splitRow(line);
    if (header.length !== splitRow(lines[i + 1] as string).length) continue;
    let end = i + 2;
    while (end < lines.length && (lines[end] as string).includes('|') && (lines[end] as string).trim() !== '') end++;
    const bodyStart = offsets[i + 2] ?? text.length;
    const bodyEnd = end > i + 2 ? (offsets[end - 1] as number) + (lines[end - 1] as string).length : bodyStart;
    tables.push({
      header,
      outerPipes: line.trimStart().startsWith('|'),
      line: i + 1,
      bodyStart,
      bodyEnd,
      rows: lines.slice(i + 2, end).map(splitRow),
    });
    i = end - 1;
  }
  return tables;
}

/** The cells of a table row; `\|` stays inside its cell, escaped as it was written. */
export function splitRow(line: string): string[] {
  let row = line.trim();
  if (row.startsWith('|')) row = row.slice(1);
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1);
  const cells: string[] = [];
  let cell = '';
  for (let i = 0; i < row.length; i++) {
    const char = row[i] as string;
    if (char === '\\' && row[i + 1] === '|') {
      cell += '\\|';
      i++;
    } else if (char === '|') {
      cells.push(cell.trim());
      cell = '';
    } else {
      cell += char;
    }
  }
  cells.push(cell.trim());
  return cells;
}

export function joinRow(cells: readonly string[], outerPipes: boolean): string {
  return outerPipes ? `| ${cells.join(' | ')} |` : cells.join(' | ');
}
