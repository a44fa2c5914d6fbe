import type { Nodes, Parent } from 'mdast';
import { ASYNCAPI_PATH, asyncApiModel, isRecord, OPENAPI_PATH, openApiModel, urlPath } from '../../core/api/index.js';
import type { Corpus, DataFile, PathSegment } from '../../core/model/index.js';
import { lazyPlace } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';
import { effectiveType, eventCodemap } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/**
 * `/v1/runs`, `/v1/{id}`: an operation spelt with its v1 prefix. `spec/v1/x.md` is a file, not an
 * operation; `/v1/v1` names the doubled-prefix defect, not an operation; a closing `.` or `:` is the sentence's.
 */
const V1_OPERATION = /(?<![\w.-])\/v1\/(?!v\d+\b)[A-Za-z{][\w{}/.:-]*(?<![.:])/g;
const VERSION_SEGMENT = /\/v[12](?=\/|$)/;
const DESCRIPTION_KEYS = new Set(['description', 'summary', 'title']);
/**
 * One segment of a v2 type. A name made only of such segments but more of them than the grammar
 * allows (`ai.message.chunk`, which events.md keeps as an SSE frame name, not a type) is no v1
 * spelling: the codemap lists every v1 type, and whether the name is a frame or a misnamed type
 * cannot be told from it.
 */
const V2_WORD = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;
/** Prose that speaks of the overlap names the v1 twin of a path on purpose. */
const ABOUT_V1 = /\b(?:overlap|dual-stack|twin)\b/i;
/** `§"POST /v1/runs:bulk-cancel"`: a heading of a v1 document, quoted to cite it. */
const QUOTED_HEADING = /§\s*"[^"]*"/g;

export default defineCheck({
  id: 'api/no-v1',
  summary: 'The v2 API speaks v2 only: message names are codemap types, no /v1/ or /v2/ path segment, every channel an OpenAPI path, a scheme shared by both documents identical, no /v1/<operation> in v2 prose or descriptions',
  description:
    'A message carried only on a channel that is not a run\'s (no `{runId}` in its address) is a host event, not a run event, and keeps its name: the corpus keeps the two apart (events.md §"Host events" puts the heartbeat messages on their own channel, and they are in no codemap row). A message on the run channel or on none is held to the codemap grammar.',
  severity: 'error',
  options: {
    prose: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the markdown whose /v1/<operation> spellings are findings' },
    described: { type: 'array', items: { type: 'string' }, default: ['api/v2/', 'schemas/v2/', 'spec/v2/facets/'], description: 'path prefixes of the JSON and YAML whose description, summary and title strings are read' },
  },
  run(corpus, report, { options }) {
    checkMessageNames(corpus, report);
    checkVersionSegments(corpus, report);
    checkChannelsArePaths(corpus, report);
    checkSharedSchemes(corpus, report);
    checkProse(corpus, options.prose as string[], report);
    checkDescriptions(corpus, options.described as string[], report);
  },
});

/** Every AsyncAPI message, by where it is written: components and inline channel messages. */
function messages(file: DataFile): Array<{ path: PathSegment[]; name: string }> {
  const root = isRecord(file.value) ? file.value : {};
  const found: Array<{ path: PathSegment[]; name: string }> = [];
  const take = (message: unknown, path: PathSegment[]) => {
    if (isRecord(message) && typeof message.name === 'string') found.push({ path: [...path, 'name'], name: message.name });
  };
  const components = isRecord(root.components) && isRecord(root.components.messages) ? root.components.messages : {};
  for (const [key, message] of Object.entries(components)) take(message, ['components', 'messages', key]);
  if (isRecord(root.channels)) {
    for (const [channel, value] of Object.entries(root.channels)) {
      if (!isRecord(value) || !isRecord(value.messages)) continue;
      for (const [key, message] of Object.entries(value.messages)) take(message, ['channels', channel, 'messages', key]);
    }
  }
  return found;
}

