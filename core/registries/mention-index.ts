/**
 * One index of where the corpus names a registry's entries, built once per corpus over every text
 * it holds: markdown prose, code spans, tables and code blocks, and every string of its JSON and
 * YAML documents (OpenAPI, AsyncAPI and seams descriptions, schema descriptions). It holds the
 * error codes, the event types and the registry counts written there; the gates that judge them,
 * the scope of `check FILE…` and the language server read this index, never a text of their own.
 * Each part is worked out on first read, so a run that judges only events never reads counts.
 */
import type { InlineCode } from 'mdast';
import { type Corpus, type DataFile, type MarkdownFile, dataStrings, defineService, Location } from '../model/index.js';
import type { Span } from '../output/index.js';
import { isGeneratedDocument, walkMarkdown } from '../markdown/index.js';
import { markdownCodeMentions, yamlCodeMentions, type CodeMention } from './error-code-mentions.js';
import { collectEventNameMentions, type EventNameMention } from './event-mentions.js';
import { CITES_V1, isV2Text, markdownReadsAsV1, sentenceAt } from './v1-scope.js';
import {
  markdownCountMentions,
  mayHoldCount,
  proseExclusions,
  textCountMentions,
  type CountMention,
} from './count-mentions.js';

/** An error code mention with the file it is in and where, worked out when asked. */
export interface LocatedCodeMention {
  file: string;
  mention: CodeMention;
  place: () => Span;
}

/** A registry count with the file it is in and where. */
export interface LocatedCount extends CountMention {
  file: string;
  /** `markdown`: prose, whose offsets `start`/`end` are in the file's text; `data`: a string of a JSON/YAML document. */
  kind: 'markdown' | 'data';
  /** A line a generator writes about what it generated ("Generated from `spec/v2/errors.json` (97 codes; …)"). */
  generatorLine: boolean;
  place: () => Span;
}

/** A header name written in a code span of v2 text (`OpenWOP-Idempotent-Replay`, `Retry-After: 5`). */
interface HeaderMention {
  file: string;
  /** The name as written, without a value after it. */
  written: string;
  /** Whether the text around it is read in v1's terms (its sentence, section or column cites v1), where v1's spellings are quoted. */
  readsAsV1(): boolean;
  /**
   * Whether it stands where the text speaks of a name as gone or renamed (its sentence, or the
   * heading of its section, says removed, renamed, deprecated, replaced, formerly): an old name
   * quoted there is history, not use.
   */
  speaksOfOldNames(): boolean;
  place: () => Span;
}

/** Words that say a name is spoken of as gone or replaced. */
const OLD_NAMES =
  /\b(?:remov\w*|absent|dropped|delet\w*|obsolete|renam\w*|deprecat\w*|replac\w*|retir\w*|formerly|legacy|instead of|no longer|supersed\w*)\b/i;

