/**
 * What the config's `rules` make of each rule: whether it runs, at which severity, with which
 * options. A rule's own id wins over an old id it was split from (core/config/aliases.ts), which
 * wins over its `family/*`, whatever their order in the file.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from '../cache/index.js';
import type { Severity } from '../output/index.js';
import picomatch from 'picomatch';
import {
  ConfigError,
  configName,
  type Config,
  type ConfiguredSeverity,
  type Override,
  type RuleEntry,
} from './load.js';
import { isRuleAlias, matchesPattern, ruleLineage } from './aliases.js';

/** One option of a rule: a JSON Schema for its value, with a default and a line of description. */
export type OptionSpec = Record<string, unknown> & { description: string; default: unknown };

/** What a rule declares that its configuration is checked against. */
export interface ConfigurableRule {
  id: string;
  severity: Severity;
  options?: Readonly<Record<string, OptionSpec>>;
}

export interface RuleSetting {
  enabled: boolean;
  severity: Severity;
  /** The defaults with the configured values over them. */
  options: Readonly<Record<string, unknown>>;
  /** Whether the severity comes from the config (then it applies to every finding of the rule). */
  configured: boolean;
}

export function ruleSettings(config: Config, rules: readonly ConfigurableRule[]): Map<string, RuleSetting> {
  const defaults = new Map(
    rules.map((rule) => [
      rule.id,
      {
        enabled: true,
        severity: rule.severity,
        options: optionDefaults(rule),
        configured: false,
      } satisfies RuleSetting,
    ]),
  );
  const settings = applyEntries(config, defaults, config.rules, rules, 'rules');
  // Each override checked now (its rule ids and options), not when a file it matches comes up mid-run.
  config.overrides.forEach((override, index) =>
    applyEntries(config, settings, override.rules, rules, `overrides[${index}].rules`),
  );
  return settings;
}

/**
 * The settings for one corpus file (root-relative): the top-level ones with each override whose
 * `files` match it (and `excludedFiles` do not) applied over them in order, a later one winning.
 * `base` is ruleSettings(config, rules).
 */
export function ruleSettingsFor(
  config: Config,
  rules: readonly ConfigurableRule[],
  base: ReadonlyMap<string, RuleSetting>,
  file: string,
): ReadonlyMap<string, RuleSetting> {
  let settings: ReadonlyMap<string, RuleSetting> = base;
  config.overrides.forEach((override, index) => {
    if (overrideMatches(override, file))
      settings = applyEntries(config, settings, override.rules, rules, `overrides[${index}].rules`);
  });
  return settings;
}

const matchers = new WeakMap<Override, (file: string) => boolean>();

export function overrideMatches(override: Override, file: string): boolean {
  let matches = matchers.get(override);
  if (!matches) {
    const included = picomatch([...override.files], { dot: true });
    const excluded =
      override.excludedFiles.length > 0 ? picomatch([...override.excludedFiles], { dot: true }) : () => false;
    matches = (candidate: string) => included(candidate) && !excluded(candidate);
    matchers.set(override, matches);
  }
  return matches(file);
}

function optionDefaults(rule: ConfigurableRule): Record<string, unknown> {
  return Object.fromEntries(Object.entries(rule.options ?? {}).map(([name, spec]) => [name, spec.default]));
}

function checkPatterns(
  config: Config,
  entries: Readonly<Record<string, RuleEntry>>,
  rules: readonly ConfigurableRule[],
  key: string,
): void {
  for (const [pattern, entry] of Object.entries(entries)) {
    // A definition names a rule of its own: core/house-rules checks it, and adds it to `rules`.
    if (!Array.isArray(entry) && typeof entry === 'object') continue;
    if (!rules.some((rule) => matchesPattern(rule.id, pattern)))
      throw new ConfigError(
        `config${where(config)}: ${key}["${pattern}"] names no rule (\`openwop-spec rules\` lists them)`,
      );
  }
}

/**
 * One layer of rule entries over the settings before it: a rule's own id wins over an alias that
 * stands for it, which wins over its `family/*`, whatever their order; a severity alone keeps the
 * options set before it, as in ESLint. Options given through an alias go to each rule it stands
 * for that declares them.
 */
function applyEntries(
  config: Config,
  before: ReadonlyMap<string, RuleSetting>,
  given: Readonly<Record<string, RuleEntry>>,
  rules: readonly ConfigurableRule[],
  key: string,
): Map<string, RuleSetting> {
  const entries = Object.entries(given);
  checkPatterns(config, given, rules, key);
  checkAliasOptions(config, given, rules, key);
  const settings = new Map(before);
  for (const rule of rules) {
    const family = entries.find(([pattern]) => pattern.endsWith('/*') && matchesPattern(rule.id, pattern));
    const named = ruleLineage(rule.id).flatMap((id) => entries.filter(([pattern]) => pattern === id));
    const chosen = named[0] ?? family;
    const previous = before.get(rule.id);
    if (!chosen || !previous) continue;
    const [pattern, entry] = chosen;
    const [level, given] = normalise(entry);
    // Options belong to one rule: given through `family/*` they would be checked against every member.
    if (given && pattern.endsWith('/*'))
      throw new ConfigError(`config${where(config)}: ${key}["${pattern}"] sets options; options are set per rule id`);
    const options = given && pattern !== rule.id ? ownOptions(rule, given) : given;
    if (options) checkOptions(config, rule, options, rules);
    settings.set(rule.id, {
      enabled: level !== 'off',
      severity: level === 'error' ? 'error' : level === 'warn' ? 'warning' : rule.severity,
      options: options ? { ...optionDefaults(rule), ...options } : previous.options,
      configured: level !== 'off',
    });
  }
  return settings;
}

