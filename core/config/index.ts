/** The config file: finding it, validating it against its schema, and what it makes of the corpus layout and each rule. */
export { aliasMembers, fingerprintRuleId, isRuleAlias, matchesPattern, ruleAliases } from './aliases.js';
export { detectLayout, starterConfig } from './init.js';
export {
  type Config,
  ConfigError,
  DEFAULT_SUPPRESSIONS,
  type DiffImpact,
  type DiffSettings,
  type Layout,
  type RuleEntry,
  configFileIn,
  configName,
  configValidator,
  defaultConfig,
  discoverConfig,
  loadConfig,
  readConfigText,
} from './load.js';
export { effectiveConfig } from './print.js';
export {
  type ConfigurableRule,
  type OptionSpec,
  type RuleSetting,
  optionValidator,
  ruleSettings,
  ruleSettingsFor,
} from './rules.js';
export { CONFIG_FILES, CONFIG_SCHEMA, CONFIG_SCHEMA_FILE } from './schema.js';
