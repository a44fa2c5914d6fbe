/**
 * The config's `overrides` in the run. Each file has its own rule settings (the top level with the
 * overrides that match it applied over it, core/config ruleSettingsFor); the severities stage
 * applies a finding's severity, or its `off`, from its file's settings. A gate runs over the whole
 * corpus with one set of options, so where an override gives a rule other options (or turns on a
 * rule the top level turns off), the evaluate stage runs the gate again with those, once for each
 * distinct set, and each file keeps the findings of the run made with its own options.
 */
import {
  matchesPattern,
  ruleSettingsFor,
  type Config,
  type ConfigurableRule,
  type RuleSetting,
} from '../config/index.js';
import type { Corpus } from '../model/index.js';
import type { Diagnostic } from '../output/index.js';

/** Each file's rule settings, or undefined when the config has no overrides (every file has the top level's). */
export type SettingsFor = (file: string) => ReadonlyMap<string, RuleSetting>;

export function overrideSettings(
  config: Config,
  rules: readonly ConfigurableRule[],
  base: ReadonlyMap<string, RuleSetting>,
): SettingsFor | undefined {
  if (config.overrides.length === 0) return undefined;
  const perFile = new Map<string, ReadonlyMap<string, RuleSetting>>();
  return (file) => {
    let settings = perFile.get(file);
    if (!settings) perFile.set(file, (settings = ruleSettingsFor(config, rules, base, file)));
    return settings;
  };
}

/** Whether some override turns on a rule the top-level settings leave off (then it must run). */
export function enabledByOverride(config: Config, base: ReadonlyMap<string, RuleSetting>, rule: string): boolean {
  if (base.get(rule)?.enabled !== false) return false;
  return config.overrides.some((override) =>
    Object.entries(override.rules).some(
      ([pattern, entry]) => matchesPattern(rule, pattern) && (typeof entry === 'string' ? entry : entry[0]) !== 'off',
    ),
  );
}

const runKey = (setting: RuleSetting | undefined): string | undefined =>
  setting?.enabled ? JSON.stringify(setting.options) : undefined;

/**
 * The gates' findings with each file's options: `found` came from one run with the top-level
 * settings `base`; `rerun` runs one gate with other settings (the engine over the same corpus).
 * Severities are left to the severities stage.
 */
export function withFileOptions(
  corpus: Corpus,
  found: readonly Diagnostic[],
  base: ReadonlyMap<string, RuleSetting>,
  settingsFor: SettingsFor,
  gates: ReadonlySet<string>,
  rerun: (rule: string, settings: ReadonlyMap<string, RuleSetting>) => Diagnostic[],
): Diagnostic[] {
  const runs: Array<{ key: string | undefined; findings: readonly Diagnostic[] }> = [
    { key: undefined, findings: found },
  ];
  for (const rule of gates) {
    const baseKey = runKey(base.get(rule));
    const variants = new Map<string, RuleSetting>();
    for (const file of corpus.files.keys()) {
      const setting = settingsFor(file).get(rule);
      const key = runKey(setting);
      if (setting && key !== undefined && key !== baseKey) variants.set(key, setting);
    }
    for (const [key, setting] of variants)
      runs.push({ key, findings: rerun(rule, new Map([...base, [rule, setting]])) });
  }
  return runs.flatMap(({ key, findings }) =>
    findings.filter((d) => {
      if (!gates.has(d.rule)) return true;
      // A gate's finding belongs to the run made with its file's options; the other runs saw other options.
      const own = runKey(settingsFor(d.file).get(d.rule));
      return own === undefined || own === (key ?? runKey(base.get(d.rule)));
    }),
  );
}
