import { ASYNCAPI_PATH, asyncApiModel, isRecord, openApiModel, type ChannelView } from '../../core/api/index.js';
import type { Corpus, DataFile, PathSegment } from '../../core/model/index.js';
import { Location } from '../../core/model/index.js';
import { effectiveType, eventCodemap, kindsReached } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/**
 * One segment of a v2 type. A name made only of such segments but more of them than the grammar
 * allows (`ai.message.chunk`, which events.md keeps as an SSE frame name, not a type) is no v1
 * spelling: the codemap lists every v1 type, and whether the name is a frame or a misnamed type
 * cannot be told from it.
 */
const V2_WORD = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** The id kind of the registry that names a run: a channel whose address has a parameter of this kind is a run's. */
const RUN_KIND = 'runId';

export default defineCheck({
  id: 'api/message-names',
  summary: 'Every AsyncAPI message name of a run channel is a v2 event type: not the v1 spelling of a type the codemap renamed, not a dotted name outside the codemap grammar',
  description:
    'A message carried only on channels that are not a run\'s is a host event, not a run event, and keeps its name: the corpus keeps the two apart (events.md §"Host events" puts the heartbeat messages on their own channel, and they are in no codemap row). A channel is a run\'s when a parameter of its address is declared a run id: its schema (or the schema of the same path parameter of the OpenAPI operation the channel is served at) reaches the run id kind of schemas/v2/ids.schema.json, or its name is that kind\'s. A message on a run channel or on none is held to the codemap grammar.',
  severity: 'error',
  messages: {
    'v1-message-name': 'message name `{{name}}` is the v1 spelling; the v2 type is `{{successor}}` (spec/v2/event-codemap.json)',
    'not-v2-type': 'message name `{{name}}` is not a v2 event type: it does not match the codemap grammar {{grammar}}',
  },
  run(corpus, report) {
    const file = corpus.data(ASYNCAPI_PATH);
    const codemap = eventCodemap(corpus);
    if (!file || !codemap) return;
    const v2 = new Set(codemap.rows.map(effectiveType));
    const renamed = new Map(codemap.rows.filter((row) => row.v1 !== effectiveType(row)).map((row) => [row.v1, effectiveType(row)]));
    const grammar = codemap.grammar ? safeRegExp(codemap.grammar) : undefined;
    const hostScoped = hostScopedMessages(corpus, file);
    for (const { path, name } of messages(file)) {
      if (v2.has(name) || codemap.frames.includes(name)) continue;
      const successor = renamed.get(name);
      if (successor) {
        report({ location: Location.pointer(file, path, 'value'), messageId: 'v1-message-name', data: { name, successor }, hint: `name the message \`${successor}\`` });
      } else if (name.includes('.') && grammar && !grammar.test(name) && !name.split('.').every((segment) => V2_WORD.test(segment)) && !hostScoped.has(messageKey(path))) {
        report({
          location: Location.pointer(file, path, 'value'),
          messageId: 'not-v2-type', data: { name, grammar: codemap.grammar as string },
          hint: 'name the message with its v2 type from spec/v2/event-codemap.json (two kebab-case segments)',
        });
      }
    }
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

/** A message's key: its components key, or its channel and key for an inline one. */
function messageKey(path: readonly PathSegment[]): string {
  return path[0] === 'components' ? `#/components/messages/${String(path[2])}` : path.slice(0, -1).join('/');
}

/**
 * Messages carried only on channels that are not a run's (`/host/events`): host events. A message
 * on no channel at all is still judged.
 */
function hostScopedMessages(corpus: Corpus, file: DataFile): Set<string> {
  const root = isRecord(file.value) ? file.value : {};
  const runChannels = new Set((asyncApiModel(corpus)?.channels ?? []).filter((channel) => isRunChannel(corpus, channel)).map((channel) => channel.name));
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
      const runScoped = runChannels.has(name);
      if (isRecord(channel.messages)) for (const [key, message] of Object.entries(channel.messages)) visit(message, `channels/${name}/messages/${key}`, runScoped);
      for (const side of ['subscribe', 'publish']) {
        const operation = channel[side];
        if (isRecord(operation)) visit(operation.message, `channels/${name}/${side}/message`, runScoped);
      }
    }
  }
  return new Set([...carriers].filter(([, scopes]) => scopes.every((runScoped) => !runScoped)).map(([key]) => key));
}

/** `{runId}`, `{run_id}`, `{id}`: the parameters an address (or a path) is written with. */
const ADDRESS_PARAMETER = /\{([^{}/]+)\}/g;

/** A name as the id registry's kinds are compared with it: `run_id`, `run-id` and `RunId` are `runId`. */
const folded = (name: string): string => name.replace(/[-_]/g, '').toLowerCase();

/**
 * Whether a channel carries a run's events: a parameter of its address is declared a run id, by
 * what the documents say of it rather than by how it is spelt. Its AsyncAPI declaration (or the
 * path parameter of the OpenAPI operation the channel is served at) has a schema that reaches the
 * run id kind of the id registry, or the parameter is named for that kind.
 */
function isRunChannel(corpus: Corpus, channel: ChannelView): boolean {
  const parameters = [...(channel.address ?? channel.name).matchAll(ADDRESS_PARAMETER)].map((match) => match[1] as string);
  if (parameters.length === 0) return false;
  if (parameters.some((name) => folded(name) === folded(RUN_KIND))) return true;
  const declared = isRecord(channel.site.file.value) ? followLocal(channel.site.file.value, channel.site.segments) : undefined;
  for (const name of parameters) {
    const parameter = declared ? followLocal(channel.site.file.value, [...declared.path, 'parameters', name]) : undefined;
    if (parameter && isRecord(parameter.value) && isRecord(parameter.value.schema) && reachesRun(corpus, channel.site.file.path, [...parameter.path, 'schema'])) return true;
  }
  return servedWithRunParameter(corpus, channel, parameters);
}

/** Whether the OpenAPI operation at the channel's path declares one of its parameters with a schema that reaches the run id kind. */
function servedWithRunParameter(corpus: Corpus, channel: ChannelView, parameters: readonly string[]): boolean {
  const asyncapi = asyncApiModel(corpus);
  const openapi = openApiModel(corpus);
  if (!asyncapi || !openapi || channel.address === undefined) return false;
  const servers = asyncapi.servers.filter((server) => channel.servers.length === 0 || channel.servers.includes(server.name));
  const paths = new Set((servers.length > 0 ? servers.map((server) => server.pathname) : ['']).map((prefix) => `${prefix}${channel.address}`));
  return openapi.operations.some((operation) =>
    paths.has(operation.path) &&
    operation.parameters.some((parameter) => parameter.in === 'path' && parameters.includes(parameter.name) && isRecord(parameter.value.schema) && reachesRun(corpus, parameter.defined.file.path, [...parameter.defined.segments, 'schema'])),
  );
}

function reachesRun(corpus: Corpus, file: string, path: PathSegment[]): boolean {
  return kindsReached(corpus, { file, path }, false).has(RUN_KIND);
}

/** The value at `path` of a document, a local `$ref` there followed (a few steps at most). */
function followLocal(root: unknown, path: readonly PathSegment[]): { value: unknown; path: PathSegment[] } | undefined {
  let at = [...path];
  for (let step = 0; step < 8; step++) {
    let value: unknown = root;
    for (const segment of at) value = isRecord(value) || Array.isArray(value) ? (value as Record<string, unknown>)[segment as string] : undefined;
    if (value === undefined) return undefined;
    if (!isRecord(value) || typeof value.$ref !== 'string' || !value.$ref.startsWith('#/')) return { value, path: at };
    at = value.$ref.slice(2).split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return undefined;
}

function safeRegExp(source: string): RegExp | undefined {
  try {
    return new RegExp(source);
  } catch {
    return undefined;
  }
}
