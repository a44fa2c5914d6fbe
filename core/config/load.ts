/**
 * Finding and reading the config: `--config FILE`, else the config file found from the working
 * directory (or at `--root`), else the defaults (this repository's own layout); its `extends`
 * merged under it. A config that cannot be read or does not fit the schema stops the run with one
 * line naming the file, the line and column, and the key.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from '../cache/index.js';
import addFormatsModule from 'ajv-formats';
import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import {
  directoryStaysInside,
  globEscape,
  isBelow,
  isInsideBySpelling,
  readRegularFile,
  ReadRefused,
} from '../fs/index.js';
import { visible } from '../output/index.js';
import path from 'node:path';
import { parseConfigText, ConfigSyntaxError, type ConfigText, type TextPosition } from './read.js';
import { CONFIG_FILES, CONFIG_SCHEMA } from './schema.js';

/** A config that cannot be used: the message is one line, naming the file and the key. */
export class ConfigError extends Error {}

export type ConfiguredSeverity = 'off' | 'warn' | 'error';
export type RuleEntry =
  ConfiguredSeverity | [ConfiguredSeverity] | [ConfiguredSeverity, Record<string, unknown>] | HouseRuleEntry;
/** A rule the config defines (core/house-rules reads it); the config reader only carries it. */
type HouseRuleEntry = { readonly given: unknown; readonly then: unknown } & Readonly<Record<string, unknown>>;

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
  /** The `rules` object as written, in its order (its bases' first). */
  rules: Readonly<Record<string, RuleEntry>>;
  /** Rule settings for some files, in order: a later entry wins. */
  overrides: readonly Override[];
  layout: Layout;
  /** Files the corpus must contain, relative to the root. */
  required: readonly string[];
  /** Where in the config file each `required` entry is written (1-based), when the file lists them. */
  requiredAt?: Readonly<Record<string, TextPosition>>;
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

export interface Override {
  /** Globs relative to the root. */
  files: readonly string[];
  excludedFiles: readonly string[];
  rules: Readonly<Record<string, RuleEntry>>;
}

