/**
 * Markdown into mdast with positions, through @lezer/markdown (CommonMark + GFM tables, task lists,
 * strikethrough, autolinks). Lezer parses about ten times faster than micromark and keeps the offset
 * of every node, marks included; this file turns its concrete tree into the mdast that remark would
 * have built (same node types, fields and positions), so the gates read one shape whatever parses.
 *
 * What lezer leaves to its consumer is done here: link reference definitions are collected first
 * and a reference whose label has no definition stays text, as CommonMark says; escapes and
 * character references are decoded; the line prefixes of enclosing block quotes and list items are
 * taken out of the values of code, HTML and text.
 *
 * Nesting is bounded twice, so no input hangs the parser or overflows a recursive walk: a line that
 * opens more than MAX_BLOCK_DEPTH containers stops the parse, and a tree deeper than MAX_TREE_DEPTH
 * is cut there; both are reported as a problem at the place.
 */
import { parser as baseParser, GFM, InlineContext, type BlockContext, type Line } from '@lezer/markdown';
import type { SyntaxNode } from '@lezer/common';
import { decodeNamedCharacterReference } from 'decode-named-character-reference';
import type {
  Blockquote,
  Code,
  Definition,
  Heading,
  Html,
  Image,
  InlineCode,
  Link,
  LinkReference,
  List,
  ListItem,
  Nodes,
  Paragraph,
  PhrasingContent,
  Root,
  RootContent,
  Table,
  TableCell,
  TableRow,
  Text,
} from 'mdast';

/** Containers one inside another (a block quote, a list and a list item count one each); far beyond any document a person writes. */
export const MAX_BLOCK_DEPTH = 128;
/** Depth of the mdast tree, inline nesting included; the walks over it recurse this deep at most. */
export const MAX_TREE_DEPTH = 256;

export interface MarkdownProblem {
  message: string;
  line: number;
  column: number;
  /** As the model's ParseProblem: `refused`, a file the bounds stop reading. */
  kind?: 'refused' | 'encoding';
}

class TooDeep extends Error {
  constructor(readonly offset: number) {
    super('too deep');
  }
}

/** Stops the parse on the line that opens one container too many, before lezer's per-line work grows with the depth. */
const depthGuard = {
  name: 'DepthGuard',
  before: 'LinkReference',
  parse(cx: BlockContext, line: Line): boolean {
    if (cx.depth > MAX_BLOCK_DEPTH) throw new TooDeep(cx.lineStart + line.pos);
    return false;
  },
};

/**
 * Lezer, not knowing the definitions, makes every bracketed `[text]` a link, so a link whose text
 * holds `[a]` (no definition) is lost. The parse is told the labels that may be defined (a scan of
 * the lines that look like a definition, a superset of the real ones), so such a bracket stays
 * text, as CommonMark has it. When the guess was wrong (a definition-like line in a code block, a
 * label over two lines), the file is parsed again with the definitions the tree really holds.
 */
let knownDefinitions: ReadonlySet<string> | undefined;

interface Opener {
  type: unknown;
  from: number;
  to: number;
  side: number;
}

const referenceGuard = {
  name: 'UndefinedReference',
  before: 'LinkEnd',
  parse(cx: InlineContext, next: number, start: number): number {
    if (next !== 93 || !knownDefinitions) return -1;
    // The open brackets are not exposed; `parts` is lezer's own list (version pinned, tested).
    const parts = (cx as unknown as { parts: Array<Opener | null> }).parts;
    for (let index = parts.length - 1; index >= 0; index--) {
      const part = parts[index];
      if (!part || (part.type !== InlineContext.linkStart && part.type !== InlineContext.imageStart)) continue;
      if (!part.side) return -1;
      const after = start + 1 < cx.end ? cx.char(start + 1) : -1;
      if (after === 40) return -1; // `(`: an inline link, lezer's to judge
      let label = cx.slice(part.to, start);
      if (after === 91) {
        const rest = cx.slice(start + 2, cx.end);
        const close = rest.indexOf(']');
        if (close !== -1 && rest.slice(0, close).trim() !== '') label = rest.slice(0, close);
      }
      if (knownDefinitions.has(identifierOf(label))) return -1;
      parts[index] = null;
      return start + 1;
    }
    return -1;
  },
};

/** GFM (and remark-gfm) also strike through with one tilde a side; lezer's extension takes two only. */
const SINGLE_TILDE = { resolve: 'Strikethrough', mark: 'StrikethroughMark' };
const PUNCTUATION = /[\p{P}\p{S}]/u;
const singleTilde = {
  name: 'SingleTildeStrikethrough',
  after: 'Emphasis',
  parse(cx: InlineContext, next: number, pos: number): number {
    if (next !== 126 || cx.char(pos + 1) === 126 || cx.char(pos - 1) === 126) return -1;
    const before = cx.slice(pos - 1, pos);
    const after = cx.slice(pos + 1, pos + 2);
    const spaceBefore = /\s|^$/.test(before);
    const spaceAfter = /\s|^$/.test(after);
    const punctuationBefore = PUNCTUATION.test(before);
    const punctuationAfter = PUNCTUATION.test(after);
    return cx.addDelimiter(
      SINGLE_TILDE,
      pos,
      pos + 1,
      !spaceAfter && (!punctuationAfter || spaceBefore || punctuationBefore),
      !spaceBefore && (!punctuationBefore || spaceAfter || punctuationAfter),
    );
  },
};

