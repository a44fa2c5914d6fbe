/**
 * Finding and reading the config: `--config FILE`, else `openwop-spec.config.json` at the root,
 * else the defaults (this repository's own layout). A config that cannot be read or does not fit
 * the schema stops the run with one line naming the key.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from '../cache/index.js';
import addFormatsModule from 'ajv-formats';
import { globEscape, isInsideBySpelling, readRegularFile, ReadRefused } from '../fs/index.js';
import { visible } from '../output/index.js';
import path from 'node:path';
import { CONFIG_FILE, CONFIG_SCHEMA } from './schema.js';

/** A config that cannot be used: the message is one line, naming the file and the key. */
export class ConfigError extends Error {}

export type ConfiguredSeverity = 'off' | 'warn' | 'error';
export type RuleEntry = ConfiguredSeverity | [ConfiguredSeverity] | [ConfiguredSeverity, Record<string, unknown>] | HouseRuleEntry;
/** A rule the config defines (core/house-rules reads it); the config reader only carries it. */
export type HouseRuleEntry = { readonly given: unknown; readonly then: unknown } & Readonly<Record<string, unknown>>;

export interface Layout {
  /** Path prefix to $id base, longest prefix first. */
  schemaIds: ReadonlyArray<readonly [prefix: string, base: string]>;
  /** The corpus stamp, relative to the root. */
  stamp: string;
}

export interface Config {
  /** Where the config came from (absolute), or undefined for the defaults. */
  source?: string;
  include: readonly string[];
  exclude: readonly string[];
  /** The `rules` object as written, in its order. */
  rules: Readonly<Record<string, RuleEntry>>;
  layout: Layout;
  /** Files the corpus must contain, relative to the root. */
  required: readonly string[];
  /** Where in the config file each `required` entry is written (1-based), when the file lists them. */
  requiredAt?: Readonly<Record<string, { line: number; column: number; endColumn: number }>>;
  /** Whether a `$ref` to a URL outside the corpus is allowed (it is never fetched). */
  allowRemoteRefs: boolean;
  /** Run policy; each also a flag of `check`, which wins over the config. */
  policy: Policy;
  /** Impacts `diff` gives change rules, as written (see core/release/impacts.ts). */
  diff?: DiffSettings;
}

export type DiffImpact = 'breaking' | 'additive' | 'editorial' | 'off';
export interface DiffSettings {
  impacts?: Readonly<Record<string, DiffImpact>>;
  overrides?: ReadonlyArray<{ files: readonly string[]; impacts: Readonly<Record<string, DiffImpact>> }>;
}

export interface Policy {
  maxWarnings?: number;
  failSeverity?: 'error' | 'warning';
  quiet?: boolean;
  /** Root-relative paths. */
  suppressions?: string;
  baselineFindings?: string;
}

export const DEFAULT_SUPPRESSIONS = 'openwop-spec.suppressions.json';

/** What this repository's corpus must contain: the registries the gates and generators read, and the API documents. */
export const DEFAULT_REQUIRED = [
  'spec/v2/errors.json',
  'spec/v2/event-codemap.json',
  'spec/v2/declaration.json',
  'spec/v2/id-field-bindings.json',
  'api/v2/openapi.yaml',
  'api/v2/asyncapi.yaml',
] as const;

export const DEFAULT_INCLUDE = ['{spec,api,schemas,conformance,SECURITY,docs,evidence}/**', 'CORPUS-STAMP.json'] as const;
export const DEFAULT_SCHEMA_ID_BASE = 'https://openwop.dev/';

export function defaultConfig(): Config {
  return { include: [...DEFAULT_INCLUDE], exclude: [], rules: {}, layout: { schemaIds: [['', DEFAULT_SCHEMA_ID_BASE]], stamp: 'CORPUS-STAMP.json' }, required: [...DEFAULT_REQUIRED], allowRemoteRefs: false, policy: {} };
}

