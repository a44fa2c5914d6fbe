/**
 * The package's schemas, ready to validate with: one ajv (JSON Schema 2020-12, formats checked)
 * holding every schema the package ships under its `$id`, so cross-file `$ref`s resolve, and the
 * OpenWOP annotation keywords declared (vocabulary.json), so ajv's strict mode accepts them.
 *
 *   import { validator } from '@openwop/spec-artifacts/validator';
 *   const validate = validator('run-event');
 *   if (!validate(event)) console.log(validate.errors);
 *
 * ajv and ajv-formats are the consumer's (optional peer dependencies): only this entry needs them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { packageDirectory } from './verify.js';

// ajv-formats is CommonJS; under Node's ESM loader its function arrives as the default export's default.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
  ajv: Ajv2020,
) => Ajv2020;

export const SCHEMA_INDEX = 'schemas.json';
export const VOCABULARY = 'vocabulary.json';

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(path.join(packageDirectory(), file), 'utf8'));
}

/** `$id` -> the schema's path in the package, for every schema the package ships. */
export function schemaIndex(): Record<string, string> {
  return readJson(SCHEMA_INDEX) as Record<string, string>;
}

/** The annotation keywords the schemas use (the members the vocabulary's meta-schema declares). */
export function annotationKeywords(): string[] {
  const vocabulary = readJson(VOCABULARY) as { properties?: Record<string, unknown> };
  return Object.keys(vocabulary.properties ?? {});
}

/**
 * Which schema a name means: its `$id`, its path in the package (`schemas/v2/run-event.schema.json`),
 * or its file name without `.schema.json` (`run-event`) when only one schema has that name. A
 * `#/json/pointer` after any of these addresses a subschema.
 */
export function resolveSchema(name: string): { id: string; file: string; pointer: string } {
  const hash = name.indexOf('#');
  const base = hash === -1 ? name : name.slice(0, hash);
  const pointer = hash === -1 ? '' : name.slice(hash + 1);
  const index = schemaIndex();
  const entries = Object.entries(index);
  const matches = entries.filter(
    ([id, file]) => id === base || file === base || path.posix.basename(file, '.schema.json') === base,
  );
  if (matches.length === 1) {
    const [id, file] = matches[0] as [string, string];
    return { id, file, pointer };
  }
  if (matches.length === 0)
    throw new Error(
      `no schema named "${base}" in @openwop/spec-artifacts; the schemas are ${entries.map(([, file]) => file).join(', ')}`,
    );
  throw new Error(
    `"${base}" names ${matches.length} schemas (${matches.map(([, file]) => file).join(', ')}); name one by its path`,
  );
}

/**
 * A new ajv with every schema of the package added, formats on and the annotation keywords
 * declared. `options` go to ajv (strict mode is ajv's default; union types are allowed, since
 * the schemas use them).
 */
export function createAjv(options: Options = {}): Ajv2020 {
  const ajv = new Ajv2020({ allowUnionTypes: true, ...options });
  addFormats(ajv);
  ajv.addVocabulary(annotationKeywords());
  for (const file of Object.values(schemaIndex())) ajv.addSchema(readJson(file) as object);
  return ajv;
}

let shared: Ajv2020 | undefined;

/** A compiled validator for the named schema (see resolveSchema), from one ajv shared by every call. */
export function validator<T = unknown>(name: string): ValidateFunction<T> {
  const { id, pointer } = resolveSchema(name);
  shared ??= createAjv();
  const validate = shared.getSchema<T>(pointer === '' ? id : `${id}#${pointer}`);
  if (!validate) throw new Error(`${name}: no subschema at #${pointer}`);
  return validate;
}