interface Policy {
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

export const DEFAULT_INCLUDE = [
  '{spec,api,schemas,conformance,SECURITY,docs,evidence}/**',
  'CORPUS-STAMP.json',
] as const;
export const DEFAULT_SCHEMA_ID_BASE = 'https://openwop.dev/';

export function defaultConfig(): Config {
  return {
    include: [...DEFAULT_INCLUDE],
    exclude: [],
    rules: {},
    overrides: [],
    layout: { schemaIds: [['', DEFAULT_SCHEMA_ID_BASE]], stamp: 'CORPUS-STAMP.json' },
    required: [...DEFAULT_REQUIRED],
    allowRemoteRefs: false,
    policy: {},
  };
}

/**
 * The config of the corpus at `root`: `explicit` (the --config argument, relative to the working
 * directory) when given, else the config file at the root (any of CONFIG_FILES), else the
 * defaults. Its `extends` are read and merged under it. Every layer is read as a regular file,
 * never through a link, and none from outside the root (or the directory of a --config named
 * outside it) except a package's config resolved from node_modules.
 */
export function loadConfig(root: string, explicit?: string): Config {
  const file = explicit !== undefined ? path.resolve(explicit) : configFileIn(path.resolve(root));
  if (file === undefined) return defaultConfig();
  const top = path.resolve(root);
  const areas = explicit !== undefined ? [top, path.dirname(file)] : [top];
  const layers = readLayers(file, [], { root: top, areas });
  const merged = mergeLayers(layers.map((layer) => layer.raw));
  const own = layers[layers.length - 1] as Layer;
  return fromValue(merged, file, own.raw.required ? own.text : undefined);
}

/**
 * The config file in `directory`, if there is one; two (say .json and .yaml) are a usage error, not a guess.
 * A link or other non-file by a config's name counts as one, so that reading it refuses it with a
 * word rather than the run silently falling back to the defaults.
 */
export function configFileIn(directory: string): string | undefined {
  const found = CONFIG_FILES.filter((name) => isPresent(path.join(directory, name)));
  if (found.length > 1)
    throw new ConfigError(`${display(directory) || '.'} has ${found.join(' and ')}: keep one config file`);
  return found[0] === undefined ? undefined : path.join(directory, found[0]);
}

/** Whether something other than a directory is at `file` (not followed when a link). */
function isPresent(file: string): boolean {
  try {
    return !lstatSync(file).isDirectory();
  } catch {
    return false;
  }
}

/** Where a run without --root looks: its corpus root and, when found, its config file. */
export interface Discovered {
  root: string;
  config?: string;
}

/**
 * The config a run from `cwd` uses, as ESLint and Vale find theirs: the nearest config file in
 * `cwd` or a directory above it, up to the repository root (the first directory with `.git`); the
 * corpus root is that file's directory. With none, the root is the repository root, or `cwd`
 * outside a repository.
 */
export function discoverConfig(cwd: string = process.cwd()): Discovered {
  let directory = path.resolve(cwd);
  for (;;) {
    const config = configFileIn(directory);
    if (config !== undefined) return { root: directory, config };
    if (existsSync(path.join(directory, '.git'))) return { root: directory };
    const parent = path.dirname(directory);
    if (parent === directory) return { root: path.resolve(cwd) };
    directory = parent;
  }
}

interface Layer {
  file: string;
  /** The file's text, when it is JSON or YAML (a module config has none to point into). */
  text?: string;
  raw: RawConfig;
}

/** The corpus root, and the directories a relative `extends` may lead into. */
interface Scope {
  root: string;
  areas: readonly string[];
}

/** The layers of one config, bases first: each `extends` entry's own layers, then the file itself. */
function readLayers(file: string, chain: readonly string[], scope: Scope): Layer[] {
  if (chain.includes(file))
    throw new ConfigError(`config ${display(file)} extends itself: ${[...chain, file].map(display).join(' → ')}`);
  const { text, raw } = readRaw(file, scope.root);
  const bases = raw.extends === undefined ? [] : typeof raw.extends === 'string' ? [raw.extends] : raw.extends;
  const layers: Layer[] = [];
  bases.forEach((base, index) => {
    const builtIn = Object.hasOwn(BUILT_IN_CONFIGS, base) ? BUILT_IN_CONFIGS[base] : undefined;
    if (builtIn) layers.push({ file: base, raw: builtIn });
    else if (base.startsWith(BUILT_IN_PREFIX))
      throw new ConfigError(
        `config ${display(file)}: extends ${quoted(base)} is not a built-in config (${Object.keys(BUILT_IN_CONFIGS).join(', ')})${at(file, text, ['extends', ...(typeof raw.extends === 'string' ? [] : [index])])}`,
      );
    else layers.push(...readLayers(resolveExtends(base, file, text, raw, index, scope), [...chain, file], scope));
  });
  layers.push({ file, ...(text !== undefined ? { text } : {}), raw });
  return layers;
}

/** A shareable config written as a module (as ESLint's and Spectral's can be): its default export, or module.exports. */
const MODULE = /\.(c|m)?js$/i;

/**
 * A module config is code: it is run only when it is a package installed in the root's own
 * node_modules, reached through no link (what the repository's own tooling already runs), never
 * a module committed elsewhere in a checkout being checked.
 */
function readModule(file: string, root: string): { raw: RawConfig } {
  const modules = path.join(realOrSelf(root), 'node_modules');
  if (realOrSelf(file) !== file || !isBelow(modules, file)) {
    throw new ConfigError(
      `config ${display(file)} is JavaScript, which is run only from a package installed in the root's node_modules (not through a link); write it as JSON or YAML`,
    );
  }
  let value: unknown;
  try {
    const loaded = createRequire(file)(file) as { default?: unknown; __esModule?: boolean };
    value = loaded !== null && typeof loaded === 'object' && 'default' in loaded ? loaded.default : loaded;
  } catch (error) {
    throw new ConfigError(
      `cannot load config module ${display(file)}: ${visible((error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '')}`,
    );
  }
  const validate = configValidator();
  if (!validate(value)) throw new ConfigError(`config ${display(file)}${visible(describe(validate.errors ?? []))}`);
  return { raw: value as RawConfig };
}

/** `file` with every link resolved, or as spelled when it cannot be (it is then judged as spelled). */
function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

function readRaw(file: string, root: string): { text?: string; raw: RawConfig } {
  if (MODULE.test(file)) return readModule(file, root);
  let text: string;
  try {
    text = readConfigText(file);
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    throw new ConfigError(`cannot read config ${display(file)}: ${error.code}`);
  }
  let parsed: ConfigText;
  try {
    parsed = parseConfigText(text, file);
  } catch (error) {
    if (error instanceof ConfigSyntaxError) throw new ConfigError(`config ${display(file)}:${visible(error.message)}`);
    throw error;
  }
  const validate = configValidator();
  if (!validate(parsed.value))
    throw new ConfigError(`config ${display(file)}${visible(describe(validate.errors ?? [], parsed))}`);
  return { text, raw: parsed.value as RawConfig };
}

/** A config-like file the tool reads from a checkout (config, suppressions): at most this large. */
const MAX_CONFIG_BYTES = 16 * 2 ** 20;

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
    if (error.code === 'ELINK')
      throw new ConfigError(
        `${what} ${display(file)} is a symbolic link; it is refused, not followed (commit the file itself)`,
      );
    if (error.code === 'EIRREGULAR') throw new ConfigError(`${what} ${display(file)} is not a regular file`);
    if (error.code === 'ETOOBIG')
      throw new ConfigError(`${what} ${display(file)} is larger than ${MAX_CONFIG_BYTES / 2 ** 20} MiB`);
    throw new ConfigError(`cannot read ${what} ${display(file)}: ${error.code}`);
  }
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** `:line:column` of a key in a config's text, for a message about it; empty when unknown. */
function at(file: string, text: string | undefined, keyPath: ReadonlyArray<string | number>): string {
  if (text === undefined) return '';
  const where = parseConfigText(text, file).at(keyPath);
  return where ? ` (line ${where.line}, column ${where.column})` : '';
}

