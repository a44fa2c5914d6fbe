/**
 * JSON Schema over the corpus: one ajv (2020-12, strict, formats) per corpus model, holding every
 * schema of the corpus under its `$id`, so cross-file `$ref`s resolve without touching the disk.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { createHash } from 'node:crypto';
import { type Corpus, type DataFile, defineService, isObject, Location, type PathSegment } from '../model/index.js';
import { type Span } from '../output/index.js';
import { ValidatorStore, AJV_VERSION } from '../cache/index.js';
import type { Layout } from '../config/index.js';
import { renderMessage } from '../output/index.js';

/** Without a config, a corpus schema's `$id` is this base followed by its path in the repository. */
export const SCHEMA_BASE = 'https://openwop.dev/';

/** The config's layout.schemaIds: path prefix to `$id` base, longest prefix first. */
export type SchemaIds = Layout['schemaIds'];
const DEFAULT_SCHEMA_IDS: SchemaIds = [['', SCHEMA_BASE]];

export const isSchemaPath = (file: string): boolean => file.endsWith('.schema.json') && /^(schemas|spec|api)\//.test(file);

/** The `$id` a schema at `file` has: the base of the longest layout prefix it starts with, then the rest of its path. */
export function expectedSchemaId(file: string, schemaIds: SchemaIds = DEFAULT_SCHEMA_IDS): string {
  for (const [prefix, base] of schemaIds) if (file.startsWith(prefix)) return `${base}${file.slice(prefix.length)}`;
  return `${SCHEMA_BASE}${file}`;
}

/**
 * The corpus paths an absolute `$id` (fragment dropped) can name under the layout, most specific
 * prefix first. Two prefixes may share a base (upstream puts schemas/v2/ and spec/v2/ both under
 * .../spec/v2/), so the caller picks the candidate that exists.
 */
export function schemaPathsOfId(id: string, schemaIds: SchemaIds = DEFAULT_SCHEMA_IDS): string[] {
  const bare = id.split('#')[0] ?? id;
  const paths: string[] = [];
  for (const [prefix, base] of [...schemaIds, ['', SCHEMA_BASE] as const]) {
    if (bare.startsWith(base) && bare.length > base.length) {
      const candidate = `${prefix}${bare.slice(base.length)}`;
      if (!paths.includes(candidate)) paths.push(candidate);
    }
  }
  return paths;
}

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

// strictRequired is off: it wants every `required` name declared beside it, but `not: {required: [a, b]}`
// (mutual exclusion) and `then: {required: [...]}` name properties the enclosing schema declares,
// which is valid 2020-12 and the usual way to say it.
const AJV_OPTIONS = { strict: true, strictRequired: false, allErrors: true, allowUnionTypes: true, validateFormats: true, discriminator: true, inlineRefs: false, code: { optimize: false } } as const;
/** What compiled code and compile results depend on besides the schemas: ajv's version and options. */
export const AJV_FINGERPRINT = `ajv ${AJV_VERSION}; ${JSON.stringify(AJV_OPTIONS)}`;

export interface AjvOptions {
  /**
   * Keep each validator's source, so that it can be written out as standalone code (the validator
   * cache). It costs memory several times the compiled code's, so only an ajv whose validators are
   * cached keeps it.
   */
  keepSource?: boolean;
  /** Check each added schema against the 2020-12 meta-schema (off when another ajv already has). */
  validateSchema?: boolean;
}

export function createAjv(annotationKeywords: Iterable<string> = [], options: AjvOptions = {}): Ajv2020 {
  // optimize: false skips ajv's passes over the generated code, a third of compile time, for code that runs a handful of times per run.
  // inlineRefs: false compiles each referenced schema once instead of inlining it at every use: several times faster on a corpus whose schemas share kinds.
  const ajv = new Ajv2020({ ...AJV_OPTIONS, validateSchema: options.validateSchema ?? true, code: { ...AJV_OPTIONS.code, source: options.keepSource ?? false } });
  addFormats(ajv);
  for (const keyword of annotationKeywords) if (!ajv.getKeyword(keyword)) ajv.addKeyword({ keyword, schemaType: ['string', 'number', 'boolean', 'object', 'array', 'null'] });
  return ajv;
}

interface SchemaProblem {
  file: string;
  message: string;
}

