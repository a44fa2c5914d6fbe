import { isRecord, siteLocation, asyncApiModel, urlPath, type AsyncApiModel, type ChannelView, ASYNCAPI_PATH, OPENAPI_PATH, openApiModel, type OperationView } from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';
import { isList, Location } from '../../core/model/index.js';

/**
 * events.md §"The events channel": the AsyncAPI channel and the OpenAPI operation that serve one
 * stream resolve to one absolute path (server path + address). `runEvents`/`streamRunEvents` must
 * both exist; `hostEvents`/`streamHostEvents` must agree when either exists.
 */
const PAIRS = [
  { channel: 'runEvents', operationId: 'streamRunEvents', required: true },
  { channel: 'hostEvents', operationId: 'streamHostEvents', required: false },
] as const;

export default defineCheck({
  id: 'api/channel-parity',
  summary: 'The AsyncAPI runEvents (and hostEvents) address and the OpenAPI streamRunEvents (streamHostEvents) path are the same absolute path',
  severity: 'error',
  messages: {
    'no-channel': '{{asyncapi}} has no channel {{channel}}, although {{openapi}} serves {{operationId}} at {{path}}',
    'no-asyncapi': '{{asyncapi}} (missing or not an AsyncAPI document) has no channel {{channel}}, although {{openapi}} serves {{operationId}} at {{path}}',
    'no-channel-nor-operation': '{{asyncapi}} has no channel {{channel}}, and {{openapi}} no operation {{operationId}}',
    'no-operation': '{{openapi}} has no operation {{operationId}}, although {{asyncapi}} declares {{channel}} at {{address}}',
    'no-operation-nor-address': '{{openapi}} has no operation {{operationId}}, and the channel {{channel}} of {{asyncapi}} has no address',
    'paths-differ': 'channel {{channel}} resolves to {{channelPath}}, but {{operationId}} resolves to {{operationPath}} ({{operationAt}}); the two must be one path',
    'no-address': 'channel {{channel}} has no address, but {{operationId}} resolves to {{operationPath}} ({{operationAt}}); the two must be one path',
  },
  run(corpus, report) {
    const openapi = openApiModel(corpus, OPENAPI_PATH);
    const asyncapi = asyncApiModel(corpus);
    if (!openapi) return; // corpus/parse says why, if it is unreadable
    const documents = { asyncapi: ASYNCAPI_PATH, openapi: OPENAPI_PATH };
    for (const pair of PAIRS) {
      const channel = asyncapi?.channels.find((c) => c.name === pair.channel);
      const operation = openapi.operations.find((o) => o.operationId === pair.operationId);
      if (!channel && !operation && !pair.required) continue;
      if (!channel) {
        if (!asyncapi && !operation) continue;
        report({
          location: asyncapi ? Location.pointer(asyncapi.file, ['channels'], 'key') : siteLocation((operation as OperationView).site),
          ...(operation
            ? { messageId: asyncapi ? 'no-channel' : 'no-asyncapi', data: { channel: pair.channel, operationId: pair.operationId, path: operation.path, ...documents } }
            : { messageId: 'no-channel-nor-operation', data: { channel: pair.channel, operationId: pair.operationId, ...documents } }),
          hint: `declare channels.${pair.channel} with the address ${operation?.path ?? 'of its OpenAPI operation'}`,
        });
        continue;
      }
      if (!operation) {
        report({
          location: Location.pointer(openapi.file, ['paths'], 'key'),
          ...(channel.address
            ? { messageId: 'no-operation', data: { channel: pair.channel, operationId: pair.operationId, address: channel.address, ...documents } }
            : { messageId: 'no-operation-nor-address', data: { channel: pair.channel, operationId: pair.operationId, ...documents } }),
          hint: `declare GET ${channel.address ?? '<address>'} with operationId ${pair.operationId}`,
        });
        continue;
      }
      if (!asyncapi) continue;
      const channelPath = channel.address === undefined ? undefined : join(serverPath(asyncapi, channel), channel.address);
      const operationPath = join(operationServerPath(openapi.file.value, operation), operation.path);
      if (channelPath === operationPath) continue;
      const operationAt = siteLocation({ file: openapi.file, segments: ['paths', operation.path] });
      report({
        // At the address, or at the channel that has none.
        location: channel.address === undefined ? siteLocation(channel.site) : siteLocation({ file: asyncapi.file, segments: [...channel.site.segments, 'address'] }, 'value'),
        ...(channelPath === undefined ? { messageId: 'no-address' } : { messageId: 'paths-differ' }),
        data: { channel: pair.channel, operationId: pair.operationId, ...(channelPath === undefined ? {} : { channelPath }), operationPath, operationAt: `${operationAt.file}:${operationAt.line}` },
        hint: 'make the channel address and the operation path the same, server paths included',
      });
    }
  },
});

function serverPath(model: AsyncApiModel, channel: ChannelView): string {
  const name = channel.servers[0];
  const server = name ? model.servers.find((s) => s.name === name) : model.servers[0];
  return server?.pathname ?? '';
}

function operationServerPath(root: unknown, operation: OperationView): string {
  const servers = isList(operation.value.servers) ? operation.value.servers : isRecord(root) && isList(root.servers) ? root.servers : [];
  const first = servers[0];
  return isRecord(first) ? urlPath(first.url) : '';
}

function join(prefix: string, path: string): string {
  const base = prefix.replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? '' : '/'}${path}`;
}
