/**
 * The `> **Normative home:** \`family\`, \`family\`.` line of a core document's status block:
 * which families of spec/v2/declaration.json the document is the home of.
 */
import type { Nodes, Parent } from 'mdast';
import { plainText } from '../markdown/index.js';
import type { MarkdownFile } from '../model/index.js';

export interface NormativeHomeName {
  family: string;
  line: number;
  /** Column of the family name (inside its backticks). */
  column: number;
}

const LINE = /^(\s*>\s?)\*\*Normative home:\*\*(.*)$/;

/** The families a document's status block names, or [] when it has no Normative home line. */
export function normativeHomes(file: MarkdownFile): NormativeHomeName[] {
  const quote = file.tree.children.find((node) => node.type === 'blockquote');
  const start = quote?.position?.start.line;
  const end = quote?.position?.end.line;
  if (start === undefined || end === undefined) return [];
  const names: NormativeHomeName[] = [];
  for (let line = start; line <= end; line++) {
    const from = file.lines.lineStart(line);
    const to = line < file.lines.lineCount ? file.lines.lineStart(line + 1) - 1 : file.text.length;
    const text = file.text.slice(from, to);
    const match = LINE.exec(text);
    if (!match) continue;
    const offset = text.length - (match[2] ?? '').length;
    for (const name of (match[2] ?? '').matchAll(/`([^`]+)`/g)) {
      names.push({ family: name[1] ?? '', line, column: offset + (name.index ?? 0) + 2 });
    }
  }
  return names;
}

/** The prose a family's normative text must live in: v2 documents; v1 prose predates the house style and is not judged. */
const NORMATIVE_TEXT_PREFIX = 'spec/v2/';

const KEYWORD = /\b(?:MUST|SHOULD|MAY)\b/;

export interface NormativeTextProblem {
  family: string;
  /** Index in the family's `normativeText`. */
  entry: number;
  home: string;
  /** What is wrong: the home is not in the corpus, its Normative home line does not claim the family, or no home states the obligation. */
  kind: 'absent' | 'unclaimed' | 'unstated';
  /** The documents the problem is about (for `unstated`, every home read). */
  paths: string[];
  message: string;
  hint: string;
}

/**
 * Whether the `normativeText` homes of a core family are complete: each v2 document exists and its
 * status block names the family as a Normative home (the reciprocal claim), and the homes together
 * state the family's obligation: one paragraph (with the list it introduces, if any) or table cell
 * of one of them names the family and carries a MUST, SHOULD or MAY. Upstream's predicate
 * (scripts/check-v2-normative-home.mjs) reads the prose of all of a family's homes as one: any home
 * may carry the obligation. An extension README is a co-pointer that cannot carry it, and a home
 * the corpus does not hold (a v1 document outside it) may: then whether the obligation is stated
 * cannot be told, and nothing is said.
 */
export function normativeTextProblems(
  corpus: { markdown(path: string): MarkdownFile | undefined; exists(path: string): boolean },
  family: string,
  homes: readonly unknown[],
): NormativeTextProblem[] {
  const problems: NormativeTextProblem[] = [];
  const read: Array<{ entry: number; home: string; file: MarkdownFile }> = [];
  let unread = false;
  homes.forEach((home, entry) => {
    if (typeof home !== 'string') return;
    const path = home.replace(/#.*$/, '');
    if (!home.startsWith(NORMATIVE_TEXT_PREFIX)) {
      // A v1 home is read when the corpus holds it; a schema co-points and carries no obligation.
      const v1 = path.endsWith('.md') ? corpus.markdown(path) : undefined;
      if (v1) read.push({ entry, home, file: v1 });
      else if (path.endsWith('.md')) unread = true;
      return;
    }
    const file = corpus.markdown(path);
    if (!file) {
      problems.push({
        family,
        entry,
        home,
        kind: 'absent',
        paths: [path],
        message: `normativeText of \`${family}\` names ${path}, which is not a document of the corpus`,
        hint: "name the v2 document that holds the family's normative text",
      });
      unread = true;
      return;
    }
    if (!normativeHomes(file).some((name) => name.family === family)) {
      problems.push({
        family,
        entry,
        home,
        kind: 'unclaimed',
        paths: [path],
        message: `normativeText of \`${family}\` names ${path}, whose Normative home line does not name \`${family}\``,
        hint: `add \`${family}\` to the "> **Normative home:**" line of ${path}`,
      });
    }
    if (!EXTENSION_HOME.test(path)) read.push({ entry, home, file });
  });
  const first = read[0];
  if (first && !unread && !read.some(({ file }) => hasNormativeStatement(file, family))) {
    const paths = read.map(({ file }) => file.path);
    problems.push({
      family,
      entry: first.entry,
      home: first.home,
      kind: 'unstated',
      paths,
      message: `normativeText of \`${family}\` names ${paths.join(' and ')}, but no paragraph of ${paths.length > 1 ? 'any of them' : 'it'} names \`${family}\` with a MUST, SHOULD or MAY`,
      hint: `state the family's requirements in ${paths.length > 1 ? 'one of them' : paths[0]}, naming \`${family}\`, or point normativeText at the document that does`,
    });
  }
  return problems;
}

/** An extension README co-points at a core family; the obligation is carried by core or v1 prose. */
const EXTENSION_HOME = /^spec\/v2\/ext\//;

function hasNormativeStatement(file: MarkdownFile, family: string): boolean {
  const names = new RegExp(`(?<![\\w.-])${family.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`);
  return normativeStatements(file).some((text) => names.test(text));
}

/** Each document's statements that carry a MUST, SHOULD or MAY, kept with the document (a file object is its content): a registry asks per family. */
const statementsOf = new WeakMap<MarkdownFile, readonly string[]>();

/**
 * The statements of a document that carry a keyword: each paragraph, a lead-in ("When a host
 * advertises `x`, it:") with the list it introduces as one, and each table cell.
 */
function normativeStatements(file: MarkdownFile): readonly string[] {
  const kept = statementsOf.get(file);
  if (kept) return kept;
  const statements: string[] = [];
  const add = (text: string) => {
    if (KEYWORD.test(text)) statements.push(text);
  };
  const visit = (node: Nodes): void => {
    if (!('children' in node)) return;
    const children = (node as Parent).children as Nodes[];
    children.forEach((child, index) => {
      if (child.type === 'paragraph') {
        const next = children[index + 1];
        add(plainText(child));
        if (next?.type === 'list') add(`${plainText(child)} ${plainText(next)}`);
      } else if (child.type === 'tableCell') add(plainText(child));
      else visit(child);
    });
  };
  visit(file.tree);
  statementsOf.set(file, statements);
  return statements;
}