/** Whether `target` lies under `area` by its spelling and by every directory on the way (links followed). */
function staysIn(area: string, target: string): boolean {
  const relative = path.relative(area, target);
  return (
    relative !== '' &&
    isInsideBySpelling(relative.split(path.sep).join('/')) &&
    directoryStaysInside(area, path.dirname(relative))
  );
}

/** The node_modules directory a package's file lies in, whose other packages its relative `extends` may name. */
function packageArea(file: string): string[] {
  const segments = file.split(path.sep);
  const last = segments.lastIndexOf('node_modules');
  return last === -1 ? [] : [segments.slice(0, last + 1).join(path.sep)];
}

/**
 * An `extends` entry as a file: a path (starting `.` or `/`) relative to the extending file, which
 * must stay inside the root (or the package it is written in); else a package, resolved from the
 * extending file's directory as Node.js resolves a require, from a node_modules directory and
 * through no link, whose entry (main, or the `exports` entry named) is a .json, .jsonc or .yaml
 * config, or a module exporting one (see readModule for when that is run).
 */
function resolveExtends(
  spec: string,
  from: string,
  text: string | undefined,
  raw: RawConfig,
  index: number,
  scope: Scope,
): string {
  const where = at(from, text, ['extends', ...(typeof raw.extends === 'string' ? [] : [index])]);
  const named = `config ${display(from)}: extends ${quoted(spec)}`;
  if (spec.startsWith('.') || path.isAbsolute(spec)) {
    const target = path.resolve(path.dirname(from), spec);
    if (![...scope.areas, ...packageArea(from)].some((area) => staysIn(area, target)))
      throw new ConfigError(
        `${named} leads outside the corpus root${where}; a config extends files inside it, or an installed package`,
      );
    if (!isPresent(target)) throw new ConfigError(`${named}: ${display(target)} does not exist${where}`);
    return target;
  }
  let target: string;
  try {
    target = createRequire(from).resolve(spec);
  } catch {
    throw new ConfigError(
      `${named}: no installed package exports a config by that name${where}; install it, or write a relative path (${quoted(`./${spec}`)})`,
    );
  }
  if (!target.split(path.sep).includes('node_modules') || realOrSelf(target) !== target)
    throw new ConfigError(
      `${named} resolves to ${display(target)}, which is not a file of a package in node_modules reached through no link${where}`,
    );
  if (!/\.(jsonc?|ya?ml)$/i.test(target) && !MODULE.test(target))
    throw new ConfigError(
      `${named} resolves to ${display(target)}, which is not a .json, .jsonc, .yaml or JavaScript config${where}`,
    );
  return target;
}

