// Part of `npm run build`: compiles the tool's fixed schemas once, with ajv's standalone mode, into
// dist/core/validators/, so that no run of the tool (cached or not) spends its first second
// compiling them: the official OpenAPI 3.1 and AsyncAPI 3.0.0 schemas, the config file's schema and
// every rule's options. The runtime checks each file's key, so a stale one is ignored.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { asyncApiSchema, openApiSchema } from '../dist/core/api/official-schemas.js';
import { PREBUILT_VALIDATORS } from '../dist/core/cache/index.js';
import { CONFIG_SCHEMA, CONFIG_SCHEMA_FILE, configValidator, optionValidator } from '../dist/core/config/index.js';
import { flushCaches } from '../dist/core/output/flush.js';
import { ALL_RULES } from '../dist/scripts/catalog.js';

mkdirSync(PREBUILT_VALIDATORS, { recursive: true });
openApiSchema('3.1.0', PREBUILT_VALIDATORS);
asyncApiSchema('3.0.0', PREBUILT_VALIDATORS);
configValidator(true)({});
for (const rule of ALL_RULES) for (const name of Object.keys(rule.options ?? {})) optionValidator(ALL_RULES, rule.id, name, true)(undefined);
flushCaches();
// The config schema, published for editors: a config names it in `$schema`.
writeFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), '..', CONFIG_SCHEMA_FILE), `${JSON.stringify(CONFIG_SCHEMA, null, 2)}\n`);
