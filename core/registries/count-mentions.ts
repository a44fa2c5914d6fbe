/**
 * Sizes of a registry written in words, in the phrasings the corpus uses: "registers **96**
 * codes", "(97 codes; …" after `spec/v2/errors.json`, "107 registered codes" in a schema
 * description, "has 118 rows" in a sentence that names the codemap, "17 metadata keys", and a
 * heading that counts what it heads ("### 3.1 Metadata keys (17)"). Which registry a noun counts,
 * and what names a registry, come from the table of counted registries (counted-registries.ts);
 * the unit a count is read in is the sentence (`sentenceRange`, the one every mention reads).
 * Ordinary counts ("the 11 codes below", "the table has 6 rows") are left alone.
 */
import type { Heading, Nodes, Parent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { inlineCodes } from '../markdown/index.js';
import type { MarkdownFile } from '../model/index.js';
import {
  COUNTED_REGISTRIES,
  registryFileName,
  type CountedRegistry,
  type CountedRegistryId,
} from './counted-registries.js';
import { CITES_V1, sentenceRange } from './v1-scope.js';

export interface CountMention {
  registry: CountedRegistryId;
  /** The number as written, emphasis included (`**96**`), and its offsets in the text. */
  written: string;
  value: number;
  /** The whole phrase, for messages: `**96** codes`, `Metadata keys (17)`. */
  phrase: string;
  start: number;
  end: number;
  /** `prose`: a number before a noun in a sentence; `heading`: a heading that counts what it heads. */
  form: 'prose' | 'heading';
  /** For a heading that counts what it heads: how many entries the block under it lists, when it is a table, a list or an enumeration. */
  listed?: number;
}

/** Nouns that count whichever registry the sentence names before them. */
const ROW_NOUNS = ['rows', 'entries'];
/** An opening quotation mark right before a count: the count is quoted from another text. */
const QUOTE_BEFORE = /["“'‘]/;
/** Words right after a count that say it counts a list at hand. */
const A_LIST_HERE = /^[ \t]+(?:below|above|here|listed here|that follow)\b/i;
/** Words that say "N rows" counts some other table than the registry the sentence names. */
const ANOTHER_TABLE = /\b(?:tables?|lists?|sections?|columns?|below|above|subset)\b/i;

interface Matcher {
  registries: readonly CountedRegistry[];
  count: RegExp;
  quick: RegExp;
  /** Each registry with the pattern of what names it in a sentence: its file, its other names. */
  named: ReadonlyArray<{ registry: CountedRegistry; pattern: RegExp }>;
  /** A sentence that names a registry file counts that file, whatever else it says of v1. */
  namesAFile: RegExp;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function phrasePattern(noun: string): string {
  return noun.split(' ').map(escape).join('[ \\t]+');
}

function compile(registries: readonly CountedRegistry[]): Matcher {
  const nouns = [...new Set([...registries.flatMap((registry) => registry.nouns), ...ROW_NOUNS])].sort(
    (a, b) => b.length - a.length,
  );
  const alternation = nouns.map(phrasePattern).join('|');
  const files = [...new Set(registries.map(registryFileName))].map(escape).join('|');
  return {
    registries,
    count: new RegExp(`(?<![\\d.])(\\*\\*|__)?\\b(\\d+)\\1?[ \\t]+(${alternation})\\b`, 'gi'),
    quick: new RegExp(`\\d[*_]*[ \\t]+(?:${alternation})\\b`, 'i'),
    named: registries.map((registry) => ({
      registry,
      pattern: new RegExp(
        [registryFileName(registry), ...registry.names].map((name) => `\\b${phrasePattern(name)}\\b`).join('|'),
        'i',
      ),
    })),
    namesAFile: new RegExp(`\\b(?:${files})\\b`),
  };
}

const DEFAULT_MATCHER = compile(COUNTED_REGISTRIES);

/**
 * The registry a count by `noun` counts, given its sentence up to the end of the count (what names
 * the registry comes first: "errors.json registers 97 codes", "107 registered codes") and the part
 * of it before the count.
 */
function countedBy(matcher: Matcher, noun: string, sentence: string, before: string): CountedRegistry | undefined {
  const lower = noun.toLowerCase().replace(/\s+/g, ' ');
  if (ROW_NOUNS.includes(lower)) {
    // Rows of which table: the sentence names one registry before the count, and no other table
    // ("the renamed table of the codemap has 6 rows" counts that table).
    const named = new Set(
      matcher.named
        .filter(({ registry, pattern }) => registry.rows && pattern.test(before))
        .map(({ registry }) => registry),
    );
    if (named.size !== 1 || ANOTHER_TABLE.test(before)) return undefined;
    return [...named][0];
  }
  const registry = matcher.registries.find((candidate) => candidate.nouns.includes(lower));
  if (!registry || registry.about === undefined) return registry;
  const names = matcher.named.find((entry) => entry.registry === registry)?.pattern;
  return registry.about.test(sentence) || names?.test(sentence) ? registry : undefined;
}

/**
 * The registry counts written in `text` (prose, or one string of a JSON/YAML document), outside
 * the ranges `excluded` (generated regions, code). A sentence that speaks of v1 counts v1's
 * registries, unless it names a registry file, which is then the one it counts.
 */
export function textCountMentions(
  text: string,
  excluded: ReadonlyArray<readonly [number, number]> = [],
  matcher: Matcher = DEFAULT_MATCHER,
): CountMention[] {
  if (!matcher.quick.test(text)) return [];
  const found: CountMention[] = [];
  for (const match of text.matchAll(matcher.count)) {
    const start = match.index ?? 0;
    if (excluded.some(([from, to]) => start >= from && start < to)) continue;
    // A count in quotation marks ("its \"108 codes\"") quotes another text; it states nothing here.
    if (QUOTE_BEFORE.test(text.slice(Math.max(0, start - 1), start))) continue;
    // "the 3 metadata keys below" counts the list below, not the registry.
    if (A_LIST_HERE.test(text.slice(start + match[0].length, start + match[0].length + 24))) continue;
    const range = sentenceRange(text, start);
    const sentence = text.slice(range.start, range.end);
    const registry = countedBy(
      matcher,
      match[3] ?? '',
      text.slice(range.start, start + match[0].length),
      text.slice(range.start, start),
    );
    if (!registry || (CITES_V1.test(sentence) && !matcher.namesAFile.test(sentence))) continue;
    const written = `${match[1] ?? ''}${match[2] ?? ''}${match[1] ?? ''}`;
    found.push({
      registry: registry.id,
      written,
      value: Number(match[2]),
      phrase: match[0],
      start,
      end: start + written.length,
      form: 'prose',
    });
  }
  return found;
}

/** "Metadata keys (17)", "5. Core families (72)": a heading's words before a parenthesised number. */
const HEADING_COUNT = /^(?:[\d.]+[ \t]+)?(.*?)[ \t]*\((\d+)\)$/;

/**
 * Headings that count what they head, each with what the block under it lists. The heading is
 * read from the markdown tree, so a `#` line inside a fenced block is never one.
 */
function headingCountMentions(
  file: MarkdownFile,
  excluded: ReadonlyArray<readonly [number, number]>,
  matcher: Matcher,
): CountMention[] {
  const found: CountMention[] = [];
  const walk = (parent: Parent): void => {
    parent.children.forEach((node, index) => {
      if (node.type === 'heading') {
        const mention = headingCount(file, node, parent.children[index + 1], matcher);
        if (mention && !excluded.some(([from, to]) => mention.start >= from && mention.start < to)) found.push(mention);
      } else if ('children' in node) walk(node);
    });
  };
  walk(file.tree);
  return found;
}

function headingCount(
  file: MarkdownFile,
  heading: Heading,
  next: Nodes | undefined,
  matcher: Matcher,
): CountMention | undefined {
  const words = toString(heading).trim();
  const match = HEADING_COUNT.exec(words);
  const from = heading.position?.start.offset;
  const to = heading.position?.end.offset;
  if (!match || from === undefined || to === undefined || CITES_V1.test(words)) return undefined;
  const noun = match[1] ?? '';
  const registry = matcher.registries.find((candidate) =>
    candidate.nouns.includes(noun.toLowerCase().replace(/\s+/g, ' ')),
  );
  if (!registry) return undefined;
  const number = match[2] ?? '';
  const start = file.text.lastIndexOf(`(${number})`, to) + 1;
  if (start <= from) return undefined;
  const listed = blockCount(next);
  return {
    registry: registry.id,
    written: number,
    value: Number(number),
    phrase: `${noun} (${number})`,
    start,
    end: start + number.length,
    form: 'heading',
    ...(listed === undefined ? {} : { listed }),
  };
}

/**
 * How many entries the block right under a heading lists: the rows of a table, the items of a
 * list, or the code spans of a paragraph that only enumerates them ("`a`, `b`, and `c`.");
 * undefined when it is none of these (prose, a subsection).
 */
function blockCount(block: Nodes | undefined): number | undefined {
  if (block?.type === 'table') return block.children.length - 1;
  if (block?.type === 'list') return block.children.length;
  if (block?.type !== 'paragraph') return undefined;
  const spans = block.children.filter((child) => child.type === 'inlineCode').length;
  const onlySeparators = block.children.every(
    (child) =>
      child.type === 'inlineCode' || (child.type === 'text' && /^[\s,.;]*(?:(?:and|or)[\s,.;]*)?$/.test(child.value)),
  );
  return spans >= 3 && onlySeparators ? spans : undefined;
}

/** The registry counts of a markdown document's prose and headings, outside `excluded` (its generated regions, code, HTML). */
export function markdownCountMentions(
  file: MarkdownFile,
  excluded: ReadonlyArray<readonly [number, number]>,
  matcher: Matcher = DEFAULT_MATCHER,
): CountMention[] {
  if (!/\d/.test(file.text)) return [];
  return [...textCountMentions(file.text, excluded, matcher), ...headingCountMentions(file, excluded, matcher)].sort(
    (a, b) => a.start - b.start,
  );
}

/**
 * Generated regions, code and HTML: text that is not the author's prose. Code blocks, code spans and
 * HTML are leaves the markdown model has listed already, so no tree is walked for them; kept per file.
 */
export function proseExclusions(file: MarkdownFile): ReadonlyArray<readonly [number, number]> {
  let ranges = exclusionsOf.get(file);
  if (ranges) return ranges;
  ranges = file.regions.map((region) => [region.open.start, region.close.end] as const);
  for (const node of [...file.codeBlocks.map((block) => block.node), ...inlineCodes(file.tree), ...file.htmlNodes]) {
    const from = node.position?.start.offset;
    const to = node.position?.end.offset;
    if (from !== undefined && to !== undefined) ranges.push([from, to]);
  }
  exclusionsOf.set(file, ranges);
  return ranges;
}

const exclusionsOf = new WeakMap<MarkdownFile, Array<readonly [number, number]>>();

/** Whether some string of a JSON/YAML document may hold a count: a digit before a counted noun. */
export function mayHoldCount(text: string, matcher: Matcher = DEFAULT_MATCHER): boolean {
  return matcher.quick.test(text);
}