const parser = baseParser.configure([GFM, { parseBlock: [depthGuard], parseInline: [referenceGuard, singleTilde] }]);

export function markdownToMdast(source: string): { tree: Root; problems: MarkdownProblem[] } {
  // Lezer breaks lines at LF only; a CR would be content to it. The text is parsed with LF line
  // endings, and each line's offsets are shifted back by the CRs removed before it.
  const text = source.includes('\r') ? source.replace(/\r\n?/g, '\n') : source;
  const lines = lineStarts(text, text === source ? undefined : source);
  try {
    const guessed = likelyDefinitions(text);
    let converter = convert(text, lines, source, guessed);
    if (converter.unresolved || [...converter.definitionSet].some((label) => !guessed.has(label)))
      converter = convert(text, lines, source, converter.definitionSet);
    return { tree: converter.tree as Root, problems: converter.problems };
  } catch (error) {
    if (!(error instanceof TooDeep)) throw error;
    const at = point(lines, error.offset);
    return {
      tree: { type: 'root', children: [], position: { start: point(lines, 0), end: point(lines, text.length) } },
      problems: [
        {
          line: at.line,
          column: at.column,
          message: `block quotes and lists nest more than ${MAX_BLOCK_DEPTH} levels deep here, so the file is not read as markdown`,
        },
      ],
    };
  }
}

function convert(text: string, lines: Lines, source: string, definitions: ReadonlySet<string>): Converter {
  knownDefinitions = definitions;
  try {
    const converter = new Converter(text, lines, source);
    converter.tree = converter.root(parser.parse(text).topNode);
    return converter;
  } finally {
    knownDefinitions = undefined;
  }
}

/** Every label a line opens as `[label]:`, after any block quote or list markers: a superset of the definitions. */
function likelyDefinitions(text: string): Set<string> {
  const labels = new Set<string>();
  if (!text.includes(']:')) return labels;
  for (const match of text.matchAll(/^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)*\[((?:[^\]\\\n]|\\.)+)\]:/gm))
    labels.add(identifierOf(match[1] as string));
  return labels;
}

/** Where each line starts; `shift` (on a text whose CRLFs became LF) how many characters the source has more before it. */
interface Lines {
  starts: number[];
  shift: number[] | undefined;
}

function lineStarts(text: string, source: string | undefined): Lines {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  if (source === undefined) return { starts, shift: undefined };
  const shift = [0];
  let removed = 0;
  for (let index = 0; index < source.length; index++) {
    const code = source.charCodeAt(index);
    if (code === 13 && source.charCodeAt(index + 1) === 10) {
      removed++;
      index++;
      shift.push(removed);
    } else if (code === 10 || code === 13) shift.push(removed);
  }
  return { starts, shift };
}

function point(lines: Lines, offset: number): { line: number; column: number; offset: number } {
  const starts = lines.starts;
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((starts[middle] as number) <= offset) low = middle;
    else high = middle - 1;
  }
  return { line: low + 1, column: offset - (starts[low] as number) + 1, offset: offset + (lines.shift?.[low] ?? 0) };
}

/** An enclosing container, outermost first, as far as stripping line prefixes is concerned. */
type Container = { kind: 'quote' } | { kind: 'item'; indent: number };

const MARKS = new Set([
  'EmphasisMark',
  'LinkMark',
  'CodeMark',
  'QuoteMark',
  'StrikethroughMark',
  'TaskMarker',
  'HeaderMark',
  'TableDelimiter',
  'ListMark',
  'URL',
  'LinkTitle',
  'LinkLabel',
  'CodeInfo',
]);

class Converter {
  readonly problems: MarkdownProblem[] = [];
  private readonly definitions = new Set<string>();
  /** A bracketed text read as a reference with no definition (see referenceGuard). */
  unresolved = false;
  tree: Root | undefined;

  get definitionSet(): ReadonlySet<string> {
    return this.definitions;
  }
  private containers: Container[] = [];
  private cut = false;
  /** Inside a GFM table cell, where `\\|` is a literal pipe even in a code span. */
  private inCell = false;
  /** Inside a link's text, where a literal autolink is not a link. */
  private inLink = false;

  constructor(
    private readonly text: string,
    private readonly lines: Lines,
    private readonly source: string,
  ) {}

  /** The source's line ending at a line feed of the parsed text (remark keeps CRLF in values). */
  lineEnding(at: number): string {
    if (this.source === this.text) return '\n';
    const original = point(this.lines, at).offset;
    return this.source[original] === '\r' ? (this.source[original + 1] === '\n' ? '\r\n' : '\r') : '\n';
  }