/**
 * A message name that is a v1 spelling: a codemap row's `v1` where v2 renamed it, or a dotted
 * name outside the v2 type grammar. An undotted name (an envelope such as `runEvent`) and a
 * grammatical name the codemap does not list (a host event, a stream frame) are not judged here.
 */
function checkMessageNames(corpus: Corpus, report: Report): void {
  const file = corpus.data(ASYNCAPI_PATH);
  const codemap = eventCodemap(corpus);
  if (!file || !codemap) return;
  const v2 = new Set(codemap.rows.map(effectiveType));
  const renamed = new Map(codemap.rows.filter((row) => row.v1 !== effectiveType(row)).map((row) => [row.v1, effectiveType(row)]));
  const grammar = codemap.grammar ? safeRegExp(codemap.grammar) : undefined;
  const hostScoped = hostScopedMessages(file);
  for (const { path, name } of messages(file)) {
    if (v2.has(name) || codemap.frames.includes(name)) continue;
    const successor = renamed.get(name);
    if (successor) {
      report({
        ...lazyPlace(file.path, file, path, 'value'),
        messageId: 'v1-message-name', data: { name, successor }, message: `message name \`${name}\` is the v1 spelling; the v2 type is \`${successor}\` (spec/v2/event-codemap.json)`,
        hint: `name the message \`${successor}\``,
      });
    } else if (name.includes('.') && grammar && !grammar.test(name) && !name.split('.').every((segment) => V2_WORD.test(segment)) && !hostScoped.has(messageKey(path))) {
      report({
        ...lazyPlace(file.path, file, path, 'value'),
        messageId: 'not-v2-type', data: { name }, message: `message name \`${name}\` is not a v2 event type: it does not match the codemap grammar ${codemap.grammar}`,
        hint: 'name the message with its v2 type from spec/v2/event-codemap.json (two kebab-case segments)',
      });
    }
  }
}

/** A message's key: its components key, or its channel and key for an inline one. */
function messageKey(path: readonly PathSegment[]): string {
  return path[0] === 'components' ? `#/components/messages/${String(path[2])}` : path.slice(0, -1).join('/');
}

/** A channel address that names a run: the run's events, which the codemap's grammar governs. */
const RUN_SCOPED = /\{runId\}/;

/**
 * Messages carried only on channels that are not a run's (`/host/events`, no `{runId}` in the
 * address): host events. The corpus keeps them apart from run events: events.md §"Host events"
 * puts the heartbeat messages on their own channel, and they are in no codemap row, so the run
 * event grammar does not name them. A message on no channel at all is still judged.
 */
function hostScopedMessages(file: DataFile): Set<string> {
  const root = isRecord(file.value) ? file.value : {};
  const carriers = new Map<string, boolean[]>();
  const carry = (key: string, runScoped: boolean) => carriers.set(key, [...(carriers.get(key) ?? []), runScoped]);
  const visit = (message: unknown, inline: string, runScoped: boolean): void => {
    if (!isRecord(message)) return;
    if (typeof message.$ref === 'string') carry(message.$ref, runScoped);
    else carry(inline, runScoped);
    for (const alternative of Array.isArray(message.oneOf) ? message.oneOf : []) visit(alternative, inline, runScoped);
  };
  if (isRecord(root.channels)) {
    for (const [name, channel] of Object.entries(root.channels)) {
      if (!isRecord(channel)) continue;
      // AsyncAPI 3 writes the address beside the channel; AsyncAPI 2 keys the channel by it.
      const runScoped = RUN_SCOPED.test(typeof channel.address === 'string' ? channel.address : name);
      if (isRecord(channel.messages)) for (const [key, message] of Object.entries(channel.messages)) visit(message, `channels/${name}/messages/${key}`, runScoped);
      for (const side of ['subscribe', 'publish']) {
        const operation = channel[side];
        if (isRecord(operation)) visit(operation.message, `channels/${name}/${side}/message`, runScoped);
      }
    }
  }
  return new Set([...carriers].filter(([, scopes]) => scopes.every((runScoped) => !runScoped)).map(([key]) => key));
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}

