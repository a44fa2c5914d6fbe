/** A resolved view of an AsyncAPI document: its channels with their addresses, and its servers. */
import { child, follow, isRecord, type Site } from './refs.js';
import { defineService, type Corpus, type DataFile } from '../model/index.js';
import { ASYNCAPI_PATH } from './openapi.js';

export interface ChannelView {
  /** The channel's key (AsyncAPI 3), or its address (AsyncAPI 2, where the key is the address). */
  name: string;
  /** undefined when the channel has no address (AsyncAPI 3 allows a dynamic channel). */
  address: string | undefined;
  site: Site;
  /** The servers the channel is available on; empty means all of them. */
  servers: string[];
}

interface ServerView {
  name: string;
  /** The path part every channel address is appended to ('' when none). */
  pathname: string;
  site: Site;
}

export interface AsyncApiModel {
  file: DataFile;
  version: string;
  channels: ChannelView[];
  servers: ServerView[];
}

/** The AsyncAPI document resolved into channels and servers; undefined when it is absent, unparsable or not AsyncAPI. */
const AsyncApiModelService = defineService('AsyncAPI model', (corpus: Corpus): AsyncApiModel | undefined => {
  const file = corpus.data(ASYNCAPI_PATH);
  return file && isRecord(file.value) && typeof file.value.asyncapi === 'string' ? build(corpus, file, file.value.asyncapi) : undefined;
});

export function asyncApiModel(corpus: Corpus): AsyncApiModel | undefined {
  return corpus.service(AsyncApiModelService);
}

export function asyncApiChannels(corpus: Corpus): ChannelView[] | undefined {
  return asyncApiModel(corpus)?.channels;
}

function build(corpus: Corpus, file: DataFile, version: string): AsyncApiModel {
  const root = file.value as Record<string, unknown>;
  const rootSite: Site = { file, segments: [] };
  const major3 = !version.startsWith('2.');
  const servers: ServerView[] = [];
  if (isRecord(root.servers)) {
    for (const [name, raw] of Object.entries(root.servers)) {
      const result = follow(corpus, child(rootSite, 'servers', name), raw);
      if (!result.ok || !isRecord(result.followed.value)) continue;
      const server = result.followed.value;
      const pathname = major3 ? (typeof server.pathname === 'string' ? server.pathname : '') : urlPath(server.url);
      servers.push({ name, pathname, site: result.followed.site });
    }
  }
  const channels: ChannelView[] = [];
  if (isRecord(root.channels)) {
    for (const [name, raw] of Object.entries(root.channels)) {
      const site = child(rootSite, 'channels', name);
      const result = follow(corpus, site, raw);
      const channel = result.ok && isRecord(result.followed.value) ? result.followed.value : {};
      const address = major3 ? (typeof channel.address === 'string' ? channel.address : undefined) : name;
      const channelServers = Array.isArray(channel.servers)
        ? channel.servers.flatMap((server) => {
            if (typeof server === 'string') return [server];
            const ref = isRecord(server) && typeof server.$ref === 'string' ? server.$ref : undefined;
            const match = ref ? /^#\/servers\/([^/]+)$/.exec(ref) : null;
            return match?.[1] ? [match[1].replace(/~1/g, '/').replace(/~0/g, '~')] : [];
          })
        : [];
      channels.push({ name, address, site, servers: channelServers });
    }
  }
  return { file, version, channels, servers };
}

/** The path of a server URL (`https://{host}/api` -> `/api`), '' when it has none. */
export function urlPath(url: unknown): string {
  if (typeof url !== 'string') return '';
  const withoutScheme = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return withoutScheme.replace(/[?#].*$/, '').replace(/\/+$/, '');
}
