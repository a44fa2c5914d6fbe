import { isRecord, siteLocation } from '../../core/api/index.js';
import { asyncApiModel, urlPath, type AsyncApiModel, type ChannelView } from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';
import { ASYNCAPI_PATH, OPENAPI_PATH, openApiModel, type OperationView } from '../../core/api/index.js';
import { locate } from '../../core/model/index.js';

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
  run(corpus, report) {
    const openapi = openApiModel(corpus, OPENAPI_PATH);
    const asyncapi = asyncApiModel(corpus);
    if (!openapi) return; // corpus/parse says why, if it is unreadable
    for (const pair of PAIRS) {
      const channel = asyncapi?.channels.find((c) => c.name === pair.channel);
      const operation = openapi.operations.find((o) => o.operationId === pair.operationId);
      if (!channel && !operation && !pair.required) continue;
      if (!channel) {
        if (!asyncapi && !operation) continue;
        report({
          ...(asyncapi ? { file: ASYNCAPI_PATH, ...locate(asyncapi.file, ['channels'], 'key') } : siteLocation((operation as OperationView).site)),
          messageId: 'no-channel',
          data: { channel: pair.channel, operationId: pair.operationId, target: ASYNCAPI_PATH },
          message: `${asyncapi ? ASYNCAPI_PATH : `${ASYNCAPI_PATH} (missing or not an AsyncAPI document)`} has no channel ${pair.channel}${operation ? `, although ${OPENAPI_PATH} serves ${pair.operationId} at ${operation.path}` : ''}`,
          hint: `declare channels.${pair.channel} with the address ${operation?.path ?? 'of its OpenAPI operation'}`,
        });
        continue;
      }
      if (!operation) {
        report({
          file: OPENAPI_PATH,
          ...locate(openapi.file, ['paths'], 'key'),
          messageId: 'no-operation',
          data: { channel: pair.channel, operationId: pair.operationId, target: OPENAPI_PATH },
          message: `${OPENAPI_PATH} has no operation ${pair.operationId}${channel.address ? `, although ${ASYNCAPI_PATH} declares ${pair.channel} at ${channel.address}` : ''}`,
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
        ...siteLocation({ file: asyncapi.file, segments: [...channel.site.segments, 'address'] }, 'value'),
        messageId: 'paths-differ',
        data: { channel: pair.channel, operationId: pair.operationId, channelPath: channelPath ?? '', operationPath },
        message: `channel ${pair.channel} resolves to ${channelPath ?? 'no address'}, but ${pair.operationId} resolves to ${operationPath} (${operationAt.file}:${operationAt.line}); the two must be one path`,
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
  const servers = Array.isArray(operation.value.servers) ? operation.value.servers : isRecord(root) && Array.isArray(root.servers) ? root.servers : [];
  const first = servers[0];
  return isRecord(first) ? urlPath(first.url) : '';
}

function join(prefix: string, path: string): string {
  const base = prefix.replace(/\/+$/, '');
  return `${base}${path.startsWith('/') ? '' : '/'}${path}`;
}