/** The version is negotiated with OpenWOP-Version, never spelt in the path (versioning.md). */
function checkVersionSegments(corpus: Corpus, report: Report): void {
  const say = (file: DataFile, path: PathSegment[], what: string, value: string, prefer: 'key' | 'value') => {
    const segment = VERSION_SEGMENT.exec(value)?.[0] ?? '';
    report({
      ...lazyPlace(file.path, file, path, prefer),
      messageId: 'versioned-path', data: { value, segment }, message: `${what} \`${value}\` carries a \`${segment}\` segment; a v2 path is unversioned and the contract is selected with OpenWOP-Version`,
      hint: `drop \`${segment}\` from the path`,
    });
  };
  const openapi = openApiModel(corpus);
  if (openapi && isRecord(openapi.file.value)) {
    const root = openapi.file.value;
    if (isRecord(root.paths)) for (const path of Object.keys(root.paths)) if (VERSION_SEGMENT.test(path)) say(openapi.file, ['paths', path], 'path', path, 'key');
    if (Array.isArray(root.servers)) {
      root.servers.forEach((server, index) => {
        const url = isRecord(server) && typeof server.url === 'string' ? server.url : undefined;
        if (url && VERSION_SEGMENT.test(urlPath(url))) say(openapi.file, ['servers', index, 'url'], 'server url', url, 'value');
      });
    }
  }
  const asyncapi = asyncApiModel(corpus);
  if (!asyncapi) return;
  for (const channel of asyncapi.channels) {
    if (channel.address && VERSION_SEGMENT.test(channel.address)) say(asyncapi.file, [...channel.site.segments, 'address'], 'channel address', channel.address, 'value');
  }
  for (const server of asyncapi.servers) {
    if (VERSION_SEGMENT.test(server.pathname)) say(asyncapi.file, [...server.site.segments, asyncapi.version.startsWith('2.') ? 'url' : 'pathname'], 'server pathname', server.pathname, 'value');
  }
}

/** A channel is the event side of an HTTP path: the same path must be an operation of the OpenAPI document. */
function checkChannelsArePaths(corpus: Corpus, report: Report): void {
  const asyncapi = asyncApiModel(corpus);
  const openapi = openApiModel(corpus);
  if (!asyncapi || !openapi || !isRecord(openapi.file.value) || !isRecord(openapi.file.value.paths)) return;
  const paths = new Set(Object.keys(openapi.file.value.paths));
  for (const channel of asyncapi.channels) {
    if (channel.address === undefined) continue;
    const servers = asyncapi.servers.filter((server) => channel.servers.length === 0 || channel.servers.includes(server.name));
    const candidates = (servers.length > 0 ? servers.map((server) => server.pathname) : ['']).map((prefix) => `${prefix}${channel.address}`);
    if (candidates.some((candidate) => paths.has(candidate))) continue;
    report({
      ...lazyPlace(asyncapi.file.path, asyncapi.file, [...channel.site.segments, 'address'], 'value'),
      messageId: 'channel-not-served', data: { channel: channel.name, target: OPENAPI_PATH }, message: `channel ${channel.name} is served at ${candidates.join(' or ')}, which is not a path of ${OPENAPI_PATH}`,
      hint: `declare the path in ${OPENAPI_PATH} (the operation a client streams it with), or correct the address`,
    });
  }
}

/** A scheme both documents define by one name is one credential: its definitions agree but for their prose. */
function checkSharedSchemes(corpus: Corpus, report: Report): void {
  const openapi = corpus.data(OPENAPI_PATH);
  const asyncapi = corpus.data(ASYNCAPI_PATH);
  const schemesOf = (file: DataFile | undefined) => (file && isRecord(file.value) && isRecord(file.value.components) && isRecord(file.value.components.securitySchemes) ? file.value.components.securitySchemes : {});
  const left = schemesOf(openapi);
  const right = schemesOf(asyncapi);
  for (const [name, scheme] of Object.entries(right)) {
    if (!(name in left) || !asyncapi) continue;
    const a = substance(left[name]);
    const b = substance(scheme);
    const differing = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((key) => JSON.stringify(a[key]) !== JSON.stringify(b[key])).sort();
    if (differing.length === 0) continue;
    report({
      ...lazyPlace(asyncapi.path, asyncapi, ['components', 'securitySchemes', name], 'key'),
      messageId: 'security-scheme-differs', data: { scheme: name, target: OPENAPI_PATH }, message: `security scheme \`${name}\` differs from the one of ${OPENAPI_PATH} in ${differing.join(', ')}; one credential has one definition`,
      hint: `copy ${differing.join(', ')} from ${OPENAPI_PATH} components.securitySchemes.${name}`,
    });
  }
}

