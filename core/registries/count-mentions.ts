/**
 * The size of the error registry written by hand: "registers **96** codes", "(97 codes; …" after
 * `spec/v2/errors.json`, "107 registered codes" in a schema description. A number right before
 * "codes" counts only in a sentence about the registry (it says "regist…" or names errors.json);
 * ordinary counts ("the 11 codes below") are left alone.
 */
import type { MarkdownFile } from '../model/index.js';
import { isGeneratedDocument } from '../markdown/index.js';
import { CITES_V1 } from './v1-scope.js';

export interface CountMention {
  /** The number as written, emphasis included (`**96**`), and its offsets in the text. */
  written: string;
  value: number;
  /** The whole phrase, for messages: `**96** codes`. */
  phrase: string;
  start: number;
  end: number;
}

const QUICK = /\d[*_]*[ \t]+(?:registered[ \t]+|error[ \t]+)*codes\b/;
const HAND_COUNT = /(\*\*|__)?\b(\d+)\1?[ \t]+(?:registered[ \t]+|error[ \t]+)*codes\b/g;
const ABOUT_THE_REGISTRY = /regist|errors\.json/i;

/** Ranges of a text to leave alone, or how to find them: found only once a phrase is in the text, since most texts have none. */
export type Exclusions = ReadonlyArray<readonly [number, number]> | (() => ReadonlyArray<readonly [number, number]>);

/** Whether `start` is outside every excluded range (the ranges asked for at the first call). */
function outsideOf(excluded: Exclusions): (start: number) => boolean {
  let ranges: ReadonlyArray<readonly [number, number]> | undefined;
  return (start) => !(ranges ??= typeof excluded === 'function' ? excluded() : excluded).some(([from, to]) => start >= from && start < to);
}

/** Counts of the error registry in `text`, outside the ranges `excluded` (generated regions, code). */
export function errorCountMentions(text: string, excluded: Exclusions = []): CountMention[] {
  if (!QUICK.test(text)) return [];
  const found: CountMention[] = [];
  const outside = outsideOf(excluded);
  for (const match of text.matchAll(HAND_COUNT)) {
    const start = match.index ?? 0;
    if (!outside(start)) continue;
    const sentenceStart = Math.max(text.lastIndexOf('. ', start), text.lastIndexOf('\n', start)) + 1;
    if (!ABOUT_THE_REGISTRY.test(text.slice(sentenceStart, start + match[0].length))) continue;
    const written = `${match[1] ?? ''}${match[2] ?? ''}${match[1] ?? ''}`;
    found.push({ written, value: Number(match[2]), phrase: match[0], start, end: start + written.length });
  }
  return found;
}

/** A registry whose size prose may state, and how many entries it has. */
export type CountedRegistry = 'errors' | 'codemap' | 'metadata' | 'core-families' | 'ext-families';

export interface RegistryCountMention extends CountMention {
  registry: CountedRegistry;
}

/** What a noun counts, given the sentence it is in: a registry entry, or nothing known. */
function countedBy(noun: string, sentence: string): CountedRegistry | undefined {
  const lower = noun.toLowerCase();
  if (/^metadata keys?$/.test(lower)) return 'metadata';
  if (/^core families$/.test(lower)) return 'core-families';
  if (/^ext(?:ension)? families$/.test(lower)) return 'ext-families';
  if (/^(?:rows|entries)$/.test(lower)) {
    // Rows of which table: the sentence names the registry before the count, and no other table
    // ("the renamed table of the codemap has 6 rows" counts that table).
    const before = sentence.slice(0, Math.max(0, sentence.lastIndexOf(noun)));
    const codemap = before.search(/event-codemap\.json|\bcodemap\b/i);
    const errors = before.search(/\berrors\.json\b|\berror registry\b/i);
    if ((codemap === -1) === (errors === -1) || /\b(?:tables?|lists?|sections?|columns?|below|above|subset)\b/i.test(before)) return undefined;
    return codemap !== -1 ? 'codemap' : 'errors';
  }
  return undefined;
}