export interface CorpusSchemas {
  /** The ajv holding every corpus schema; built on first use (a fully cached run never builds it). */
  readonly ajv: Ajv2020;
  /** Schema files by path. */
  files: ReadonlyMap<string, DataFile>;
  /** The `x-*` and `_*` members the schemas use, which ajv is told are annotations. */
  keywords: readonly string[];
  /** A digest of a schema file's text, for keys of cached results. */
  digest(file: string): string;
  /** The `$id` each schema file is registered under (undefined when it could not be registered). */
  idOf: (file: string) => string | undefined;
  /** The `$id` each schema file declares (or is given by the layout), unique, before ajv has seen it: no ajv is built. */
  declaredIdOf: (file: string) => string | undefined;
  /** Problems met while registering schemas (duplicate `$id`, a schema ajv refuses). */
  readonly problems: SchemaProblem[];
  /** A compiled validator for a schema file, optionally at a JSON pointer inside it; throws if it does not compile. */
  validator(file: string, pointer?: string): ValidateFunction;
  /**
   * Why `schema`, registered for a moment under `id` beside the corpus schemas, does not compile
   * (undefined when it does). Remembered with the verdicts, so a run whose schemas did not change
   * answers without building ajv.
   */
  compileProblem(schema: object, id: string): string | undefined;
}

/** The corpus's schema files, their ids and extension keywords, and their validators compiled on demand. */
const CorpusSchemasService = defineService('corpus schemas', buildCorpusSchemas);

export function corpusSchemas(corpus: Corpus): CorpusSchemas {
  return corpus.service(CorpusSchemasService);
}

function buildCorpusSchemas(corpus: Corpus): CorpusSchemas {
  const files = new Map<string, DataFile>();
  for (const file of corpus.dataFiles()) if (isSchemaPath(file.path) && isObject(file.value)) files.set(file.path, file);

  const keywords = new Set<string>();
  for (const file of files.values()) collectExtensionKeywords(file.value, keywords);

  // Which file holds which $id needs no ajv; a duplicate $id is found here.
  const declaredIds = new Map<string, string>();
  const duplicates: SchemaProblem[] = [];
  const seen = new Map<string, string>();
  for (const [path, file] of files) {
    const declared = (file.value as Record<string, unknown>).$id;
    const id = typeof declared === 'string' ? declared : expectedSchemaId(path, corpus.config.layout.schemaIds);
    const other = seen.get(id);
    if (other) {
      duplicates.push({ file: path, message: `$id ${id} is also the $id of ${other}` });
      continue;
    }
    seen.set(id, path);
    declaredIds.set(path, id);
  }

  const sortedKeywords = [...keywords].sort();
  const digests = new Map([...files].map(([path, file]) => [path, createHash('sha1').update(file.text).digest('hex')]));
  let ajv: Ajv2020 | undefined;
  let refused: SchemaProblem[] = [];
  const build = (): Ajv2020 => {
    if (ajv) return ajv;
    ajv = createAjv(sortedKeywords);
    refused = [];
    for (const [path, id] of declaredIds) {
      try {
        ajv.addSchema(files.get(path)?.value as object, id);
      } catch (error) {
        refused.push({ file: path, message: error instanceof Error ? error.message : String(error) });
      }
    }
    return ajv;
  };

  const key = [AJV_FINGERPRINT, sortedKeywords.join(','), ...[...digests].map(([path, digest]) => `${path}:${digest}`)].join('\n');
  const store = new ValidatorStore(corpus.cacheDir, 'corpus', key, build);
  // Whether ajv refuses a schema is a function of the same key, so the store remembers it too.
  const registration = (): SchemaProblem[] => store.remember('refused', () => (build(), refused), isSchemaProblems);

  const schemas: CorpusSchemas = {
    get ajv() {
      return build();
    },
    files,
    keywords: sortedKeywords,
    digest: (file) => digests.get(file) ?? '',
    get problems() {
      return [...duplicates, ...registration()];
    },
    idOf: (file) => (registration().some((problem) => problem.file === file) ? undefined : declaredIds.get(file)),
    declaredIdOf: (file) => declaredIds.get(file),
    validator(file, pointer = '') {
      const id = schemas.idOf(file);
      if (!id) throw new Error(`${file} is not a registered schema`);
      return store.validator(pointer ? `${id}#${pointer}` : id);
    },
    compileProblem(schema, id) {
      const outcome = store.remember(`compile ${id} ${JSON.stringify(schema)}`, () => {
        const instance = build();
        try {
          instance.compile({ ...schema, $id: id });
          return { problem: null };
        } catch (error) {
          return { problem: error instanceof Error ? error.message : String(error) };
        } finally {
          instance.removeSchema(id);
        }
      }, isCompileProblem);
      return outcome.problem ?? undefined;
    },
  };
  return schemas;
}

function isCompileProblem(value: unknown): value is { problem: string | null } {
  return typeof value === 'object' && value !== null && ((value as { problem?: unknown }).problem === null || typeof (value as { problem?: unknown }).problem === 'string');
}

function isSchemaProblems(value: unknown): value is SchemaProblem[] {
  return Array.isArray(value) && value.every((item: unknown) => isObject(item) && typeof item.file === 'string' && typeof item.message === 'string');
}

