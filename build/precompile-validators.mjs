// Part of `npm run build`: compiles the official OpenAPI 3.1 and AsyncAPI 3.0.0 schemas once, with
// ajv's standalone mode, into dist/validators/, so that no run of the tool (cached or not) spends
// its first second compiling them. The runtime checks each file's key, so a stale one is ignored.
import { mkdirSync } from 'node:fs';
import { asyncApiSchema, openApiSchema, PREBUILT_VALIDATORS } from '../dist/core/api/official-schemas.js';
import { flushCaches } from '../dist/core/output/flush.js';

mkdirSync(PREBUILT_VALIDATORS, { recursive: true });
openApiSchema('3.1.0', PREBUILT_VALIDATORS);
asyncApiSchema('3.0.0', PREBUILT_VALIDATORS);
flushCaches();
