/**
 * The house rules of a config: its `rules` entries that define a rule rather than set one. They
 * are taken out of `rules` (which then holds only settings, as the config reader expects), checked,
 * and turned into gates; a definition's severity stays a setting, so `family/*` and the command
 * line's --rule treat a house rule as they treat a built-in one.
 */
import { ConfigError, configName, isRuleAlias, type Config, type RuleEntry } from '../config/index.js';
import type { Check } from '../run/index.js';
import { houseRuleCheck } from './check.js';
import { HouseRuleError, parseHouseRule } from './definition.js';

export interface HouseRules {
  /** One gate per definition, in the config's order. */
  checks: Check[];
  /** The config with its definitions taken out of `rules` (a definition turned off stays as "off"). */
  config: Config;
}

/** `builtIn`: the ids of the tool's own rules, which a definition may not take. */
export function houseRules(config: Config, builtIn: ReadonlySet<string>): HouseRules {
  const checks: Check[] = [];
  const rules: Record<string, RuleEntry> = {};
  const where = config.source ? `config ${configName(config)}: ` : 'config: ';
  for (const [id, entry] of Object.entries(config.rules)) {
    if (!isDefinition(entry)) {
      rules[id] = entry;
      continue;
    }
    if (id.endsWith('/*'))
      throw new ConfigError(
        `${where}rules["${id}"] defines a rule: give it an id of its own (family/name), not a family`,
      );
    // An old id of a split rule still stands for its rules: a definition under it would be read as a setting of them.
    if (builtIn.has(id) || isRuleAlias(id))
      throw new ConfigError(
        `${where}rules["${id}"] defines a rule with the id of a built-in one: give the house rule an id of its own`,
      );
    try {
      const definition = parseHouseRule(id, entry);
      checks.push(houseRuleCheck(id, definition));
      if (definition.severity === 'off') rules[id] = 'off';
    } catch (error) {
      if (error instanceof HouseRuleError) throw new ConfigError(`${where}${error.message}`);
      throw error;
    }
  }
  return { checks, config: checks.length === 0 ? config : { ...config, rules } };
}

function isDefinition(entry: unknown): entry is Record<string, unknown> {
  return entry !== null && typeof entry === 'object' && !Array.isArray(entry);
}