/** A scheme without its prose: what a client must present. */
function substance(scheme: unknown): Record<string, unknown> {
  if (!isRecord(scheme)) return {};
  return Object.fromEntries(Object.entries(scheme).filter(([key]) => key !== 'description' && key !== 'summary' && !key.startsWith('x-')));
}

function checkProse(corpus: Corpus, prefixes: readonly string[], report: Report): void {
  for (const file of corpus.markdownFiles()) {
    if (!prefixes.some((prefix) => file.path.startsWith(prefix))) continue;
    const visit = (node: Nodes): void => {
      if (node.type === 'paragraph' || node.type === 'tableCell') {
        const start = node.position?.start.offset;
        const end = node.position?.end.offset;
        if (start !== undefined && end !== undefined && ABOUT_V1.test(file.text.slice(start, end))) return;
      }
      if (node.type === 'text' || node.type === 'inlineCode') {
        const start = node.position?.start.offset;
        if (start === undefined) return;
        const verbatim = node.type === 'text' && file.text.slice(start, node.position?.end.offset) === node.value;
        for (const match of node.value.matchAll(V1_OPERATION)) {
          if (insideQuotedHeading(node.value, match.index ?? 0)) continue;
          const position = file.lines.position(verbatim ? start + (match.index ?? 0) : start);
          report({ file: file.path, ...position, messageId: 'v1-mention', data: { text: match[0] }, message: v1Message(match[0]), hint: v1Hint(match[0]) });
        }
        return;
      }
      if (node.type === 'code' || node.type === 'html') return;
      if ('children' in node) for (const child of (node as Parent).children as Nodes[]) visit(child);
    };
    visit(file.tree);
  }
}

function checkDescriptions(corpus: Corpus, prefixes: readonly string[], report: Report): void {
  for (const file of corpus.dataFiles()) {
    if (!prefixes.some((prefix) => file.path.startsWith(prefix))) continue;
    const visit = (value: unknown, path: PathSegment[]): void => {
      if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
      else if (isRecord(value)) {
        for (const [key, child] of Object.entries(value)) {
          if (typeof child === 'string' && DESCRIPTION_KEYS.has(key)) {
            // Every mention is located at the string's start, so a path named twice is one finding.
            const named = new Set([...child.matchAll(V1_OPERATION)].filter((match) => !insideQuotedHeading(child, match.index ?? 0)).map((match) => match[0]));
            for (const text of named) report({ ...lazyPlace(file.path, file, [...path, key], 'value'), messageId: 'v1-mention', data: { text, key }, message: `${key}: ${v1Message(text)}`, hint: v1Hint(text) });
          } else visit(child, [...path, key]);
        }
      }
    };
    visit(file.value, []);
  }
}

function v1Message(spelling: string): string {
  return `\`${spelling}\` names an operation by its v1 path; v2 paths are unversioned`;
}

function v1Hint(spelling: string): string {
  const v2 = spelling.replace(/^\/v1/, '');
  return `write \`${v2}\` (the v2 path) or the operationId; a v1 path belongs in the migration notes`;
}

function insideQuotedHeading(text: string, index: number): boolean {
  for (const quoted of text.matchAll(QUOTED_HEADING)) {
    const from = quoted.index ?? 0;
    if (index > from && index < from + quoted[0].length) return true;
  }
  return false;
}