  position(from: number, to: number) {
    return { start: point(this.lines, from), end: point(this.lines, to) };
  }

  root(document: SyntaxNode): Root {
    this.collectDefinitions(document);
    return {
      type: 'root',
      children: this.blocks(document, 1) as RootContent[],
      position: this.position(0, this.text.length),
    };
  }

  private collectDefinitions(document: SyntaxNode): void {
    // Definitions may sit inside block quotes and list items; their containers are never inline, so
    // this walk goes no deeper than the (already bounded) block nesting.
    const stack: SyntaxNode[] = [document];
    while (stack.length > 0) {
      const node = stack.pop() as SyntaxNode;
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (child.name === 'LinkReference') {
          const label = child.getChild('LinkLabel');
          if (label) this.definitions.add(identifierOf(this.text.slice(label.from + 1, label.to - 1)));
        } else if (
          child.name === 'Blockquote' ||
          child.name === 'BulletList' ||
          child.name === 'OrderedList' ||
          child.name === 'ListItem'
        )
          stack.push(child);
      }
    }
  }

  private tooDeep(depth: number, at: number): boolean {
    if (depth <= MAX_TREE_DEPTH) return false;
    if (!this.cut) {
      this.cut = true;
      const where = point(this.lines, at);
      this.problems.push({
        line: where.line,
        column: where.column,
        message: `markdown nests more than ${MAX_TREE_DEPTH} levels deep here; what is inside is not read`,
      });
    }
    return true;
  }

  // ---------------------------------------------------------------------------------------------
  // Blocks

  private blocks(parent: SyntaxNode, depth: number): Nodes[] {
    const out: Nodes[] = [];
    if (this.tooDeep(depth, parent.from)) return out;
    for (let child = parent.firstChild; child; child = child.nextSibling) {
      const node = this.block(child, depth);
      if (node) out.push(node);
    }
    return out;
  }

  private block(node: SyntaxNode, depth: number): Nodes | undefined {
    const name = node.name;
    switch (name) {
      case 'Paragraph':
        return {
          type: 'paragraph',
          children: this.inline(node, node.from, node.to, depth + 1, true),
          position: this.position(node.from, node.to),
        } satisfies Paragraph;
      case 'ATXHeading1':
      case 'ATXHeading2':
      case 'ATXHeading3':
      case 'ATXHeading4':
      case 'ATXHeading5':
      case 'ATXHeading6':
        return this.atxHeading(node, Number(name.slice(-1)) as Heading['depth'], depth);
      case 'SetextHeading1':
      case 'SetextHeading2': {
        const underline = node.lastChild;
        const end = underline?.name === 'HeaderMark' ? trimEnd(this.text, node.from, underline.from) : node.to;
        return {
          type: 'heading',
          depth: name === 'SetextHeading1' ? 1 : 2,
          children: this.inline(node, node.from, end, depth + 1),
          position: this.position(node.from, node.to),
        } satisfies Heading;
      }
      case 'Blockquote': {
        this.containers.push({ kind: 'quote' });
        const children = this.blocks(node, depth + 1);
        this.containers.pop();
        return {
          type: 'blockquote',
          children: children as Blockquote['children'],
          position: this.position(node.from, node.to),
        } satisfies Blockquote;
      }
      case 'BulletList':
      case 'OrderedList':
        return this.list(node, name === 'OrderedList', depth);
      case 'FencedCode':
        return this.fencedCode(node);
      case 'CodeBlock':
        return {
          type: 'code',
          lang: null,
          meta: null,
          value: this.indentedCode(node),
          position: this.position(Math.min(node.from, this.skipPrefixes(this.lineStartOf(node.from))), node.to),
        } satisfies Code;
      case 'HTMLBlock':
      case 'CommentBlock':
      case 'ProcessingInstructionBlock': {
        // Indentation before the tag belongs to the block (it is not a container's prefix).
        const start = Math.min(node.from, this.skipPrefixes(this.lineStartOf(node.from)));
        const end = trimEndLine(this.text, node.from, node.to);
        return {
          type: 'html',
          value: this.rawLines(start, end, 0),
          position: this.position(start, end),
        } satisfies Html;
      }
      case 'HorizontalRule':
        return { type: 'thematicBreak', position: this.position(node.from, node.to) };
      case 'LinkReference':
        return this.definition(node);
      case 'Table':
        return this.table(node, depth);
      default:
        return undefined;
    }
  }

  private atxHeading(node: SyntaxNode, level: Heading['depth'], depth: number): Heading {
    const open = node.firstChild;
    let start = open?.name === 'HeaderMark' ? open.to : node.from;
    const close = node.lastChild;
    let end = close && open && close.from !== open.from && close.name === 'HeaderMark' ? close.from : node.to;
    start = skipSpaces(this.text, start, end);
    end = trimEnd(this.text, start, end);
    return {
      type: 'heading',
      depth: level,
      children: this.inline(node, start, end, depth + 1),
      position: this.position(node.from, node.to),
    };
  }

  private list(node: SyntaxNode, ordered: boolean, depth: number): List {
    const items: ListItem[] = [];
    let start: number | null = null;
    let spread = false;
    let previousEnd = -1;
    let first = -1;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name !== 'ListItem') continue;
      const mark = child.getChild('ListMark');
      if (ordered && start === null && mark) start = Number.parseInt(this.text.slice(mark.from, mark.to), 10);
      if (previousEnd >= 0 && this.blankBetween(previousEnd, child.from)) spread = true;
      const item = this.listItem(child, mark, depth + 1);
      if (first === -1) first = item.position?.start.offset ?? child.from;
      items.push(item);
      previousEnd = child.to;
    }
    return {
      type: 'list',
      ordered,
      start: ordered ? start : null,
      spread,
      children: items,
      position: this.position(first === -1 ? node.from : first, node.to),
    };
  }

  private listItem(node: SyntaxNode, mark: SyntaxNode | null, depth: number): ListItem {
    const markEnd = mark ? mark.to : node.from;
    const lineStart = this.lineStartOf(node.from);
    let after = markEnd;
    while (after < this.text.length && (this.text[after] === ' ' || this.text[after] === '\t') && after - markEnd < 5)
      after++;
    const blank = after >= this.text.length || this.text[after] === '\n' || this.text[after] === '\r';
    const spaces = after - markEnd;
    const contentColumn = markEnd - lineStart + (blank || spaces >= 5 ? 1 : spaces);
    const outer = this.prefixWidth(lineStart);
    this.containers.push({ kind: 'item', indent: contentColumn - outer });
    let checked: boolean | null = null;
    const children: Nodes[] = [];
    let spread = false;
    let previousEnd = -1;
    if (!this.tooDeep(depth, node.from)) {
      for (let child = node.firstChild; child; child = child.nextSibling) {
        if (previousEnd >= 0 && this.blankBetween(previousEnd, child.from)) spread = true;
        if (child.name === 'Task') {
          const marker = child.getChild('TaskMarker');
          checked = marker ? this.text[marker.from + 1] !== ' ' : null;
          const begin = marker ? skipSpaces(this.text, marker.to, child.to) : child.from;
          const content = this.inline(child, begin, child.to, depth + 2, true);
          // remark moves the paragraph's start past the checkbox only when text follows it.
          const paragraphStart = content[0]?.type === 'text' ? begin : child.from;
          children.push({
            type: 'paragraph',
            children: content,
            position: this.position(paragraphStart, child.to),
          } satisfies Paragraph);
          previousEnd = child.to;
          continue;
        }
        const converted = this.block(child, depth + 1);
        if (converted) {
          children.push(converted);
          previousEnd = child.to;
        }
      }
    }
    this.containers.pop();
    return {
      type: 'listItem',
      spread,
      checked,
      children: children as ListItem['children'],
      position: this.position(mark ? mark.from : node.from, node.to),
    };
  }

  private blankBetween(from: number, to: number): boolean {
    return /\n[ \t>]*\r?\n/.test(this.text.slice(from, to));
  }

  private lineStartOf(offset: number): number {
    const at = point(this.lines, offset);
    return this.lines.starts[at.line - 1] as number;
  }

  /** The width of the prefixes the enclosing containers take on the line starting at `lineStart`. */
  private prefixWidth(lineStart: number): number {
    return this.skipPrefixes(lineStart) - lineStart;
  }

  /** The offset after the enclosing containers' prefixes on the line starting at `at`. */
  private skipPrefixes(at: number): number {
    let position = at;
    for (const container of this.containers) {
      if (container.kind === 'quote') {
        let probe = position;
        while (probe - position < 3 && this.text[probe] === ' ') probe++;
        if (this.text[probe] !== '>') break; // a lazy continuation line
        position = probe + 1;
        if (this.text[position] === ' ' || this.text[position] === '\t') position++;
      } else {
        let width = 0;
        while (width < container.indent && (this.text[position] === ' ' || this.text[position] === '\t')) {
          width += this.text[position] === '\t' ? 4 - (width % 4) : 1;
          position++;
        }
      }
    }
    return position;
  }

  /** The lines from `from` to `to`, each without its containers' prefixes and up to `indent` more spaces. */
  private rawLines(from: number, to: number, indent: number): string {
    const parts: string[] = [];
    let lineStart = this.lineStartOf(from);
    let first = true;
    while (lineStart <= to) {
      let start = first ? from : this.skipPrefixes(lineStart);
      if (!first) {
        let width = 0;
        while (width < indent && this.text[start] === ' ') {
          width++;
          start++;
        }
      }
      let end = start;
      while (end < to && this.text[end] !== '\n' && this.text[end] !== '\r') end++;
      parts.push(this.text.slice(Math.min(start, end), end));
      if (end >= to) break;
      parts.push(this.lineEnding(end));
      lineStart = end + 1;
      first = false;
    }
    return parts.join('');
  }

  private fencedCode(node: SyntaxNode): Code {
    const open = node.firstChild;
    const info = node.getChild('CodeInfo');
    const infoText = info ? decodeText(this.text.slice(info.from, info.to)).trim() : '';
    const space = infoText.search(/[ \t]/);
    const lang = infoText === '' ? null : space === -1 ? infoText : infoText.slice(0, space);
    const meta = space === -1 ? null : infoText.slice(space).trim() || null;
    const fenceIndent = open ? open.from - this.skipPrefixes(this.lineStartOf(open.from)) : 0;
    const openLineEnd = this.lineEnd(open ? open.to : node.from);
    const last = node.lastChild;
    const close = last && open && last.from !== open.from && last.name === 'CodeMark' ? last : null;
    let value = '';
    if (openLineEnd < node.to) {
      const contentStart = this.nextLine(openLineEnd);
      const contentEnd = close ? this.lineStartOf(close.from) : node.to;
      if (contentStart < contentEnd || (!close && contentStart <= node.to)) {
        const endOfContent = close
          ? Math.max(contentStart, contentEnd - (this.text[contentEnd - 2] === '\r' ? 2 : 1))
          : node.to -
            (this.text[node.to - 1] === '\n'
              ? this.text[node.to - 2] === '\r'
                ? 2
                : 1
              : this.text[node.to - 1] === '\r'
                ? 1
                : 0);
        value = contentStart <= endOfContent ? this.contentLines(contentStart, endOfContent, fenceIndent) : '';
      }
    }
    return { type: 'code', lang, meta, value, position: this.position(node.from, node.to) };
  }

  private indentedCode(node: SyntaxNode): string {
    const from = this.lineStartOf(node.from);
    return this.contentLines(from, node.to, 4);
  }

  /** Whole lines from the line starting at `from` to `to`, containers' prefixes and `indent` columns removed. */
  private contentLines(from: number, to: number, indent: number): string {
    const parts: string[] = [];
    let lineStart = from;
    for (;;) {
      let start = this.skipPrefixes(lineStart);
      let width = 0;
      while (width < indent && (this.text[start] === ' ' || this.text[start] === '\t')) {
        width += this.text[start] === '\t' ? 4 - (width % 4) : 1;
        start++;
      }
      let end = start;
      while (end < to && this.text[end] !== '\n' && this.text[end] !== '\r') end++;
      parts.push(this.text.slice(Math.min(start, end), Math.max(start, end)));
      if (end >= to) break;
      lineStart = this.nextLine(end);
      if (lineStart > to) break;
      parts.push(this.lineEnding(end));
    }
    return parts.join('');
  }

  private lineEnd(offset: number): number {
    let end = offset;
    while (end < this.text.length && this.text[end] !== '\n' && this.text[end] !== '\r') end++;
    return end;
  }

  private nextLine(lineEnd: number): number {
    return this.text[lineEnd] === '\r' && this.text[lineEnd + 1] === '\n' ? lineEnd + 2 : lineEnd + 1;
  }

  private definition(node: SyntaxNode): Definition {
    const label = node.getChild('LinkLabel');
    const url = node.getChild('URL');
    const title = node.getChild('LinkTitle');
    const rawLabel = label ? this.text.slice(label.from + 1, label.to - 1) : '';
    return {
      type: 'definition',
      identifier: identifierOf(rawLabel),
      label: rawLabel,
      url: url ? destination(this.text.slice(url.from, url.to)) : '',
      title: title ? decodeText(this.text.slice(title.from + 1, title.to - 1)) : null,
      position: this.position(node.from, node.to),
    };
  }

  private table(node: SyntaxNode, depth: number): Table {
    const rows: TableRow[] = [];
    let align: NonNullable<Table['align']> = [];
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name === 'TableHeader' || child.name === 'TableRow') rows.push(this.tableRow(child, depth + 1));
      else if (child.name === 'TableDelimiter' && align.length === 0)
        align = alignments(this.text.slice(child.from, child.to));
    }
    return { type: 'table', align, children: rows, position: this.position(node.from, node.to) };
  }

  private cellContent(cell: SyntaxNode, depth: number): PhrasingContent[] {
    this.inCell = true;
    try {
      return this.inline(cell, cell.from, cell.to, depth);
    } finally {
      this.inCell = false;
    }
  }

  /**
   * A row's cells, as GFM splits it: at each unescaped pipe. Lezer marks the pipes and the non-empty
   * cells; an empty cell is the gap between two pipes. A cell runs from its leading pipe (or the row's
   * start) to the next pipe; the last one takes the closing pipe too.
   */
  private tableRow(row: SyntaxNode, depth: number): TableRow {
    const cells: TableCell[] = [];
    const pipes: number[] = [];
    const contents: SyntaxNode[] = [];
    for (let child = row.firstChild; child; child = child.nextSibling) {
      if (child.name === 'TableDelimiter') pipes.push(child.from);
      else if (child.name === 'TableCell') contents.push(child);
    }
    const bounds: Array<[number, number]> = [];
    let start = row.from;
    let index = 0;
    if (pipes[0] === row.from) index = 1;
    for (; index <= pipes.length; index++) {
      const end = index < pipes.length ? (pipes[index] as number) : row.to;
      // After a closing pipe there is no cell: the one before it takes the pipe (below).
      if (index === pipes.length && end <= start + 1 && pipes[pipes.length - 1] === start) break;
      bounds.push([start, end]);
      start = end;
    }
    const last = bounds[bounds.length - 1];
    if (
      last &&
      pipes[pipes.length - 1] !== undefined &&
      (pipes[pipes.length - 1] as number) >= last[1] &&
      last[1] < row.to
    )
      last[1] = row.to;
    let next = 0;
    for (const [from, to] of bounds) {
      const content =
        contents[next] && (contents[next] as SyntaxNode).from >= from && (contents[next] as SyntaxNode).to <= to
          ? (contents[next++] as SyntaxNode)
          : undefined;
      cells.push({
        type: 'tableCell',
        children: content && !this.tooDeep(depth + 1, content.from) ? this.cellContent(content, depth + 2) : [],
        position: this.position(from, to),
      });
    }
    return { type: 'tableRow', children: cells, position: this.position(row.from, row.to) };
  }

  // ---------------------------------------------------------------------------------------------
  // Inline content

  /** The phrasing content of `node` between `from` and `to`: its children there, and text in the gaps. */
  private inline(node: SyntaxNode, from: number, to: number, depth: number, block = false): PhrasingContent[] {
    const out: PhrasingContent[] = [];
    // The spaces ending a paragraph's last line are no content (they would be a hard break before another line).
    if (block) to = trimEnd(this.text, from, to);
    if (this.tooDeep(depth, from)) return out;
    const text = new TextRun(this, out);
    let position = from;
    let lineStartGap = false;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.to <= from || child.from >= to) continue;
      if (child.from > position) text.gap(position, child.from, lineStartGap);
      lineStartGap = false;
      position = Math.max(position, child.to);
      switch (child.name) {
        case 'QuoteMark':
          // A continuation line's `>`: neither it nor the spaces after it are text.
          lineStartGap = true;
          break;
        case 'Escape':
          text.piece(child.from, child.to, this.text.slice(child.from + 1, child.to));
          break;
        case 'Entity':
          text.piece(child.from, child.to, decodeEntity(this.text.slice(child.from, child.to)));
          break;
        case 'HardBreak':
          text.flush();
          out.push({ type: 'break', position: this.position(child.from, child.to) });
          lineStartGap = true;
          break;
        default: {
          if (MARKS.has(child.name) && child.name !== 'URL') break;
          const converted = this.phrasing(child, depth);
          if (converted === undefined) break;
          if (!Array.isArray(converted)) text.flush();
          if (Array.isArray(converted)) {
            for (const item of converted) {
              if (item.type === 'text')
                text.piece(
                  item.position?.start.offset ?? child.from,
                  item.position?.end.offset ?? child.to,
                  item.value,
                );
              else {
                text.flush();
                out.push(item);
              }
            }
          } else out.push(converted);
        }
      }
    }
    if (position < to) text.gap(position, to, lineStartGap);
    text.flush();
    return out;
  }

  private phrasing(node: SyntaxNode, depth: number): PhrasingContent | PhrasingContent[] | undefined {
    switch (node.name) {
      case 'Emphasis':
      case 'StrongEmphasis':
      case 'Strikethrough': {
        const open = node.firstChild;
        const close = node.lastChild;
        const start = open ? open.to : node.from;
        const end = close && open && close.from !== open.from ? close.from : node.to;
        const type = node.name === 'Emphasis' ? 'emphasis' : node.name === 'StrongEmphasis' ? 'strong' : 'delete';
        return {
          type,
          children: this.inline(node, start, end, depth + 1),
          position: this.position(node.from, node.to),
        };
      }
      case 'InlineCode': {
        const open = node.firstChild;
        const close = node.lastChild;
        const start = open ? open.to : node.from;
        const end = close && open && close.from !== open.from ? close.from : node.to;
        return {
          type: 'inlineCode',
          value: codeSpan(
            this.inCell ? this.inlineSource(start, end).replace(/\\\|/g, '|') : this.inlineSource(start, end),
          ),
          position: this.position(node.from, node.to),
        } satisfies InlineCode;
      }
      case 'HTMLTag':
      case 'Comment':
      case 'ProcessingInstruction':
        return {
          type: 'html',
          value: this.inlineSource(node.from, node.to),
          position: this.position(node.from, node.to),
        } satisfies Html;
      case 'Link':
      case 'Image':
        return this.link(node, depth);
      case 'Autolink': {
        const url = node.getChild('URL');
        const raw = url ? this.text.slice(url.from, url.to) : '';
        const href = /^[a-z][a-z0-9+.-]{1,31}:/i.test(raw) ? raw : `mailto:${raw}`;
        const child: Text = {
          type: 'text',
          value: raw,
          position: this.position(url ? url.from : node.from, url ? url.to : node.to),
        };
        return {
          type: 'link',
          title: null,
          url: href,
          children: [child],
          position: this.position(node.from, node.to),
        } satisfies Link;
      }
      case 'URL': {
        // A GFM literal autolink: www. gains http://, an address mailto:. Inside a link's text it is text.
        const raw = this.text.slice(node.from, node.to);
        if (this.inLink) return [{ type: 'text', value: raw, position: this.position(node.from, node.to) }];
        const href = /^www\./i.test(raw) ? `http://${raw}` : /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `mailto:${raw}`;
        return {
          type: 'link',
          title: null,
          url: href,
          children: [{ type: 'text', value: raw, position: this.position(node.from, node.to) }],
          position: this.position(node.from, node.to),
        } satisfies Link;
      }
      default:
        return undefined;
    }
  }

  /** Inline source between two offsets; a continuation line loses its containers' prefixes and its leading whitespace. */
  private inlineSource(from: number, to: number): string {
    const slice = this.text.slice(from, to);
    if (!/[\n\r]/.test(slice)) return slice;
    const parts: string[] = [];
    let start = from;
    for (;;) {
      let end = start;
      while (end < to && this.text[end] !== '\n' && this.text[end] !== '\r') end++;
      parts.push(this.text.slice(start, end));
      if (end >= to) break;
      parts.push(this.lineEnding(end));
      start = skipSpaces(this.text, this.skipPrefixes(this.nextLine(end)), to);
    }
    return parts.join('');
  }

  private link(node: SyntaxNode, depth: number): PhrasingContent | PhrasingContent[] {
    const image = node.name === 'Image';
    const marks: SyntaxNode[] = [];
    let url: SyntaxNode | null = null;
    let title: SyntaxNode | null = null;
    let label: SyntaxNode | null = null;
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.name === 'LinkMark') marks.push(child);
      else if (child.name === 'URL') url = child;
      else if (child.name === 'LinkTitle') title = child;
      else if (child.name === 'LinkLabel') label = child;
    }
    const open = marks[0];
    const close = marks[1];
    const contentStart = open ? open.to : node.from;
    const contentEnd = close ? close.from : node.to;
    const inlineForm = marks.length >= 3 && this.text[marks[2]?.from ?? 0] === '(';
    const position = this.position(node.from, node.to);
    const outerLink = this.inLink;
    this.inLink = true;
    let children: PhrasingContent[];
    try {
      children = this.inline(node, contentStart, contentEnd, depth + 1);
    } finally {
      this.inLink = outerLink;
    }
    if (inlineForm) {
      const href = url ? destination(this.text.slice(url.from, url.to)) : '';
      const titleText = title ? decodeText(this.text.slice(title.from + 1, title.to - 1)) : null;
      if (image)
        return { type: 'image', title: titleText, url: href, alt: plainText(children), position } satisfies Image;
      return { type: 'link', title: titleText, url: href, children, position } satisfies Link;
    }
    // A reference: full `[text][label]`, collapsed `[text][]` or shortcut `[text]`.
    const labelText = label ? this.text.slice(label.from + 1, label.to - 1) : '';
    const referenceType: LinkReference['referenceType'] = !label
      ? 'shortcut'
      : labelText.trim() === ''
        ? 'collapsed'
        : 'full';
    const rawLabel = referenceType === 'full' ? labelText : this.text.slice(contentStart, contentEnd);
    const identifier = identifierOf(rawLabel);
    if (this.definitions.has(identifier)) {
      if (image)
        return {
          type: 'imageReference',
          identifier,
          label: rawLabel,
          referenceType,
          alt: plainText(children),
          position,
        };
      return {
        type: 'linkReference',
        identifier,
        label: rawLabel,
        referenceType,
        children,
        position,
      } satisfies LinkReference;
    }
    // No definition: the brackets are text, and what is between them stays as it was parsed.
    this.unresolved = true;
    const opener = image ? '![' : '[';
    const pieces: PhrasingContent[] = [
      { type: 'text', value: opener, position: this.position(node.from, contentStart) },
      ...children,
    ];
    const tailEnd = node.to;
    pieces.push({
      type: 'text',
      value: this.text.slice(contentEnd, tailEnd),
      position: this.position(contentEnd, tailEnd),
    });
    return pieces;
  }

  /** Text between two offsets of inline content, line prefixes of continuation lines taken out. */
  gapText(from: number, to: number, lineStart: boolean): { value: string; start: number; end: number } {
    let value = '';
    let index = from;
    let start = from;
    let end = from;
    if (lineStart) {
      while (index < to && (this.text[index] === ' ' || this.text[index] === '\t')) index++;
      start = index;
    }
    while (index < to) {
      const code = this.text.charCodeAt(index);
      if (code === 10 || code === 13) {
        value = value.replace(/[ \t]+$/, '');
        value += this.lineEnding(index);
        index += code === 13 && this.text.charCodeAt(index + 1) === 10 ? 2 : 1;
        end = index;
        while (index < to && (this.text[index] === ' ' || this.text[index] === '\t')) index++;
        continue;
      }
      let next = index;
      while (next < to && this.text.charCodeAt(next) !== 10 && this.text.charCodeAt(next) !== 13) next++;
      value += this.text.slice(index, next);
      index = next;
      end = next;
    }
    return { value, start, end };
  }
}