/** Of the options set through an alias, those `rule` declares. */
function ownOptions(rule: ConfigurableRule, given: Record<string, unknown>): Record<string, unknown> | undefined {
  const own = Object.entries(given).filter(([name]) => Object.hasOwn(rule.options ?? {}, name));
  // None of them its own: the entry sets its severity alone, which keeps the options set before it.
  return own.length > 0 ? Object.fromEntries(own) : undefined;
}

/** An option set through an alias must be one some rule it stands for declares. */
function checkAliasOptions(
  config: Config,
  given: Readonly<Record<string, RuleEntry>>,
  rules: readonly ConfigurableRule[],
  key: string,
): void {
  for (const [pattern, entry] of Object.entries(given)) {
    if (!isRuleAlias(pattern) || !Array.isArray(entry) || entry[1] === undefined) continue;
    const members = rules.filter((rule) => matchesPattern(rule.id, pattern));
    const known = [...new Set(members.flatMap((rule) => Object.keys(rule.options ?? {})))];
    for (const name of Object.keys(entry[1])) {
      if (!known.includes(name))
        throw new ConfigError(
          `config${where(config)}: ${key}["${pattern}"] has no option "${name}"${known.length > 0 ? ` (its rules' options: ${known.join(', ')})` : ' (its rules take none)'}`,
        );
    }
  }
}

function isSeverity(value: unknown): value is ConfiguredSeverity {
  return value === 'off' || value === 'warn' || value === 'error';
}

function normalise(entry: RuleEntry): [ConfiguredSeverity, Record<string, unknown> | undefined] {
  if (typeof entry === 'string') return [entry, undefined];
  // A house rule's definition (core/house-rules reads the rest of it) sets its own severity.
  if (!Array.isArray(entry)) return [isSeverity(entry.severity) ? entry.severity : 'warn', undefined];
  return [entry[0], entry[1]];
}

const OPTION_AJV_OPTIONS = { strict: false, allErrors: false } as const;
const optionStores = new Map<string, ValidatorStore>();

const optionRef = (rule: string, name: string): string =>
  `urn:openwop-spec:option:${encodeURIComponent(rule)}:${encodeURIComponent(name)}`;

/**
 * A validator for each option of each rule, in one store keyed by every option schema: `npm run
 * build` precompiles them into the tool's own output (`emit`), so that a config setting options
 * costs no ajv compile; they are compiled here only when that file is missing or stale.
 * @public build/precompile-validators.mjs calls it from dist/.
 */
export function optionValidator(
  rules: readonly ConfigurableRule[],
  rule: string,
  name: string,
  emit = false,
): ValidateFunction {
  const schemas = rules
    .flatMap((candidate) =>
      Object.entries(candidate.options ?? {}).map(([option, spec]) => {
        const { description: _d, default: _default, ...schema } = spec;
        return [optionRef(candidate.id, option), schema] as const;
      }),
    )
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const key = `${AJV_VERSION}; ${JSON.stringify(OPTION_AJV_OPTIONS)}; ${JSON.stringify(schemas)}`;
  let store = optionStores.get(key);
  if (!store) {
    store = new ValidatorStore(
      undefined,
      'rule-options',
      key,
      () => {
        const ajv = new Ajv2020({ ...OPTION_AJV_OPTIONS, code: { source: true } });
        for (const [ref, schema] of schemas) ajv.addSchema(schema, ref);
        return ajv;
      },
      { prebuilt: PREBUILT_VALIDATORS, emit },
    );
    optionStores.set(key, store);
  }
  return store.validator(optionRef(rule, name));
}

function checkOptions(
  config: Config,
  rule: ConfigurableRule,
  given: Record<string, unknown>,
  rules: readonly ConfigurableRule[],
): void {
  const specs = rule.options ?? {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(specs, name)) {
      const known = Object.keys(specs);
      throw new ConfigError(
        `config${where(config)}: rules["${rule.id}"] has no option "${name}"${known.length > 0 ? ` (its options: ${known.join(', ')})` : ' (it takes none)'}`,
      );
    }
    const validate = optionValidator(rules, rule.id, name);
    if (!validate(given[name]))
      throw new ConfigError(
        `config${where(config)}: rules["${rule.id}"] option ${name} ${validate.errors?.[0]?.message ?? 'is invalid'}`,
      );
  }
}

function where(config: Config): string {
  return config.source ? ` ${configName(config)}` : '';
}