function collectExtensionKeywords(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) {
    for (const item of value) collectExtensionKeywords(item, into);
  } else if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      // `_`-prefixed members (the payload registry's `_typeIndex`) are data beside the schema, as `x-*` ones are.
      if (key.startsWith('x-') || key.startsWith('_')) into.add(key);
      collectExtensionKeywords(child, into);
    }
  }
}

/** `/rows/3/code` as path segments, array indexes as numbers. */
export function instancePathSegments(instancePath: string): PathSegment[] {
  if (instancePath === '') return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((raw) => raw.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment) => (/^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment));
}

/** One readable sentence for an ajv error, naming the offending property where ajv knows it. */
export function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where}: property "${String(error.params.additionalProperty)}" is not allowed`;
    case 'required':
      return `${where}: required property "${String(error.params.missingProperty)}" is missing`;
    case 'enum':
      return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `${where}: must be ${JSON.stringify(error.params.allowedValue)}`;
    default:
      return `${where}: ${error.message ?? error.keyword}`;
  }
}

/**
 * Where in `file` an ajv error points: the offending property's key for `additionalProperties`,
 * otherwise the value at the instance path.
 */
export function locateSchemaError(file: DataFile, error: ErrorObject, base: PathSegment[] = []): Location {
  const segments = [...base, ...instancePathSegments(error.instancePath)];
  if (error.keyword === 'additionalProperties') return Location.pointer(file, [...segments, String(error.params.additionalProperty)], 'key');
  return Location.pointer(file, segments, segments.length === 0 ? 'value' : 'key');
}

/**
 * The words of validateRegistry's findings, by message id: a gate that reports them puts these in
 * its own `messages` and reports the findings without their `message`, so they are worded from here.
 */
export const REGISTRY_MESSAGES = {
  'schema-missing': 'its schema {{schema}} is missing or does not load',
  'schema-does-not-compile': 'its schema {{schema}} does not compile: {{problem}}',
  'schema-mismatch': 'does not match {{against}}: {{error}}',
  'schema-mismatch-at-places': 'does not match {{against}}: {{error}} (at {{places}} places, the first here)',
} as const;

export type RegistryValidationFinding = Span & {
  file: string;
  messageId: keyof typeof REGISTRY_MESSAGES;
  data: { schema: string; against?: string; error?: string; places?: number; problem?: string };
  /** REGISTRY_MESSAGES worded with `data`, for a gate that does not word them itself. */
  message: string;
  hint: string;
};

/** A registry finding as a gate reports it when REGISTRY_MESSAGES are among its `messages`: worded from them. */
export function unworded(finding: RegistryValidationFinding): Omit<RegistryValidationFinding, 'message'> {
  const { message: _message, ...rest } = finding;
  return rest;
}

const carriedValidators = new WeakMap<object, ValidateFunction>();

/**
 * Validates a registry against its schema. A registry whose schema the corpus does not ship is
 * held to `carried`, the schema the tool brings for it, when there is one. Returns one finding
 * per distinct violation (the same keyword on the same member of every row of a list is one
 * violation), at the first place it occurs, counting the places; an empty list means the registry
 * matches. The caller still reads what it can: a bad row does not make the good ones unreadable.
 */
export function validateRegistry(corpus: Corpus, registry: string, schema: string, carried?: object): RegistryValidationFinding[] {
  const data = corpus.data(registry);
  if (!data) return [];
  const schemas = corpusSchemas(corpus);
  let validate: ValidateFunction;
  let against = schema;
  let carriedRoot: object | undefined;
  if (!schemas.idOf(schema)) {
    if (!carried || corpus.get(schema)) return [{ file: registry, line: 1, column: 1, messageId: 'schema-missing', data: { schema }, message: renderMessage(REGISTRY_MESSAGES['schema-missing'], { schema }), hint: `restore ${schema}, or correct it so that it parses` }];
    against = `the schema openwop-spec carries for it (the corpus has no ${schema})`;
    carriedRoot = carried;
    validate = carriedValidators.get(carried) ?? createAjv().compile(carried);
    carriedValidators.set(carried, validate);
  } else {
    try {
      validate = schemas.validator(schema);
    } catch (error) {
      const problem = error instanceof Error ? error.message : String(error);
      return [{ file: registry, line: 1, column: 1, messageId: 'schema-does-not-compile', data: { schema, problem }, message: renderMessage(REGISTRY_MESSAGES['schema-does-not-compile'], { schema, problem }), hint: 'see the schemas/compile finding on that schema' }];
    }
  }
  if (validate(data.value)) return [];
  const groups = new Map<string, { error: ErrorObject; count: number }>();
  const validateAt = (pointer: string, value: unknown): ErrorObject[] | undefined => {
    if (carriedRoot) return undefined;
    try {
      const branch = schemas.validator(schema, pointer);
      return branch(value) ? [] : [...(branch.errors ?? [])];
    } catch {
      return undefined;
    }
  };
  for (const error of bestBranches(validate.errors ?? [], carriedRoot ?? schemas.files.get(schema)?.value, data.value, validateAt)) {
    const key = violationKey(error);
    const group = groups.get(key);
    if (group) group.count++;
    else groups.set(key, { error, count: 1 });
  }
  // Two keywords of one subschema failing on one value (`type` and `const` of `/version`) are one
  // violation of that subschema: one finding that says both.
  const merged = new Map<string, { error: ErrorObject; count: number; also: ErrorObject[] }>();
  for (const { error, count } of groups.values()) {
    const key = [genericPath(error.instancePath), error.schemaPath.replace(/\/[^/]*$/, ''), count].join('\u0000');
    const same = error.keyword !== 'additionalProperties' && error.keyword !== 'required' ? merged.get(key) : undefined;
    if (same) same.also.push(error);
    else merged.set(error.keyword !== 'additionalProperties' && error.keyword !== 'required' ? key : `${key}\u0000${merged.size}`, { error, count, also: [] });
  }
  return [...merged.values()].map(({ error, count, also }) => {
    const at = (e: ErrorObject) => ({ ...e, instancePath: count > 1 ? genericPath(e.instancePath) : e.instancePath });
    const first = describeSchemaError(at(error));
    const prefix = `${at(error).instancePath || '(root)'}: `;
    const more = also.map((e) => describeSchemaError(at(e)).slice(prefix.length));
    const messageId = count > 1 ? ('schema-mismatch-at-places' as const) : ('schema-mismatch' as const);
    const found = { schema, against, error: [first, ...more].join(', and '), places: count };
    return {
      ...locateSchemaError(data, error),
      messageId,
      data: found,
      message: renderMessage(REGISTRY_MESSAGES[messageId], found),
      hint: 'correct the registry so that it matches its schema',
    };
  });
}

/** Array indexes as `*`: the same violation in every row of a list is one violation. */
function genericPath(instancePath: string): string {
  return instancePath.replace(/\/(0|[1-9]\d*)(?=\/|$)/g, '/*');
}

function violationKey(error: ErrorObject): string {
  return [genericPath(error.instancePath), error.schemaPath, error.keyword, JSON.stringify(error.params)].join('\u0000');
}

/**
 * ajv reports a failed `oneOf`/`anyOf` with the errors of every branch before the combinator's own
 * error. The branch with the fewest errors is the one the value was meant to match; its errors say
 * what is wrong, the others and the combinator error only that it matched none of them. Each
 * branch is validated on its own to tell which error is whose (ajv's schema paths inside a `$ref`
 * do not say).
 */
function bestBranches(errors: readonly ErrorObject[], root: unknown, data: unknown, validateAt: (pointer: string, value: unknown) => ErrorObject[] | undefined): ErrorObject[] {
  let kept = [...errors];
  const signature = (error: ErrorObject) => `${error.instancePath}\u0000${error.keyword}\u0000${JSON.stringify(error.params)}`;
  for (const combinator of errors.filter((error) => error.keyword === 'oneOf' || error.keyword === 'anyOf')) {
    const branches = schemaAt(root, combinator.schemaPath);
    if (!Array.isArray(branches) || !kept.includes(combinator)) continue;
    const value = instanceAt(data, combinator.instancePath);
    const results = branches.map((_, index) => validateAt(`${combinator.schemaPath.slice(1)}/${index}`, value));
    if (results.some((result) => result === undefined || result.length === 0)) continue;
    const perBranch = (results as ErrorObject[][]).map((result) => result.map((error) => ({ ...error, instancePath: `${combinator.instancePath}${error.instancePath}` })));
    const all = new Set(perBranch.flat().map(signature));
    const best = [...perBranch].sort((a, b) => a.length - b.length)[0] as ErrorObject[];
    // The branch errors ajv reported are replaced by the chosen branch's, where the combinator stood.
    const at = kept.indexOf(combinator);
    const before = kept.slice(0, at).filter((error) => !all.has(signature(error)));
    kept = [...before, ...best, ...kept.slice(at + 1)];
  }
  return kept;
}

function instanceAt(data: unknown, instancePath: string): unknown {
  let node = data;
  for (const segment of instancePathSegments(instancePath)) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node) && typeof segment === 'string') node = node[segment];
    else return undefined;
  }
  return node;
}

/** The subschema at an ajv schema path (`#/properties/rows/items/oneOf`) of a schema document. */
function schemaAt(root: unknown, schemaPath: string): unknown {
  if (!schemaPath.startsWith('#')) return undefined;
  let node = root;
  for (const raw of schemaPath.slice(1).split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isObject(node)) node = node[segment];
    else return undefined;
  }
  return node;
}