/** Adjacent text, escapes and character references become one text node, as in mdast. */
class TextRun {
  private value = '';
  private start = -1;
  private end = -1;

  constructor(
    private readonly converter: Converter,
    private readonly out: PhrasingContent[],
  ) {}

  gap(from: number, to: number, lineStart: boolean): void {
    const { value, start, end } = this.converter.gapText(from, to, lineStart);
    if (value === '') return;
    if (this.start === -1) this.start = start;
    this.value += value;
    this.end = end;
  }

  piece(from: number, to: number, value: string): void {
    if (this.start === -1) this.start = from;
    this.value += value;
    this.end = to;
  }

  flush(): void {
    if (this.start !== -1 && this.value !== '')
      this.out.push({ type: 'text', value: this.value, position: this.converter.position(this.start, this.end) });
    this.value = '';
    this.start = -1;
    this.end = -1;
  }
}

/** A label as CommonMark matches it (whitespace collapsed, case folded), and as mdast's `identifier`. */
function identifierOf(label: string): string {
  return label
    .replace(/[\t\n\r ]+/g, ' ')
    .replace(/^ | $/g, '')
    .toLowerCase()
    .toUpperCase()
    .toLowerCase();
}

function skipSpaces(text: string, from: number, to: number): number {
  let index = from;
  while (index < to && (text[index] === ' ' || text[index] === '\t')) index++;
  return index;
}

