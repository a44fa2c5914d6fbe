/**
 * Header names the protocol may use under their own names: HTTP's (RFC 9110, 9111, 6750, 9530...),
 * and the few other standards OpenWOP relies on (`Idempotency-Key`, SSE's `Last-Event-ID`, W3C
 * trace context). Everything else is `OpenWOP-<Name>`. Canonical spelling, keyed by lower case.
 */
const STANDARD = [
  'Accept', 'Accept-Charset', 'Accept-Encoding', 'Accept-Language', 'Accept-Ranges', 'Age', 'Allow',
  'Authorization', 'Cache-Control', 'Connection', 'Content-Digest', 'Content-Disposition', 'Content-Encoding',
  'Content-Language', 'Content-Length', 'Content-Location', 'Content-Range', 'Content-Type', 'Date',
  'Deprecation', 'DPoP', 'DPoP-Nonce', 'ETag', 'Expect', 'Expires', 'Forwarded', 'Host', 'Idempotency-Key',
  'If-Match', 'If-Modified-Since', 'If-None-Match', 'If-Range', 'If-Unmodified-Since', 'Last-Event-ID',
  'Last-Modified', 'Link', 'Location', 'Max-Forwards', 'Origin', 'Prefer', 'Preference-Applied',
  'Proxy-Authenticate', 'Proxy-Authorization', 'Range', 'RateLimit', 'RateLimit-Policy', 'Referer',
  'Repr-Digest', 'Retry-After', 'Server', 'Sunset', 'TE', 'traceparent', 'tracestate', 'Trailer',
  'Transfer-Encoding', 'Upgrade', 'User-Agent', 'Vary', 'Via', 'Want-Content-Digest', 'Want-Repr-Digest',
  'WWW-Authenticate',
];

const BY_KEY = new Map(STANDARD.map((name) => [name.toLowerCase(), name]));

/** The canonical spelling of a standard header, or undefined when the name is not a standard header. */
export function standardHeader(name: string): string | undefined {
  return BY_KEY.get(name.toLowerCase());
}

/** `OpenWOP-` followed by one or more capitalized, hyphen-separated words. */
export const OPENWOP_HEADER = /^OpenWOP(?:-[A-Z][A-Za-z0-9]*)+$/;

export interface RemovedHeader {
  /** Matches the removed name (case-insensitively). */
  pattern: RegExp;
  name: string;
  instead: string;
}

/** The header names v1 used and v2 removed (headers.md §"Removed in v2"). */
const REMOVED_HEADERS: readonly RemovedHeader[] = [
  { pattern: /^capabilities-etag$/i, name: 'Capabilities-Etag', instead: 'the standard ETag / If-None-Match pair on the discovery document' },
  { pattern: /^x-dedup$/i, name: 'X-Dedup', instead: 'OpenWOP-Dedup' },
  { pattern: /^x-force-engine-version$/i, name: 'X-Force-Engine-Version', instead: 'OpenWOP-Force-Engine-Version' },
  { pattern: /^x-pack-sha256$/i, name: 'X-Pack-Sha256', instead: 'the digest that travels with the pack (packs.md §"Integrity and signing")' },
  { pattern: /^x-pack-signing-method$/i, name: 'X-Pack-Signing-Method', instead: 'the signature that travels with the pack (packs.md §"Integrity and signing")' },
  { pattern: /^x-openwop-/i, name: 'X-openwop-*', instead: 'nothing in OpenAPI: the family exists only beside webhook deliveries during the v1 overlap (webhooks.md)' },
  { pattern: /^openwop-webhook-signature$/i, name: 'openwop-Webhook-Signature', instead: 'OpenWOP-Signature, declared in webhooks.md' },
];

export function removedHeader(name: string): RemovedHeader | undefined {
  return REMOVED_HEADERS.find((removed) => removed.pattern.test(name));
}