const COUNT_NOUN = /(?<![\d.])(\*\*|__)?\b(\d+)\1?[ \t]+(metadata keys?|core families|ext(?:ension)? families|rows|entries)\b/gi;
const NAMES_A_V2_REGISTRY = /\b(?:spec\/v2\/)?(?:event-codemap|errors|declaration)\.json\b/;
const HEADING_COUNT = /^(#{1,6})[ \t]+(?:[\d.]+[ \t]+)?(.*?)[ \t]*\((\d+)\)[ \t]*#*[ \t]*$/gm;

/**
 * Sizes of a registry stated in prose in the phrasings the corpus uses: "117 rows" or "has 118
 * rows" in a sentence that names the codemap or the error registry, "17 metadata keys", and a
 * heading that counts what it heads ("### 3.1 Metadata keys (17)", "## 5. Core families (72)").
 * `excluded` ranges (generated regions, code) and sentences that speak of v1 are left alone.
 */
export function registryCountMentions(text: string, excluded: Exclusions = [], speaksOfV1: (sentence: string) => boolean = () => false): RegistryCountMention[] {
  const found: RegistryCountMention[] = [];
  const outside = outsideOf(excluded);
  for (const match of text.matchAll(COUNT_NOUN)) {
    const start = match.index ?? 0;
    if (!outside(start)) continue;
    const sentenceStart = Math.max(text.lastIndexOf('. ', start), text.lastIndexOf('\n\n', start), text.lastIndexOf('\n#', start)) + 1;
    const ends = ['. ', '.\n', '\n\n'].map((end) => text.indexOf(end, start)).filter((at) => at !== -1);
    const sentence = text.slice(sentenceStart, ends.length > 0 ? Math.min(...ends) : text.length);
    const registry = countedBy(match[3] ?? '', sentence);
    // A sentence that names the registry's file counts that file, whatever else it says of v1.
    if (!registry || (speaksOfV1(sentence) && !NAMES_A_V2_REGISTRY.test(sentence))) continue;
    const written = `${match[1] ?? ''}${match[2] ?? ''}${match[1] ?? ''}`;
    found.push({ registry, written, value: Number(match[2]), phrase: match[0], start, end: start + written.length });
  }
  for (const match of text.matchAll(HEADING_COUNT)) {
    const registry = countedBy(match[2] ?? '', match[0]);
    const number = match[3] ?? '';
    const start = (match.index ?? 0) + match[0].lastIndexOf(`(${number})`) + 1;
    if (!registry || !outside(start) || speaksOfV1(match[0])) continue;
    found.push({ registry, written: number, value: Number(number), phrase: `${match[2] ?? ''} (${number})`, start, end: start + number.length });
  }
  return found.sort((a, b) => a.start - b.start);
}

/** Per parsed file: several gates (one per registry) ask for the same document's counts. */
const countsOf = new WeakMap<MarkdownFile, RegistryCountMention[]>();
const exclusionsOf = new WeakMap<MarkdownFile, Array<[number, number]>>();

/** The registry counts of a markdown document's prose: not its generated regions, code or HTML, nor a document generated whole. */
export function markdownRegistryCounts(file: MarkdownFile): RegistryCountMention[] {
  let counts = countsOf.get(file);
  if (!counts) {
    counts = isGeneratedDocument(file) || !/\d/.test(file.text) ? [] : registryCountMentions(file.text, () => proseExclusions(file), (sentence) => CITES_V1.test(sentence));
    countsOf.set(file, counts);
  }
  return counts;
}

/** Generated regions, code and HTML: text that is not the author's prose. */
export function proseExclusions(file: MarkdownFile): Array<[number, number]> {
  const known = exclusionsOf.get(file);
  if (known) return known;
  const ranges: Array<[number, number]> = file.regions.map((region) => [region.open.start, region.close.end]);
  const walk = (node: { type: string; position?: { start: { offset?: number }; end: { offset?: number } }; children?: unknown[] }): void => {
    if (node.type === 'code' || node.type === 'inlineCode' || node.type === 'html') {
      const from = node.position?.start.offset;
      const to = node.position?.end.offset;
      if (from !== undefined && to !== undefined) ranges.push([from, to]);
      return;
    }
    for (const child of node.children ?? []) walk(child as typeof node);
  };
  walk(file.tree);
  exclusionsOf.set(file, ranges);
  return ranges;
}

/** Each count of `registry` in `file` that is not `size`, as a finding that says both. */
export function reportRegistryCounts(file: MarkdownFile, registry: CountedRegistry, size: number, what: string, report: (finding: { file: string; line: number; column: number; endLine?: number; endColumn?: number; messageId: string; data: { registry: string; count: number; written: number }; message: string; hint: string }) => void): void {
  for (const mention of markdownRegistryCounts(file)) {
    if (mention.registry !== registry) continue;
    const place = { file: file.path, ...file.lines.span(mention.start, mention.end) };
    if (mention.value !== size) {
      report({ ...place, messageId: 'count-wrong', data: { registry: what, count: size, written: mention.value }, message: `"${mention.phrase}" gives the size of ${what} as ${mention.value}; it has ${size}`, hint: `write ${size}, or correct ${what} if the prose is right` });
    }
    // A heading that counts what it heads is held to that too: the list, table or enumeration under it.
    const listed = mention.phrase.endsWith(')') ? headedCount(file.text, mention.end) : undefined;
    if (listed !== undefined && listed !== mention.value) {
      report({ ...place, messageId: 'heading-count-differs', data: { registry: what, count: listed, written: mention.value }, message: `"${mention.phrase}" heads ${listed} entries; the count and what it counts disagree`, hint: `make the count and the entries under the heading agree (${what} has ${size})` });
    }
  }
}

/**
 * How many entries the block right under a heading lists: the rows of a table, the items of a
 * list, or the code spans of a sentence that enumerates them ("`a`, `b`, and `c`."); undefined
 * when the block is none of these (prose, subsections).
 */
function headedCount(text: string, from: number): number | undefined {
  const after = text.slice(text.indexOf('\n', from) + 1).replace(/^\s*\n/, '');
  const block = after.split(/\n\s*\n/)[0] ?? '';
  const lines = block.split('\n');
  if (/^\s*#/.test(block)) return undefined;
  if (lines[0]?.trim().startsWith('|') && /^\s*\|?\s*:?-+/.test(lines[1] ?? '')) return lines.slice(2).filter((line) => line.trim().startsWith('|')).length;
  if (/^(?:[-*+]|\d+\.)\s/.test(lines[0] ?? '')) return lines.filter((line) => /^(?:[-*+]|\d+\.)\s/.test(line)).length;
  const sentence = block.split(/\.(?:\s|$)/)[0] ?? '';
  const spans = sentence.match(/`[^`\n]+`/g) ?? [];
  const rest = sentence.replace(/`[^`\n]+`/g, '').replace(/,|\band\b|\bor\b/g, '').trim();
  return spans.length >= 3 && rest === '' ? spans.length : undefined;
}