function trimEnd(text: string, from: number, to: number): number {
  let index = to;
  while (
    index > from &&
    (text[index - 1] === ' ' || text[index - 1] === '\t' || text[index - 1] === '\n' || text[index - 1] === '\r')
  )
    index--;
  return index;
}

function trimEndLine(text: string, from: number, to: number): number {
  let index = to;
  while (index > from && (text[index - 1] === '\n' || text[index - 1] === '\r')) index--;
  return index;
}

function alignments(delimiter: string): NonNullable<Table['align']> {
  const cells = delimiter.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
  return cells.map((cell) => {
    const trimmed = cell.trim();
    const left = trimmed.startsWith(':');
    const right = trimmed.endsWith(':');
    return left && right ? 'center' : left ? 'left' : right ? 'right' : null;
  });
}

function codeSpan(raw: string): string {
  // One space (or line ending) of padding each side goes, unless the span is nothing but spaces.
  const pad = (code: number) => code === 32 || code === 10;
  return raw.length > 2 && pad(raw.charCodeAt(0)) && pad(raw.charCodeAt(raw.length - 1)) && /[^ \n]/.test(raw)
    ? raw.slice(1, -1)
    : raw;
}

function destination(raw: string): string {
  const inner = raw.startsWith('<') && raw.endsWith('>') ? raw.slice(1, -1) : raw;
  return decodeText(inner);
}

