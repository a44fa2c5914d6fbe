/**
 * The config's `overrides` applied to a run's findings: each finding takes the severity the
 * settings for its file give its rule, and is dropped where they turn the rule off. A gate runs
 * over the whole corpus with one set of options, so where an override gives a rule other options
 * (or turns on a rule the top level turns off), the gate runs again with those, once for each
 * distinct set, and each file keeps the findings of the run whose options are its own.
 */
import { matchesPattern, ruleSettingsFor, type Config, type ConfigurableRule, type RuleSetting } from '../config/index.js';
import type { Corpus } from '../model/index.js';
import type { Diagnostic } from '../output/index.js';

/** Whether some override turns on a rule the top-level settings leave off (then it must run). */
export function enabledByOverride(config: Config, base: ReadonlyMap<string, RuleSetting>, rule: string): boolean {
  if (base.get(rule)?.enabled !== false) return false;
  return config.overrides.some((override) =>
    Object.entries(override.rules).some(([pattern, entry]) => matchesPattern(rule, pattern) && (typeof entry === 'string' ? entry : entry[0]) !== 'off'),
  );
}

/**
 * `diagnostics`, found with the top-level settings `base`, as the overrides make them. `rerun`
 * runs one gate with other settings (the engine's runChecks over the same corpus); `gates` are
 * the gates of this run, the rules that can be rerun.
 */
export function applyOverrides(
  corpus: Corpus,
  diagnostics: readonly Diagnostic[],
  config: Config,
  rules: readonly ConfigurableRule[],
  base: ReadonlyMap<string, RuleSetting>,
  gates: ReadonlySet<string>,
  rerun: (rule: string, settings: ReadonlyMap<string, RuleSetting>) => Diagnostic[],
): Diagnostic[] {
  if (config.overrides.length === 0) return [...diagnostics];
  const perFile = new Map<string, ReadonlyMap<string, RuleSetting>>();
  const settingsOf = (file: string): ReadonlyMap<string, RuleSetting> => {
    let settings = perFile.get(file);
    if (!settings) perFile.set(file, (settings = ruleSettingsFor(config, rules, base, file)));
    return settings;
  };
  const runKey = (setting: RuleSetting | undefined): string | undefined => (setting?.enabled ? JSON.stringify(setting.options) : undefined);

  // The findings of each run, by rule and the options it ran with.
  const runs = new Map<string, Map<string | undefined, Diagnostic[]>>();
  for (const d of diagnostics) {
    const byKey = runs.get(d.rule) ?? new Map<string | undefined, Diagnostic[]>();
    runs.set(d.rule, byKey);
    const key = gates.has(d.rule) ? runKey(base.get(d.rule)) : undefined;
    byKey.set(key, [...(byKey.get(key) ?? []), d]);
  }
  for (const rule of gates) {
    const baseKey = runKey(base.get(rule));
    const variants = new Map<string, RuleSetting>();
    for (const file of corpus.files.keys()) {
      const setting = settingsOf(file).get(rule);
      const key = runKey(setting);
      if (setting && key !== undefined && key !== baseKey) variants.set(key, setting);
    }
    for (const [key, setting] of variants) {
      const byKey = runs.get(rule) ?? new Map<string | undefined, Diagnostic[]>();
      runs.set(rule, byKey);
      byKey.set(key, rerun(rule, new Map([...base, [rule, setting]])));
    }
  }

  const out: Diagnostic[] = [];
  for (const [rule, byKey] of runs) {
    for (const [key, found] of byKey) {
      for (const d of found) {
        const setting = settingsOf(d.file).get(rule);
        if (!setting) {
          out.push(d);
          continue;
        }
        if (!setting.enabled) continue;
        // A gate's finding belongs to the run made with its file's options; the others' runs saw other options.
        if (gates.has(rule) && key !== runKey(setting)) continue;
        out.push(setting.configured && d.severity !== setting.severity ? { ...d, severity: setting.severity } : d);
      }
    }
  }
  return out;
}
