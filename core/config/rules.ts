/**
 * What the config's `rules` make of each rule: whether it runs, at which severity, with which
 * options. A rule's own id wins over its `family/*`, whatever their order in the file.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { AJV_VERSION, PREBUILT_VALIDATORS, ValidatorStore } from '../cache/index.js';
import type { Severity } from '../output/index.js';
import { ConfigError, configName, type Config, type ConfiguredSeverity, type RuleEntry } from './load.js';

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
  const entries = Object.entries(config.rules);
  for (const [pattern, entry] of entries) {
    // A definition names a rule of its own: core/house-rules checks it, and adds it to `rules`.
    if (!Array.isArray(entry) && typeof entry === 'object') continue;
    const matches = rules.some((rule) => matchesPattern(rule.id, pattern));
    if (!matches) throw new ConfigError(`config${where(config)}: rules["${pattern}"] names no rule (\`openwop-spec rules\` lists them)`);
  }
  const settings = new Map<string, RuleSetting>();
  for (const rule of rules) {
    const family = entries.find(([pattern]) => pattern.endsWith('/*') && matchesPattern(rule.id, pattern));
    const own = entries.find(([pattern]) => pattern === rule.id);
    const chosen = own ?? family;
    const defaults = Object.fromEntries(Object.entries(rule.options ?? {}).map(([name, spec]) => [name, spec.default]));
    if (!chosen) {
      settings.set(rule.id, { enabled: true, severity: rule.severity, options: defaults, configured: false });
      continue;
    }
    const [pattern, entry] = chosen;
    const [level, given] = normalise(entry);
    // Options belong to one rule: given through `family/*` they would be checked against every member.
    if (given && pattern.endsWith('/*')) throw new ConfigError(`config${where(config)}: rules["${pattern}"] sets options; options are set per rule id`);
    if (given) checkOptions(config, rule, given, rules);
    settings.set(rule.id, {
      enabled: level !== 'off',
      severity: level === 'error' ? 'error' : level === 'warn' ? 'warning' : rule.severity,
      options: { ...defaults, ...(given ?? {}) },
      configured: level !== 'off',
    });
  }
  return settings;
}

export function matchesPattern(id: string, pattern: string): boolean {
  return pattern.endsWith('/*') ? id.startsWith(pattern.slice(0, -1)) : id === pattern;
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

const optionRef = (rule: string, name: string): string => `urn:openwop-spec:option:${encodeURIComponent(rule)}:${encodeURIComponent(name)}`;

/**
 * A validator for each option of each rule, in one store keyed by every option schema: `npm run
 * build` precompiles them into the tool's own output (`emit`), so that a config setting options
 * costs no ajv compile; they are compiled here only when that file is missing or stale.
 */
export function optionValidator(rules: readonly ConfigurableRule[], rule: string, name: string, emit = false): ValidateFunction {
  const schemas = rules.flatMap((candidate) => Object.entries(candidate.options ?? {}).map(([option, spec]) => {
    const { description: _d, default: _default, ...schema } = spec;
    return [optionRef(candidate.id, option), schema] as const;
  })).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const key = `${AJV_VERSION}; ${JSON.stringify(OPTION_AJV_OPTIONS)}; ${JSON.stringify(schemas)}`;
  let store = optionStores.get(key);
  if (!store) {
    store = new ValidatorStore(undefined, 'rule-options', key, () => {
      const ajv = new Ajv2020({ ...OPTION_AJV_OPTIONS, code: { source: true } });
      for (const [ref, schema] of schemas) ajv.addSchema(schema, ref);
      return ajv;
    }, { prebuilt: PREBUILT_VALIDATORS, emit });
    optionStores.set(key, store);
  }
  return store.validator(optionRef(rule, name));
}

function checkOptions(config: Config, rule: ConfigurableRule, given: Record<string, unknown>, rules: readonly ConfigurableRule[]): void {
  const specs = rule.options ?? {};
  for (const name of Object.keys(given)) {
    if (!Object.hasOwn(specs, name)) {
      const known = Object.keys(specs);
      throw new ConfigError(`config${where(config)}: rules["${rule.id}"] has no option "${name}"${known.length > 0 ? ` (its options: ${known.join(', ')})` : ' (it takes none)'}`);
    }
    const validate = optionValidator(rules, rule.id, name);
    if (!validate(given[name])) throw new ConfigError(`config${where(config)}: rules["${rule.id}"] option ${name} ${validate.errors?.[0]?.message ?? 'is invalid'}`);
  }
}

function where(config: Config): string {
  return config.source ? ` ${configName(config)}` : '';
}
