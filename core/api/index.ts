/** The OpenAPI and AsyncAPI documents resolved into models (operations, responses, headers, channels), and the official schemas they are validated against. */
export * from './asyncapi.js';
export * from './http-headers.js';
export * from './official-schemas.js';
export * from './openapi.js';
export * from './refs.js';
