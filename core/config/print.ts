/**
 * What the config makes of one file, as `check --print-config FILE` prints it: the settings that
 * come from the top level, the overrides that match the file and the config's other keys, in the
 * shape a config is written in, so that it can be pasted back.
 */
import { overrideMatches, ruleSettingsFor, type ConfigurableRule, type RuleSetting } from './rules.js';
import type { Config } from './load.js';

export function effectiveConfig(
  config: Config,
  rules: readonly ConfigurableRule[],
  base: ReadonlyMap<string, RuleSetting>,
  file: string,
): Record<string, unknown> {
  const settings = ruleSettingsFor(config, rules, base, file);
  const ruleEntries: Record<string, unknown> = {};
  for (const rule of [...rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
    const setting = settings.get(rule.id);
    if (!setting) continue;
    const level = !setting.enabled ? 'off' : setting.severity === 'error' ? 'error' : 'warn';
    ruleEntries[rule.id] =
      setting.enabled && Object.keys(setting.options).length > 0 ? [level, setting.options] : level;
  }
  return {
    file,
    config: config.source ?? null,
    overrides: config.overrides.flatMap((override, index) => (overrideMatches(override, file) ? [index] : [])),
    include: config.include,
    exclude: config.exclude,
    layout: { schemaIds: Object.fromEntries(config.layout.schemaIds), stamp: config.layout.stamp },
    required: config.required,
    allowRemoteRefs: config.allowRemoteRefs,
    ...config.policy,
    rules: ruleEntries,
  };
}
