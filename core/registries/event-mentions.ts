/**
 * Where the corpus names an event type or an AI-envelope kind, so that gates can hold every such
 * name to the registries. A name counts only where its context makes it one:
 *
 * - a table cell, in inline code, under a column headed Type, Event(s), Event type or Emits;
 * - a JSON example (a `json`/`jsonc` block that parses, or any JSON/YAML corpus file) in an object
 *   shaped like an event (`type` beside `eventId`, `specversion`, or `sequence` and `payload`)
 *   or an envelope (`kind` beside `correlationId`).
 *
 * - inline code anywhere in prose, for a name of three segments that is an event type: a
 *   transition (`<domain>.<noun>.<verb-ed>`) under a protocol domain. Three segments are never a
 *   protocol type, so wherever one is written it is a finding;
 * - inline code anywhere in prose or in a description, for the v1 name of a codemap row that v2
 *   renamed, of two segments or three (`runOrchestrator.decided`, `tool.session.opened`);
 * - inline code of two segments ending in a past tense (`output.harvested`) in a sentence that says
 *   it is an event: one a host emits, an "event type", "the `x` event".
 *
 * Prose elsewhere is left alone: `mcp.client` or `subject.kind` look like types and are not, nor
 * are `ctx.storage.kv` or `run.cancelled.reason` (a field of an event).
 */
import type { InlineCode, Table } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { inlineCodes, walkMarkdown } from '../markdown/index.js';
import { isScalar, type Document, type LineCounter } from 'yaml';
import {
  type Corpus,
  type DataFile,
  type MarkdownFile,
  codeBlockData,
  codeBlockValue,
  dataStrings,
  Location,
  nodeAt,
  type PathSegment,
} from '../model/index.js';
import { isPastTense, TYPE_SEGMENT } from './event-names.js';
import { eventCodemap } from './event-codemap.js';
import { isV2Text, sentenceAt } from './v1-scope.js';

export interface EventNameMention {
  file: string;
  line: number;
  column: number;
  name: string;
  /** An event `type`, or the `kind` of an AI envelope. */
  role: 'type' | 'envelope-kind';
  /** `example`: a member of an event-shaped object; `prose`: inline code in an event column of a table or, for three segments, anywhere. */
  source: 'example' | 'prose';
  /** The v2 type a codemap row renames this v1 name to, when it is one. */
  renamedTo?: string;
  /** Read as an event only because its sentence says it is one ("a host emits `x`"). */
  claimed?: boolean;
  /** Declared as a message of the AsyncAPI document (an SSE frame such as `ai.message.chunk`), so a known name though not a type. */
  declaredMessage?: boolean;
}

const ASYNCAPI = 'api/v2/asyncapi.yaml';

/** An event type written in a code span of the prose, placed at the name inside the span. */
function proseTypeMention(file: MarkdownFile, code: InlineCode, claimed: boolean): EventNameMention {
  const start = code.position?.start;
  return {
    file: file.path,
    line: start?.line ?? 1,
    column: (start?.column ?? 0) + 1,
    name: code.value,
    role: 'type',
    source: 'prose',
    ...(claimed ? { claimed: true } : {}),
  };
}

const EVENT_COLUMNS = new Set(['type', 'types', 'event', 'events', 'event type', 'v2 type', 'emits']);
/** Dotted lowercase names, a trailing `.*` wildcard allowed (`eval.*`). */
const DOTTED = /^[a-z][a-z0-9-]*(?:\.(?:[a-z0-9][a-z0-9_-]*|\*))+$/;

const VENDOR_SHAPE = new RegExp(`^${TYPE_SEGMENT}\\.${TYPE_SEGMENT}(?:\\.${TYPE_SEGMENT})?$`);

/**
 * What one document names, with the codemap's reading it was found under: kept with the document
 * (a file object is its content; an edit makes a new one), so that the index of a model that
 * differs from the last in a few files reads those files alone again.
 */
const perDocument = new WeakMap<object, { reading: string; mentions: readonly EventNameMention[] }>();

