/**
 * spec/v2/path-manifest.json: the operations of api/v2/openapi.yaml and the channels of
 * api/v2/asyncapi.yaml, with their counts, and every `count/operations` region of the prose.
 */
import { isObject, type Corpus } from '../core/model/index.js';
import { countOutputs, countRegionId, defineGenerator, type GeneratorOutput } from '../core/run/index.js';
import { compareStrings, formatJson } from '../core/output/index.js';
import {
  asyncApiChannels,
  ASYNCAPI_PATH,
  OPENAPI_PATH,
  openApiModel,
  requestHeaders,
  type OperationView,
} from '../core/api/index.js';

export const PATH_MANIFEST = 'spec/v2/path-manifest.json';

export default defineGenerator({
  id: 'path-manifest',
  summary:
    'spec/v2/path-manifest.json and the count/operations regions, from api/v2/openapi.yaml and api/v2/asyncapi.yaml',
  inputs: [OPENAPI_PATH, ASYNCAPI_PATH],
  messages: {
    'openapi-missing':
      '{{manifest}} and the count/operations regions are generated from {{target}}, which does not exist',
    'openapi-unreadable': '{{target}} does not parse or has no `openapi` member, so {{manifest}} cannot be generated',
    'asyncapi-unreadable':
      '{{target}} does not parse or has no `asyncapi` member, so the channels of {{manifest}} cannot be generated',
  },
  generate(corpus, report) {
    const counts = corpus
      .markdownFiles()
      .some((file) => file.regions.some((region) => region.id === countRegionId('operations')));
    if (!corpus.get(OPENAPI_PATH)) {
      // No API, nothing to list; but a manifest or a quoted count without its source is stale.
      if (corpus.get(PATH_MANIFEST) || counts) {
        report({
          file: corpus.get(PATH_MANIFEST) ? PATH_MANIFEST : OPENAPI_PATH,
          messageId: 'openapi-missing',
          data: { target: OPENAPI_PATH, manifest: PATH_MANIFEST },
          hint: 'restore the OpenAPI document, or remove what is generated from it',
        });
      }
      return [];
    }
    const model = openApiModel(corpus);
    if (!model) {
      report({
        file: OPENAPI_PATH,
        messageId: 'openapi-unreadable',
        data: { target: OPENAPI_PATH, manifest: PATH_MANIFEST },
        hint: 'fix the OpenAPI document; corpus/parse names the parse error, if any',
      });
      return [];
    }
    const channels = channelEntries(corpus);
    if (!channels) {
      report({
        file: ASYNCAPI_PATH,
        messageId: 'asyncapi-unreadable',
        data: { target: ASYNCAPI_PATH, manifest: PATH_MANIFEST },
        hint: 'fix the AsyncAPI document; corpus/parse names the parse error, if any',
      });
      return [];
    }
    const operations = [...model.operations].sort(byPathThenMethod).map(manifestEntry);
    const outputs: GeneratorOutput[] = countOutputs(corpus, 'operations', operations.length);
    // An API with no operation and no channel (a skeleton) has nothing to manifest.
    if (operations.length === 0 && channels.length === 0) return outputs;
    // The shape upstream keeps: both API documents as sources, the server URL the paths are under,
    // and the author's `$comment` (prose about the file, not derived) kept as it is.
    const previous = corpus.data(PATH_MANIFEST)?.value;
    const comment = isObject(previous) && typeof previous.$comment === 'string' ? previous.$comment : undefined;
    const serverUrl = firstServerUrl(corpus.data(OPENAPI_PATH)?.value);
    const manifest = {
      ...(comment !== undefined ? { $comment: comment } : {}),
      generatedFrom: corpus.get(ASYNCAPI_PATH) ? [OPENAPI_PATH, ASYNCAPI_PATH] : [OPENAPI_PATH],
      ...(serverUrl !== undefined ? { serverUrl } : {}),
      operations,
      channels,
      counts: { operations: operations.length, channels: channels.length },
    };
    return [{ path: PATH_MANIFEST, content: formatJson(manifest) }, ...outputs];
  },
});

function manifestEntry(operation: OperationView) {
  const names = new Map<string, string>();
  for (const header of requestHeaders(operation))
    if (!names.has(header.name.toLowerCase())) names.set(header.name.toLowerCase(), header.name);
  const headers = [...names.entries()].sort(([a], [b]) => compareStrings(a, b)).map(([, name]) => name);
  return {
    method: operation.method.toUpperCase(),
    path: operation.path,
    operationId: operation.operationId ?? null,
    requestHeaders: headers,
    authenticated: operation.authenticated,
    requestBody: operation.requestBody,
  };
}

function byPathThenMethod(a: OperationView, b: OperationView): number {
  return compareStrings(a.path, b.path) || compareStrings(a.method.toUpperCase(), b.method.toUpperCase());
}

/** The channels, [] when there is no AsyncAPI document, undefined when there is one that cannot be read. */
function channelEntries(corpus: Corpus): Array<{ name: string; address: string | null }> | undefined {
  if (!corpus.get(ASYNCAPI_PATH)) return [];
  const channels = asyncApiChannels(corpus);
  if (!channels) return undefined;
  return channels
    .map((channel) => ({ name: channel.name, address: channel.address ?? null }))
    .sort((a, b) => compareStrings(a.name, b.name));
}

function firstServerUrl(document: unknown): string | undefined {
  const servers = isObject(document) && Array.isArray(document.servers) ? document.servers : [];
  const first: unknown = servers[0];
  return isObject(first) && typeof first.url === 'string' ? first.url : undefined;
}