/** Bases first: each later layer's keys over the earlier ones'; `rules` and `layout.schemaIds` merge key by key; `overrides` add up. */
function mergeLayers(layers: readonly RawConfig[]): RawConfig {
  const merged: RawConfig = {};
  for (const layer of layers) {
    const { extends: _extends, rules, overrides, layout, ...rest } = layer;
    Object.assign(merged, rest);
    if (rules) merged.rules = { ...merged.rules, ...rules };
    if (overrides) merged.overrides = [...(merged.overrides ?? []), ...overrides];
    if (layout) {
      merged.layout = { ...merged.layout, ...layout };
      if (layout.schemaIds && layers.indexOf(layer) > 0)
        merged.layout.schemaIds = { ...merged.layout.schemaIds, ...layout.schemaIds };
    }
  }
  return merged;
}

const BUILT_IN_PREFIX = 'openwop-spec:';

/**
 * The configs every repository can extend by name. `recommended` is every rule at the severity
 * it is documented with (what no config at all gives, written down so that a config can say it
 * builds on it); `strict` is that with every warning failing the run.
 */
const BUILT_IN_CONFIGS: Readonly<Record<string, RawConfig>> = {
  'openwop-spec:recommended': {},
  'openwop-spec:strict': { maxWarnings: 0 },
};