/** `explicit` is the --config argument (relative to the working directory), when given. */
export function loadConfig(root: string, explicit?: string): Config {
  const file = explicit !== undefined ? path.resolve(explicit) : path.join(path.resolve(root), CONFIG_FILE);
  let text: string;
  try {
    text = readConfigText(file);
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    if (explicit === undefined) return defaultConfig();
    throw new ConfigError(`cannot read config ${display(file)}: ENOENT`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config ${display(file)} is not JSON: ${visible((error as Error).message)}`);
  }
  const validate = configValidator();
  if (!validate(value)) throw new ConfigError(`config ${display(file)}: ${visible(describe(validate.errors ?? []))}`);
  return fromValue(value as RawConfig, file, text);
}

/** A config-like file the tool reads from a checkout (config, suppressions): at most this large. */
export const MAX_CONFIG_BYTES = 16 * 2 ** 20;

/**
 * The text of a config-like file: a regular file, never a link (a checkout's link could point at
 * /proc/self/environ or a secret, and a parse error would print its start), without a byte order
 * mark. Refusals are ConfigErrors naming the file; ENOENT stays a ReadRefused for the caller.
 */
export function readConfigText(file: string, what = 'config'): string {
  let bytes: Buffer;
  try {
    bytes = readRegularFile(file, MAX_CONFIG_BYTES);
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    if (error.code === 'ENOENT') throw error;
    if (error.code === 'ELINK') throw new ConfigError(`${what} ${display(file)} is a symbolic link; it is refused, not followed (commit the file itself)`);
    if (error.code === 'EIRREGULAR') throw new ConfigError(`${what} ${display(file)} is not a regular file`);
    if (error.code === 'ETOOBIG') throw new ConfigError(`${what} ${display(file)} is larger than ${MAX_CONFIG_BYTES / 2 ** 20} MiB`);
    throw new ConfigError(`cannot read ${what} ${display(file)}: ${error.code}`);
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

interface RawConfig {
  include?: string[];
  exclude?: string[];
  rules?: Record<string, RuleEntry>;
  layout?: { schemaIds?: Record<string, string>; stamp?: string };
  maxWarnings?: number;
  failSeverity?: 'error' | 'warning';
  quiet?: boolean;
  suppressions?: string;
  baselineFindings?: string;
  required?: string[];
  allowRemoteRefs?: boolean;
  diff?: DiffSettings;
}

function fromValue(raw: RawConfig, source: string, text = ''): Config {
  const defaults = defaultConfig();
  for (const file of raw.required ?? []) {
    if (!isInsideBySpelling(file)) throw new ConfigError(`config ${display(source)}: required file ${quoted(file)} must be inside the root`);
  }
  for (const glob of [...(raw.include ?? []), ...(raw.exclude ?? [])]) {
    // Judged after brace expansion: `{..,docs}/**` hides a `..`, `{/etc,spec}/**` an absolute path.
    const escape = globEscape(glob);
    if (escape !== undefined) throw new ConfigError(`config ${display(source)}: include/exclude glob ${quoted(glob)} must stay inside the root (it stands for ${quoted(escape)})`);
  }
  const schemaIds = raw.layout?.schemaIds
    ? Object.entries(raw.layout.schemaIds).sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1))
    : defaults.layout.schemaIds;
  const stamp = raw.layout?.stamp ?? defaults.layout.stamp;
  if (!isInsideBySpelling(stamp)) throw new ConfigError(`config ${display(source)}: layout.stamp ${quoted(stamp)} must stay inside the root`);
  for (const key of ['suppressions', 'baselineFindings'] as const) {
    const file = raw[key];
    if (file !== undefined && !isInsideBySpelling(file)) throw new ConfigError(`config ${display(source)}: ${key} ${quoted(file)} must stay inside the root`);
  }
  const policy: Policy = {};
  if (raw.maxWarnings !== undefined) policy.maxWarnings = raw.maxWarnings;
  if (raw.failSeverity !== undefined) policy.failSeverity = raw.failSeverity;
  if (raw.quiet !== undefined) policy.quiet = raw.quiet;
  if (raw.suppressions !== undefined) policy.suppressions = raw.suppressions;
  if (raw.baselineFindings !== undefined) policy.baselineFindings = raw.baselineFindings;
  return {
    source,
    include: raw.include ?? defaults.include,
    exclude: raw.exclude ?? [],
    rules: raw.rules ?? {},
    layout: { schemaIds, stamp },
    policy,
    required: raw.required ?? defaults.required,
    ...(raw.required ? { requiredAt: entryPositions(text, raw.required) } : {}),
    allowRemoteRefs: raw.allowRemoteRefs ?? false,
    ...(raw.diff ? { diff: raw.diff } : {}),
  };
}

/** Where each listed path is written in the config text: the first occurrence after the `required` key. */
function entryPositions(text: string, entries: readonly string[]): Record<string, { line: number; column: number; endColumn: number }> {
  const positions: Record<string, { line: number; column: number; endColumn: number }> = {};
  const start = Math.max(0, text.search(/"required"\s*:/));
  for (const entry of entries) {
    const quoted = JSON.stringify(entry);
    const offset = text.indexOf(quoted, start);
    if (offset === -1) continue;
    const before = text.slice(0, offset);
    const line = before.split('\n').length;
    const column = offset - before.lastIndexOf('\n');
    positions[entry] = { line, column, endColumn: column + quoted.length };
  }
  return positions;
}

const CONFIG_ID = 'urn:openwop-spec:config';
let configStore: ValidatorStore | undefined;

/**
 * The config schema's validator: precompiled by `npm run build` into the tool's own output, so
 * that reading a config costs no ajv compile; compiled here only when that file is missing or stale.
 * `emit` (the build) writes the compiled code there instead.
 */
export function configValidator(emit = false): ValidateFunction {
  configStore ??= new ValidatorStore(undefined, 'config', `${AJV_VERSION}; ${JSON.stringify(CONFIG_AJV_OPTIONS)}; ${JSON.stringify(CONFIG_SCHEMA)}`, () => {
    const ajv = new Ajv2020({ ...CONFIG_AJV_OPTIONS, code: { source: true } });
    const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;
    addFormats(ajv);
    ajv.addSchema(CONFIG_SCHEMA, CONFIG_ID);
    return ajv;
  }, { prebuilt: PREBUILT_VALIDATORS, emit });
  return configStore.validator(CONFIG_ID);
}

const CONFIG_AJV_OPTIONS = { allErrors: false, strict: true, strictTuples: false } as const;

/** The first problem, as `key: what is wrong`, the key in the dotted form people write. */
function describe(errors: readonly ErrorObject[]): string {
  // oneOf failures report every branch; the most specific (deepest) error names the real key.
  const error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!error) return 'invalid';
  const segments = error.instancePath.split('/').slice(1).map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let key = segments.length > 0 ? segments.map((s, i) => (/^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `["${s}"]`)).join('') : '(top level)';
  let what = error.message ?? 'is invalid';
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    key = segments.length > 0 ? `${key}.${extra}` : extra;
    what = 'is not a known key';
  } else if (error.keyword === 'propertyNames' || error.propertyName !== undefined) {
    const name = error.propertyName ?? String((error.params as { propertyName?: string }).propertyName);
    key = `${key}["${name}"]`;
    what = 'is not a rule id or family/*';
  } else if (error.keyword === 'enum') {
    what = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  return `${key} ${what}`;
}

/** The config's file as a user would name it (relative to the working directory when inside it). */
export function configName(config: Config): string {
  return config.source ? display(config.source) : 'defaults';
}

function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return visible(relative && !relative.startsWith('..') ? relative : file);
}

/** A value from the config, quoted and escaped for the one line it is shown in. */
function quoted(value: string): string {
  return visible(JSON.stringify(value));
}