function documentMentions(
  file: MarkdownFile | DataFile,
  reading: string,
  find: (into: EventNameMention[]) => void,
): readonly EventNameMention[] {
  const kept = perDocument.get(file);
  if (kept?.reading === reading) return kept.mentions;
  const mentions: EventNameMention[] = [];
  find(mentions);
  perDocument.set(file, { reading, mentions });
  return mentions;
}

/** Every event name the corpus writes; the mention index (mention-index.ts) calls it once per corpus. */
export function collectEventNameMentions(corpus: Corpus): EventNameMention[] {
  const renamed = new Map<string, string>();
  const domains = new Set<string>();
  for (const row of eventCodemap(corpus)?.rows ?? []) {
    const v2 = row.v2Override ?? row.v2;
    if (row.v1 !== v2) renamed.set(row.v1, v2);
    domains.add(v2.split('.')[0] ?? '');
  }
  const v2Types = new Set(eventCodemap(corpus)?.rows.map((row) => row.v2Override ?? row.v2) ?? []);
  // What `kind` decides from besides a document: a document's mentions found under another are found again.
  const reading = JSON.stringify([[...renamed], [...domains], [...v2Types]]);
  // In v2 text a renamed v1 name of any length is one, and so is a name the sentence says is an
  // event; elsewhere (notes about the corpus, files shared with v1) only what three segments make certain.
  const kind = (file: string, name: string, sentence: () => string): 'event' | 'claimed' | undefined => {
    const v2 = isV2Text(file);
    if (
      (renamed.has(name) && !v2Types.has(name) && (v2 || THREE_SEGMENTS.test(name))) ||
      (THREE_SEGMENTS.test(name) && isTransition(name, domains))
    )
      return 'event';
    return v2 && TWO_SEGMENTS.test(name) && isPastForm(name.split('.')[1] ?? '') && SAYS_EVENT.test(sentence())
      ? 'claimed'
      : undefined;
  };
  const found: Array<readonly EventNameMention[]> = [];
  for (const file of corpus.markdownFiles()) {
    found.push(
      documentMentions(file, reading, (into) => {
        const inTables = tableMentions(file, into);
        proseCodeMentions(file, inTables, kind, into);
        codeBlockMentions(file, into);
      }),
    );
  }
  for (const file of corpus.dataFiles()) {
    found.push(
      documentMentions(file, reading, (into) => {
        walkValue(
          { file: file.path, at: (path) => scalarStart(file.doc, file.lineCounter, path) },
          file.value,
          [],
          into,
        );
        stringMentions(file, kind, into);
      }),
    );
  }
  const messages = asyncApiMessageNames(corpus);
  // A document's mentions are kept for the next model: what depends on other files goes on a copy.
  return found.flat().map((mention) => {
    const v2 = renamed.get(mention.name);
    const renamedTo = v2 !== undefined && !v2Types.has(mention.name) ? v2 : undefined;
    const declaredMessage = messages.has(mention.name);
    if (renamedTo === undefined && !declaredMessage) return mention;
    // Copied with its getters: where a name sits in a data file is looked up only if a finding asks.
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(mention)) as EventNameMention;
    if (renamedTo !== undefined) copy.renamedTo = renamedTo;
    if (declaredMessage) copy.declaredMessage = true;
    return copy;
  });
}