/** The heading of the markdown section holding `offset`, as written. */
function sectionHeading(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const match = [...before.matchAll(/^ {0,3}#{1,6}[ \t]+(.*)$/gm)].pop();
  return match?.[1] ?? '';
}

export interface MentionIndex {
  readonly codes: readonly LocatedCodeMention[];
  readonly events: readonly EventNameMention[];
  readonly counts: readonly LocatedCount[];
  readonly headers: readonly HeaderMention[];
}

/** The corpus's mention index: its parts are worked out on first read and kept for the model's life. */
const MentionIndexService = defineService('mention index', lazyIndex);

/** The corpus's mention index, built on first use and kept for the corpus's life. */
export function mentionIndex(corpus: Corpus): MentionIndex {
  return corpus.service(MentionIndexService);
}

/** The event types named anywhere in the corpus (the index's `events`). */
export function eventNameMentions(corpus: Corpus): EventNameMention[] {
  return mentionIndex(corpus).events as EventNameMention[];
}

function lazyIndex(corpus: Corpus): MentionIndex {
  let codes: LocatedCodeMention[] | undefined;
  let events: EventNameMention[] | undefined;
  let counts: LocatedCount[] | undefined;
  let headers: HeaderMention[] | undefined;
  return {
    get headers() {
      return (headers ??= headerMentions(corpus));
    },
    get codes() {
      return (codes ??= codeMentions(corpus));
    },
    get events() {
      return (events ??= collectEventNameMentions(corpus));
    },
    get counts() {
      return (counts ??= countMentions(corpus));
    },
  };
}

/**
 * What one document of the corpus yields for a part of the index, kept with the document: a file
 * object is its content (an edit makes a new one), so the index of a model that differs from the
 * last in a few files reads those files alone again. What a document yields depends on it alone.
 */
function perDocument<F extends MarkdownFile | DataFile, T>(find: (file: F) => readonly T[]): (file: F) => readonly T[] {
  const kept = new WeakMap<F, readonly T[]>();
  return (file) => {
    let found = kept.get(file);
    if (!found) kept.set(file, (found = find(file)));
    return found;
  };
}

const markdownCodes = perDocument((file: MarkdownFile): LocatedCodeMention[] =>
  markdownCodeMentions(file).map((mention) => ({
    file: file.path,
    mention,
    place: () => file.lines.span(mention.start, mention.end),
  })),
);

const dataCodes = perDocument((file: DataFile): LocatedCodeMention[] =>
  yamlCodeMentions(file).map((mention) => ({
    file: file.path,
    mention,
    place: () => file.lines.span(mention.start, mention.end),
  })),
);

function codeMentions(corpus: Corpus): LocatedCodeMention[] {
  return [...corpus.markdownFiles().flatMap(markdownCodes), ...corpus.dataFiles().flatMap(dataCodes)];
}

/** A line a generator writes about its output. */
const GENERATOR_LINE = /\bgenerated\s+(?:from|by)\b/i;

function countMentions(corpus: Corpus): LocatedCount[] {
  // A document generated whole writes its counts from its generator's registry: generated/drift judges them.
  return [
    ...corpus
      .markdownFiles()
      .filter((file) => !isGeneratedDocument(file))
      .flatMap(markdownCounts),
    ...corpus.dataFiles().flatMap(dataCounts),
  ];
}

const markdownCounts = perDocument((file: MarkdownFile): LocatedCount[] => {
  return markdownCountMentions(file, proseExclusions(file)).map((mention) => {
    const lineStart = file.text.lastIndexOf('\n', mention.start) + 1;
    const lineEnd = file.text.indexOf('\n', mention.start);
    const line = file.text.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
    return {
      ...mention,
      file: file.path,
      kind: 'markdown',
      generatorLine: GENERATOR_LINE.test(line),
      place: () => file.lines.span(mention.start, mention.end),
    };
  });
});

/** A string of a JSON/YAML document holds no generated region: each count in it is written there. */
const dataCounts = perDocument((file: DataFile): LocatedCount[] => {
  const found: LocatedCount[] = [];
  for (const string of dataStrings(file, (value) => mayHoldCount(value))) {
    const code = [...string.value.matchAll(/`[^`\n]*`/g)].map((match): [number, number] => [
      match.index ?? 0,
      (match.index ?? 0) + match[0].length,
    ]);
    for (const mention of textCountMentions(string.value, code)) {
      found.push({
        ...mention,
        file: file.path,
        kind: 'data',
        generatorLine: false,
        place: () => Location.pointer(file, string.path).chars(mention.start, mention.end).resolve(),
      });
    }
  }
  return found;
});

/** A header name: words joined by `-`, a value after a colon allowed (`OpenWOP-Idempotent-Replay: true`). */
const HEADER_SPAN = /^([A-Za-z][A-Za-z0-9-]*-[A-Za-z0-9-]+)(?::.*)?$/;

/**
 * Header names in code spans of v2 text: the prose (not a generated region or a document generated
 * whole, which restate the API document) and the strings of v2 JSON/YAML documents.
 */
function headerMentions(corpus: Corpus): HeaderMention[] {
  return [
    ...corpus
      .markdownFiles()
      .filter((file) => isV2Text(file.path) && !isGeneratedDocument(file))
      .flatMap(markdownHeaders),
    ...corpus
      .dataFiles()
      .filter((file) => isV2Text(file.path))
      .flatMap(dataHeaders),
  ];
}

const markdownHeaders = perDocument((file: MarkdownFile): HeaderMention[] => {
  const found: HeaderMention[] = [];
  walkMarkdown(file.tree, {
    inlineCode: (code: InlineCode) => {
      const written = HEADER_SPAN.exec(code.value)?.[1];
      const start = code.position?.start;
      const offset = start?.offset;
      if (!written || !start || offset === undefined) return;
      if (file.regions.some((region) => offset >= region.contentStart && offset < region.contentEnd)) return;
      let v1: boolean | undefined;
      found.push({
        file: file.path,
        written,
        readsAsV1: () => (v1 ??= markdownReadsAsV1(file, offset + 1)),
        speaksOfOldNames: () =>
          OLD_NAMES.test(sentenceAt(file.text, offset + 1)) || OLD_NAMES.test(sectionHeading(file.text, offset)),
        place: () => ({
          line: start.line,
          column: start.column + 1,
          endLine: start.line,
          endColumn: start.column + 1 + written.length,
        }),
      });
    },
  });
  return found;
});

const dataHeaders = perDocument((file: DataFile): HeaderMention[] => {
  const found: HeaderMention[] = [];
  for (const string of dataStrings(file, (value) => value.includes('`') && value.includes('-'))) {
    for (const match of string.value.matchAll(/`([^`\n]+)`/g)) {
      const written = HEADER_SPAN.exec(match[1] ?? '')?.[1];
      if (!written) continue;
      const at = (match.index ?? 0) + 1;
      found.push({
        file: file.path,
        written,
        readsAsV1: () => CITES_V1.test(sentenceAt(string.value, at)),
        speaksOfOldNames: () => OLD_NAMES.test(sentenceAt(string.value, at)),
        place: () =>
          Location.pointer(file, string.path)
            .chars(at, at + written.length)
            .resolve(),
      });
    }
  }
  return found;
});
