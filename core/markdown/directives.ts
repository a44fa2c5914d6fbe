/**
 * The tool's own comments in markdown: `<!-- openwop-spec-NAME … -->`, in a block of HTML or
 * inline in a paragraph (never in code, which is not HTML). What they mean is core/run's
 * (suppressions.ts); here they are found, placed and told apart from prose, since a comment
 * addressed to the tool is not part of the document's text.
 */
import type { Html } from 'mdast';

/** Every name after `openwop-spec-` is taken as meant for the tool: a misspelt one is reported, not ignored. */
const DIRECTIVE = /^\s*openwop-spec-([^\s]*)/i;
const COMMENT = /<!--([\s\S]*?)-->/g;

export interface DirectiveComment {
  /** The word after `openwop-spec-` as written (`disable-next-line`, or a misspelling of it). */
  name: string;
  /** The rest of the comment, after the name. */
  body: string;
  /** Where the comment starts and ends (1-based lines and columns; offsets into the file's text when known). */
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  offset?: number;
  endOffset?: number;
}

/** The directive comments among a document's HTML nodes, in order. `text` is the document, to place each comment exactly. */
export function directiveComments(htmlNodes: readonly Html[], text: string): DirectiveComment[] {
  const found: DirectiveComment[] = [];
  for (const node of htmlNodes) {
    const start = node.position?.start;
    if (!start || !/openwop-spec-/i.test(node.value)) continue;
    for (const match of node.value.matchAll(COMMENT)) {
      const directive = DIRECTIVE.exec(match[1] ?? '');
      if (!directive) continue;
      const before = node.value.slice(0, match.index);
      const lines = before.split('\n');
      const line = start.line + lines.length - 1;
      // A comment on the node's first line starts at the node's column plus what precedes it there;
      // on a later line, after the container's prefix, which the node's value leaves out.
      const column = lines.length === 1 ? start.column + before.length : columnIn(text, line, match[0]);
      const spanLines = match[0].split('\n');
      const endLine = line + spanLines.length - 1;
      const endColumn =
        spanLines.length === 1 ? column + match[0].length : (spanLines[spanLines.length - 1] as string).length + 1;
      const offset = start.offset === undefined ? undefined : sourceOffset(text, start.offset + match.index, match[0]);
      found.push({
        name: directive[1] ?? '',
        body: (match[1] ?? '').slice(directive[0].length),
        line,
        column,
        endLine,
        endColumn,
        ...(offset !== undefined ? { offset, endOffset: offset + match[0].length } : {}),
      });
    }
  }
  return found;
}

/** The offset of `comment` in `text` at or after `near`, when it is written there verbatim (not split by a container's `> `). */
function sourceOffset(text: string, near: number, comment: string): number | undefined {
  if (text.startsWith(comment, near)) return near;
  const found = text.indexOf(comment, near);
  return found === -1 ? undefined : found;
}

function columnIn(text: string, line: number, comment: string): number {
  const source = text.split('\n')[line - 1] ?? '';
  const index = source.indexOf(comment.split('\n')[0] as string);
  return index === -1 ? 1 : index + 1;
}

/**
 * `text` with each directive comment blanked (every character but a line end made a space): what
 * the document says to its reader, at the same offsets, so that other spans still apply to it.
 */
export function blankDirectives(text: string, directives: readonly DirectiveComment[]): string {
  let out = '';
  let at = 0;
  for (const directive of [...directives].sort((a, b) => (a.offset ?? 0) - (b.offset ?? 0))) {
    if (directive.offset === undefined || directive.endOffset === undefined || directive.offset < at) continue;
    out += text.slice(at, directive.offset) + text.slice(directive.offset, directive.endOffset).replace(/[^\n]/g, ' ');
    at = directive.endOffset;
  }
  return out + text.slice(at);
}