const THREE_SEGMENTS = /^[a-z][a-zA-Z0-9-]*\.[a-z][a-zA-Z0-9-]*\.[a-z][a-zA-Z0-9-]*$/;
const TWO_SEGMENTS = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*\.[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** A sentence that says a name in it is an event: a host emits it, it fires, it is an event type, "the `x` event". */
const SAYS_EVENT = /\bemit(?:s|ted|ting)?\b|\bfir(?:e|es|ed|ing)\b|\bevent types?\b|`\s+events?\b/i;
/**
 * Simple pasts that are no participle (`dispatch.began`): no protocol type may end in one, but a
 * name that does, written as an event, is still meant as one.
 */
const SIMPLE_PAST = new Set([
  'began',
  'broke',
  'chose',
  'drew',
  'drove',
  'fell',
  'flew',
  'froze',
  'gave',
  'grew',
  'hid',
  'knew',
  'rose',
  'sank',
  'saw',
  'shook',
  'spoke',
  'stole',
  'took',
  'threw',
  'woke',
  'wrote',
  'went',
  'came',
  'became',
]);

type Kind = (file: string, name: string, sentence: () => string) => 'event' | 'claimed' | undefined;

/** A past participle (`harvested`, `lost`) or a simple past (`began`). */
function isPastForm(segment: string): boolean {
  return isPastTense(segment) || SIMPLE_PAST.has(segment);
}

/** `<domain>.<noun>.<verb-ed>`: under a protocol domain, ending in a past tense. */
function isTransition(name: string, domains: ReadonlySet<string>): boolean {
  const [first = '', , last = ''] = name.split('.');
  return domains.has(first) && isPastTense(last);
}

/** Inline code in prose, outside the event columns already read and outside generated regions, that names an event. */
function proseCodeMentions(
  file: MarkdownFile,
  read: ReadonlySet<InlineCode>,
  kind: Kind,
  into: EventNameMention[],
): void {
  for (const code of inlineCodes(file.tree)) {
    if (read.has(code) || !code.value.includes('.')) continue;
    const offset = code.position?.start.offset ?? 0;
    if (file.regions.some((region) => offset >= region.contentStart && offset < region.contentEnd)) continue;
    const found = kind(file.path, code.value, () => sentenceAt(file.text, offset));
    if (!found) continue;
    into.push(proseTypeMention(file, code, found === 'claimed'));
  }
}

const CODE_SPAN = /`([^`\n]+)`/g;

/** Code spans naming an event type inside the strings of a JSON or YAML file (a description, a `$comment`). */
function stringMentions(file: DataFile, kind: Kind, into: EventNameMention[]): void {
  for (const string of dataStrings(file, (value) => value.includes('`') && value.includes('.'))) {
    for (const match of string.value.matchAll(CODE_SPAN)) {
      const name = match[1] ?? '';
      const found = name.includes('.')
        ? kind(file.path, name, () => sentenceAt(string.value, match.index ?? 0))
        : undefined;
      if (!found) continue;
      const start = (match.index ?? 0) + 1;
      let located: { line: number; column: number } | undefined;
      const get = () =>
        (located ??= Location.pointer(file, string.path)
          .chars(start, start + name.length)
          .resolve());
      into.push(
        Object.defineProperties(
          {
            file: file.path,
            name,
            role: 'type',
            source: 'prose',
            ...(found === 'claimed' ? { claimed: true } : {}),
          } as EventNameMention,
          {
            line: { enumerable: true, get: () => get().line },
            column: { enumerable: true, get: () => get().column },
          },
        ),
      );
    }
  }
}

/**
 * The AsyncAPI message names that are known names though no types: each message a channel of the
 * document carries (`hostEvents`' heartbeat messages), and each one declared under `components`
 * that the prose states is an SSE frame name, not a type ("Three frame names are not types: …").
 * A message declared but carried by no channel and called a frame nowhere is only a rendering of
 * a name, which the registries must still account for.
 */
function asyncApiMessageNames(corpus: Corpus): Set<string> {
  const value = corpus.data(ASYNCAPI)?.value as
    { channels?: Record<string, unknown>; components?: { messages?: Record<string, unknown> } } | undefined;
  const declared = value?.components?.messages ?? {};
  const nameOf = (message: unknown): string | undefined => {
    const name =
      typeof message === 'object' && message !== null ? (message as Record<string, unknown>).name : undefined;
    return typeof name === 'string' ? name : undefined;
  };
  const names = new Set<string>();
  for (const channel of Object.values(value?.channels ?? {})) {
    const carried =
      typeof channel === 'object' && channel !== null ? (channel as Record<string, unknown>).messages : undefined;
    for (const message of Object.values(typeof carried === 'object' && carried !== null ? carried : {})) {
      const ref =
        typeof message === 'object' && message !== null ? (message as Record<string, unknown>).$ref : undefined;
      const key = typeof ref === 'string' && ref.startsWith(MESSAGE_REF) ? ref.slice(MESSAGE_REF.length) : undefined;
      const name = nameOf(key === undefined ? message : declared[key]);
      if (name !== undefined) names.add(name);
    }
  }
  const frames = statedFrameNames(corpus);
  for (const message of Object.values(declared)) {
    const name = nameOf(message);
    if (name !== undefined && frames.has(name)) names.add(name);
  }
  return names;
}

const MESSAGE_REF = '#/components/messages/';
/** A sentence that names SSE frames and says they are no types ("Three frame names are not types …"). */
const FRAMES_NOT_TYPES = /\bframe names?\b[^.]*\b(?:not|no|absent)\b[^.]*\btypes?\b/i;

/** The frame names the prose states are no event types, each a code span of such a sentence. */
function statedFrameNames(corpus: Corpus): Set<string> {
  const names = new Set<string>();
  for (const file of corpus.markdownFiles()) {
    if (!file.text.includes('frame name')) continue;
    for (const code of inlineCodes(file.tree)) {
      if (!DOTTED.test(code.value)) continue;
      if (FRAMES_NOT_TYPES.test(sentenceAt(file.text, code.position?.start.offset ?? 0))) names.add(code.value);
    }
  }
  return names;
}

function tableMentions(file: MarkdownFile, into: EventNameMention[]): Set<InlineCode> {
  const read = new Set<InlineCode>();
  walkMarkdown(file.tree, {
    table: (table: Table) => {
      const [header, ...body] = table.children;
      if (!header) return;
      const columns = header.children.flatMap((cell, index) =>
        EVENT_COLUMNS.has(toString(cell).trim().toLowerCase()) ? [index] : [],
      );
      if (columns.length === 0) return;
      for (const row of body) {
        for (const index of columns) {
          const cell = row.children[index];
          if (!cell) continue;
          walkMarkdown(cell, {
            inlineCode: (code) => {
              if (!DOTTED.test(code.value)) return;
              read.add(code);
              into.push(proseTypeMention(file, code, false));
            },
          });
        }
      }
    },
  });
  return read;
}

function codeBlockMentions(file: MarkdownFile, into: EventNameMention[]): void {
  for (const block of file.codeBlocks) {
    if (block.lang !== 'json' && block.lang !== 'jsonc') continue;
    // The value alone (JSON.parse): the positioned parse is run only for a name a finding places.
    const { value, problems } = codeBlockValue(block.node);
    if (problems.length > 0 || value === undefined) continue;
    const indent = (block.node.position?.start.column ?? 1) - 1;
    const at = (path: PathSegment[]): { line: number; column: number } => {
      const parsed = codeBlockData(block.node);
      const start = scalarStart(parsed.doc, parsed.lineCounter, path);
      return { line: block.line + start.line, column: start.column + indent };
    };
    walkValue({ file: file.path, at }, value, [], into);
  }
}

/** The file a value walked by `walkValue` came from, and where a scalar at a path of it is written. */
interface ValueSite {
  readonly file: string;
  at(path: PathSegment[]): { line: number; column: number };
}

/**
 * Event-shaped objects in a parsed value (a corpus file's or a code block's): where each name sits
 * is looked up only if a finding asks, so a clean corpus never pays for a positioned parse.
 */
function walkValue(site: ValueSite, value: unknown, path: PathSegment[], into: EventNameMention[]): void {
  // `path` is the walk's own stack, copied only for a name found: most values hold none.
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      path.push(index);
      walkValue(site, value[index], path, into);
      path.pop();
    }
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const members = value as Record<string, unknown>;
  const has = (key: string) => Object.hasOwn(members, key);
  const eventLike = has('eventId') || has('specversion') || (has('sequence') && has('payload'));
  if (eventLike && typeof members.type === 'string')
    into.push(deferredMention(site, [...path, 'type'], members.type, 'type'));
  if (has('correlationId') && typeof members.kind === 'string' && members.kind.includes('.'))
    into.push(deferredMention(site, [...path, 'kind'], members.kind, 'envelope-kind'));
  for (const key of Object.keys(members)) {
    path.push(key);
    walkValue(site, members[key], path, into);
    path.pop();
  }
}

function deferredMention(
  site: ValueSite,
  path: PathSegment[],
  name: string,
  role: EventNameMention['role'],
): EventNameMention {
  let found: { line: number; column: number } | undefined;
  const get = () => (found ??= site.at(path));
  return Object.defineProperties({ file: site.file, name, role, source: 'example' } as EventNameMention, {
    line: { enumerable: true, get: () => get().line },
    column: { enumerable: true, get: () => get().column },
  });
}

/** Where a scalar's text begins in a positioned document: past the opening quote of a quoted one. */
function scalarStart(
  doc: Document | undefined,
  lines: LineCounter,
  path: PathSegment[],
): { line: number; column: number } {
  const node = nodeAt(doc, path);
  const at = lines.linePos(node?.range?.[0] ?? 0);
  const quoted = isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE');
  return { line: at.line, column: at.col + (quoted ? 1 : 0) };
}

export interface NameRegistries {
  protocolTypes: ReadonlySet<string>;
  domains: ReadonlySet<string>;
  frames: ReadonlySet<string>;
  registeredOrgs: ReadonlySet<string>;
  reservedOrgs: ReadonlySet<string>;
}

export type MentionVerdict =
  | { kind: 'registered' }
  /** A v1 name of three segments, which a codemap row renames: v2 text names the v2 type. */
  | { kind: 'v1-type'; v2: string }
  /** Under a protocol domain, but not a registered type (a typo, or a type never registered). */
  | { kind: 'unregistered-protocol-type'; domain: string }
  /** `domain.*` where the domain is neither a protocol domain nor a registered org. */
  | { kind: 'unknown-wildcard'; domain: string }
  /** A vendor-shaped name: its org decides. */
  | { kind: 'vendor'; org: string }
  /** Written as an event a host emits, under no protocol domain and no org: a type no codemap row registers. */
  | { kind: 'unregistered-type' }
  /** Neither a protocol type nor vendor-shaped. */
  | { kind: 'malformed' }
  /** Prose that only looks like an event name (`error.code` in an Event column): not judged. */
  | { kind: 'not-an-event' };

export function classifyMention(mention: EventNameMention, registries: NameRegistries): MentionVerdict {
  const { name } = mention;
  const first = name.split('.')[0] ?? '';
  if (mention.role === 'envelope-kind') return { kind: 'vendor', org: first };
  if (mention.declaredMessage) return { kind: 'registered' };
  if (mention.renamedTo !== undefined) return { kind: 'v1-type', v2: mention.renamedTo };
  if (name.endsWith('.*')) {
    const domain = name.slice(0, -2);
    return registries.domains.has(domain) || registries.registeredOrgs.has(domain)
      ? { kind: 'registered' }
      : { kind: 'unknown-wildcard', domain };
  }
  if (registries.protocolTypes.has(name) || registries.frames.has(name)) return { kind: 'registered' };
  if (registries.domains.has(first)) return { kind: 'unregistered-protocol-type', domain: first };
  const segments = name.split('.');
  // A table cell may name a field (`error.code`) beside an event. Two segments under no known org
  // read as an event only when the second is a transition; three segments never name a field path here.
  if (
    mention.source === 'prose' &&
    segments.length === 2 &&
    !registries.registeredOrgs.has(first) &&
    !registries.reservedOrgs.has(first) &&
    !isPastForm(segments[1] ?? '')
  ) {
    return { kind: 'not-an-event' };
  }
  // Said to be emitted, under no org at all: the text means a protocol type the codemap lacks.
  if (mention.claimed && !registries.registeredOrgs.has(first) && !registries.reservedOrgs.has(first))
    return { kind: 'unregistered-type' };
  // The org is judged by the declaration gate, reserved ones (`openwop.`) included.
  if (VENDOR_SHAPE.test(name)) return { kind: 'vendor', org: first };
  return { kind: 'malformed' };
}
