/** Markdown into mdast with positions (through lezer, see from-lezer.ts), and the indexes gates share. */
import GithubSlugger from 'github-slugger';
import type { Code, Definition, Html, Image, Link, Nodes, Parent, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { markdownToMdast, type MarkdownProblem } from './from-lezer.js';

/** Bumped whenever the tree built from the same text changes shape, so cached trees are not reused. */
export const MARKDOWN_TREE_VERSION = 'lezer-mdast 1';

export interface MarkdownHeading {
  depth: number;
  /** Plain text: inline code keeps its content, loses its backticks. */
  text: string;
  /** The GitHub anchor: github-slugger, duplicates suffixed -1, -2. */
  slug: string;
  /** A leading section number such as `1.4`, `6` or `B.2`, when the heading has one. */
  number: string | undefined;
  line: number;
  column: number;
}

interface MarkdownLink {
  kind: 'link' | 'image' | 'definition';
  url: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  node: Link | Image | Definition;
}

export interface MarkdownCodeBlock {
  lang: string | undefined;
  meta: string | undefined;
  value: string;
  /** The fence's line; the content starts on the next line. */
  line: number;
  endLine: number;
  /** The HTML comment directly before the fence, if any (an annotation such as `<!-- example: … -->`). */
  annotation: string | undefined;
  node: Code;
}

export interface MarkdownModel {
  tree: Root;
  headings: MarkdownHeading[];
  /** Every fragment a link may name: heading slugs and explicit `id`/`name` attributes. */
  anchors: Set<string>;
  links: MarkdownLink[];
  codeBlocks: MarkdownCodeBlock[];
  htmlNodes: Html[];
  /** What kept the text from being read whole (nesting beyond the bounds); located. */
  problems: MarkdownProblem[];
}

export interface ParsedMarkdown {
  tree: Root;
  problems: MarkdownProblem[];
}

const NUMBERED_HEADING = /^(?:§\s*)?(?:Appendix\s+([A-Z](?:\.\d+)*)|(\d+(?:\.\d+)*|[A-Z](?:\.\d+)+))\.?(?=\s|$)/;
const EXPLICIT_ANCHOR = /\b(?:id|name)\s*=\s*["']([^"']+)["']/g;

function headingNumber(text: string): string | undefined {
  const match = NUMBERED_HEADING.exec(text.trim());
  return match ? (match[1] ?? match[2]) : undefined;
}

export function parseMarkdown(text: string): MarkdownModel {
  return indexMarkdown(parseMarkdownTree(text));
}

export function parseMarkdownTree(text: string): ParsedMarkdown {
  return markdownToMdast(text);
}

/** The indexes gates share, built in one walk over a tree (freshly parsed or restored from the parse cache). */
export function indexMarkdown({ tree, problems }: ParsedMarkdown): MarkdownModel {
  const slugger = new GithubSlugger();
  const headings: MarkdownHeading[] = [];
  const anchors = new Set<string>();
  const links: MarkdownLink[] = [];
  const codeBlocks: MarkdownCodeBlock[] = [];
  const htmlNodes: Html[] = [];

  // Document order, with an explicit stack: the tree's depth is bounded, but a stack costs nothing
  // and unist-util-visit's generality (tests, actions, reverse) was a tenth of a large run.
  const stack: Array<{ parent: Parent; index: number }> = [];
  const enter = (node: Nodes, index: number | undefined, parent: Parent | undefined): void => {
    switch (node.type) {
      case 'heading': {
        const headingText = toString(node);
        const slug = slugger.slug(headingText);
        anchors.add(slug);
        headings.push({
          depth: node.depth,
          text: headingText,
          slug,
          number: headingNumber(headingText),
          line: node.position?.start.line ?? 1,
          column: node.position?.start.column ?? 1,
        });
        break;
      }
      case 'link':
      case 'image':
      case 'definition':
        links.push({
          kind: node.type,
          url: node.url,
          line: node.position?.start.line ?? 1,
          column: node.position?.start.column ?? 1,
          endLine: node.position?.end.line ?? 1,
          endColumn: node.position?.end.column ?? 1,
          node,
        });
        break;
      case 'code': {
        const previous = parent && index !== undefined && index > 0 ? parent.children[index - 1] : undefined;
        codeBlocks.push({
          lang: node.lang ?? undefined,
          meta: node.meta ?? undefined,
          value: node.value,
          line: node.position?.start.line ?? 1,
          endLine: node.position?.end.line ?? 1,
          annotation: previous?.type === 'html' && previous.value.startsWith('<!--') ? previous.value : undefined,
          node,
        });
        break;
      }
      case 'html':
        htmlNodes.push(node);
        for (const match of node.value.matchAll(EXPLICIT_ANCHOR)) {
          if (match[1]) anchors.add(match[1]);
        }
        break;
      default:
        break;
    }
  };
  enter(tree, undefined, undefined);
  stack.push({ parent: tree, index: 0 });
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as { parent: Parent; index: number };
    if (frame.index >= frame.parent.children.length) {
      stack.pop();
      continue;
    }
    const index = frame.index++;
    const node = frame.parent.children[index] as Nodes;
    enter(node, index, frame.parent);
    if ('children' in node && node.children.length > 0) stack.push({ parent: node, index: 0 });
  }

  return { tree, headings, anchors, links, codeBlocks, htmlNodes, problems };
}