interface RawConfig {
  extends?: string | string[];
  include?: string[];
  exclude?: string[];
  rules?: Record<string, RuleEntry>;
  overrides?: RawOverride[];
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

interface RawOverride {
  files: string | string[];
  excludedFiles?: string | string[];
  rules?: Record<string, RuleEntry>;
}

function fromValue(raw: RawConfig, source: string, text?: string): Config {
  const defaults = defaultConfig();
  for (const file of raw.required ?? []) {
    if (!isInsideBySpelling(file))
      throw new ConfigError(`config ${display(source)}: required file ${quoted(file)} must be inside the root`);
  }
  const overrideGlobs = (raw.overrides ?? []).flatMap((entry) => [entry.files, entry.excludedFiles ?? []].flat());
  const globs = [
    ...[...(raw.include ?? []), ...(raw.exclude ?? [])].map((glob) => ['include/exclude', glob] as const),
    ...overrideGlobs.map((glob) => ['overrides', glob] as const),
  ];
  for (const [key, glob] of globs) {
    // Judged after brace expansion: `{..,docs}/**` hides a `..`, `{/etc,spec}/**` an absolute path.
    const escape = globEscape(glob);
    if (escape !== undefined)
      throw new ConfigError(
        `config ${display(source)}: ${key} glob ${quoted(glob)} must stay inside the root (it stands for ${quoted(escape)})`,
      );
  }
  const schemaIds = raw.layout?.schemaIds
    ? Object.entries(raw.layout.schemaIds).sort((a, b) => b[0].length - a[0].length || (a[0] < b[0] ? -1 : 1))
    : defaults.layout.schemaIds;
  const stamp = raw.layout?.stamp ?? defaults.layout.stamp;
  if (!isInsideBySpelling(stamp))
    throw new ConfigError(`config ${display(source)}: layout.stamp ${quoted(stamp)} must stay inside the root`);
  for (const key of ['suppressions', 'baselineFindings'] as const) {
    const file = raw[key];
    if (file !== undefined && !isInsideBySpelling(file))
      throw new ConfigError(`config ${display(source)}: ${key} ${quoted(file)} must stay inside the root`);
  }
  const policy: Policy = {};
  if (raw.maxWarnings !== undefined) policy.maxWarnings = raw.maxWarnings;
  if (raw.failSeverity !== undefined) policy.failSeverity = raw.failSeverity;
  if (raw.quiet !== undefined) policy.quiet = raw.quiet;
  if (raw.suppressions !== undefined) policy.suppressions = raw.suppressions;
  if (raw.baselineFindings !== undefined) policy.baselineFindings = raw.baselineFindings;
  const overrides = (raw.overrides ?? []).map((entry) => ({
    files: typeof entry.files === 'string' ? [entry.files] : entry.files,
    excludedFiles:
      entry.excludedFiles === undefined
        ? []
        : typeof entry.excludedFiles === 'string'
          ? [entry.excludedFiles]
          : entry.excludedFiles,
    rules: entry.rules ?? {},
  }));
  return {
    source,
    include: raw.include ?? defaults.include,
    exclude: raw.exclude ?? [],
    rules: raw.rules ?? {},
    overrides,
    layout: { schemaIds, stamp },
    policy,
    required: raw.required ?? defaults.required,
    ...(raw.required && text !== undefined ? { requiredAt: entryPositions(text, source, raw.required) } : {}),
    allowRemoteRefs: raw.allowRemoteRefs ?? false,
    ...(raw.diff ? { diff: raw.diff } : {}),
  };
}

/** Where each `required` entry is written in the config that lists it. */
function entryPositions(text: string, file: string, entries: readonly string[]): Record<string, TextPosition> {
  const parsed = parseConfigText(text, file);
  const positions: Record<string, TextPosition> = {};
  entries.forEach((entry, index) => {
    const where = parsed.at(['required', index]);
    if (where) positions[entry] ??= where;
  });
  return positions;
}

const CONFIG_ID = 'urn:openwop-spec:config';
let configStore: ValidatorStore | undefined;

/**
 * The config schema's validator: precompiled by `npm run build` into the tool's own output, so
 * that reading a config costs no ajv compile; compiled here only when that file is missing or stale.
 * `emit` (the build) writes the compiled code there instead.
 * @public build/precompile-validators.mjs calls it from dist/.
 */
export function configValidator(emit = false): ValidateFunction {
  configStore ??= new ValidatorStore(
    undefined,
    'config',
    `${AJV_VERSION}; ${JSON.stringify(CONFIG_AJV_OPTIONS)}; ${JSON.stringify(CONFIG_SCHEMA)}`,
    () => {
      const ajv = new Ajv2020({ ...CONFIG_AJV_OPTIONS, code: { source: true } });
      const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (
        ajv: Ajv2020,
      ) => Ajv2020;
      addFormats(ajv);
      ajv.addSchema(CONFIG_SCHEMA, CONFIG_ID);
      return ajv;
    },
    { prebuilt: PREBUILT_VALIDATORS, emit },
  );
  return configStore.validator(CONFIG_ID);
}

const CONFIG_AJV_OPTIONS = { allErrors: false, strict: true, strictTuples: false } as const;

/** The first problem, as `key: what is wrong`, the key in the dotted form people write. */
function describe(errors: readonly ErrorObject[], parsed?: ConfigText): string {
  // oneOf failures report every branch; the most specific (deepest) error names the real key.
  const error = [...errors].sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!error) return ': invalid';
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  let key =
    segments.length > 0
      ? segments.map((s, i) => (/^[A-Za-z_$][\w$]*$/.test(s) ? (i === 0 ? s : `.${s}`) : `["${s}"]`)).join('')
      : '(top level)';
  let what = error.message ?? 'is invalid';
  /** The key at fault when it is one of the object's own (unknown, or not a rule id). */
  let named: string | undefined;
  if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty: string }).additionalProperty);
    named = extra;
    key = segments.length > 0 ? `${key}.${extra}` : extra;
    what = 'is not a known key';
  } else if (error.keyword === 'propertyNames' || error.propertyName !== undefined) {
    const name = error.propertyName ?? String((error.params as { propertyName?: string }).propertyName);
    named = name;
    key = `${key}["${name}"]`;
    what = 'is not a rule id or family/*';
  } else if (error.keyword === 'enum') {
    what = `must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  }
  // Where the offending value, or the key that should not be there, is written.
  const where = named === undefined ? parsed?.at(segments) : parsed?.at([...segments, named], 'key');
  return `${where ? `:${where.line}:${where.column}` : ''}: ${key} ${what}`;
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