const ESCAPABLE = /\\([!-/:-@[-`{-~])|&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{0,31});/g;

/** Backslash escapes and character references decoded, as in a link destination, title or info string. */
function decodeText(raw: string): string {
  if (!raw.includes('\\') && !raw.includes('&')) return raw;
  return raw.replace(ESCAPABLE, (whole, escaped: string | undefined, reference: string | undefined) =>
    escaped !== undefined ? escaped : decodeEntity(`&${reference};`) || whole,
  );
}

function decodeEntity(entity: string): string {
  const body = entity.slice(1, -1);
  if (body.startsWith('#')) {
    const code =
      body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
    if (!Number.isFinite(code) || code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\uFFFD';
    return String.fromCodePoint(code);
  }
  const decoded = decodeNamedCharacterReference(body);
  return decoded === false ? entity : decoded;
}

/** The plain text of phrasing content, as an image's alt: text and code values, nothing else. */
function plainText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  const stack: PhrasingContent[] = [...nodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop() as PhrasingContent;
    if (node.type === 'text' || node.type === 'inlineCode') out += node.value;
    else if (node.type === 'image' || node.type === 'imageReference') out += node.alt ?? '';
    else if ('children' in node)
      for (let index = node.children.length - 1; index >= 0; index--)
        stack.push(node.children[index] as PhrasingContent);
  }
  return out;
}
