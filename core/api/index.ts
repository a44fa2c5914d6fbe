/** The OpenAPI and AsyncAPI documents resolved into models (operations, responses, headers, channels), and the official schemas they are validated against. */
export { type AsyncApiModel, type ChannelView, asyncApiChannels, asyncApiModel, urlPath } from './asyncapi.js';
export { OPENWOP_HEADER, removedHeader, standardHeader } from './http-headers.js';
export { type OfficialSchema, asyncApiSchema, openApiSchema, publishedAsyncApiVersions, salientErrors } from './official-schemas.js';
export { ASYNCAPI_PATH, HTTP_METHODS, type HeaderDeclaration, type HeaderUsage, OPENAPI_PATH, type OpenApiModel, type OperationView, type ResponseView, SEAMS_PATH, SEAMS_PREFIX, describeOperation, headerKey, headerUsage, openApiModel, requestHeaders, responseHeaders, responseSite, responsesWithout, siteKey } from './openapi.js';
export { type Site, type SiteLocation, child, collectRefs, follow, isRecord, refOf, resolveRef, siteLocation, typedSegments } from './refs.js';
