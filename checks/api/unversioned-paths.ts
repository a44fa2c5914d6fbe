import { asyncApiModel, isRecord, openApiModel, urlPath } from '../../core/api/index.js';
import type { DataFile, PathSegment } from '../../core/model/index.js';
import { Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

const VERSION_SEGMENT = /\/v[12](?=\/|$)/;

/** The version is negotiated with OpenWOP-Version, never spelt in the path (versioning.md). */
export default defineCheck({
  id: 'api/unversioned-paths',
  summary: 'No OpenAPI path, server URL, AsyncAPI channel address or server pathname carries a /v1/ or /v2/ segment: the contract is selected with OpenWOP-Version',
  severity: 'error',
  messages: {
    'versioned-path': '{{what}} `{{value}}` carries a `{{segment}}` segment; a v2 path is unversioned and the contract is selected with OpenWOP-Version',
  },
  run(corpus, report) {
    const say = (file: DataFile, path: PathSegment[], what: string, value: string, prefer: 'key' | 'value') => {
      const segment = VERSION_SEGMENT.exec(value)?.[0] ?? '';
      report({ location: Location.pointer(file, path, prefer), messageId: 'versioned-path', data: { what, value, segment }, hint: `drop \`${segment}\` from the path` });
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
  },
});
