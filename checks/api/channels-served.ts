import { asyncApiModel, isRecord, OPENAPI_PATH, openApiModel } from '../../core/api/index.js';
import { Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

/** A channel is the event side of an HTTP path: the same path must be an operation of the OpenAPI document. */
export default defineCheck({
  id: 'api/channels-served',
  summary: 'Every AsyncAPI channel address, under the pathname of its servers, is a path of the OpenAPI document: the operation a client streams the channel with',
  severity: 'error',
  messages: {
    'channel-not-served': 'channel {{channel}} is served at {{served}}, which is not a path of {{target}}',
  },
  run(corpus, report) {
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
        location: Location.pointer(asyncapi.file, [...channel.site.segments, 'address'], 'value'),
        messageId: 'channel-not-served', data: { channel: channel.name, target: OPENAPI_PATH, served: candidates.join(' or ') },
        hint: `declare the path in ${OPENAPI_PATH} (the operation a client streams it with), or correct the address`,
      });
    }
  },
});
