/**
 * Every rule and every generator the verbs know, with what is said about them: the gates, the two
 * generation rules, the suppression rules, and the rules reference generated from all of them.
 */
import { CHECKS } from '../checks/index.js';
import { configName, type Config, type OptionSpec } from '../core/config/index.js';
import { houseRules } from '../core/house-rules/index.js';
import type { RuleMeta, Severity } from '../core/output/index.js';
import { registryMentionDependents } from '../core/registries/index.js';
import {
  DRIFT_RULE,
  FIX_RULE,
  generatorRule,
  REGION_RULE,
  SUPPRESSION_RULES,
  type Catalog,
  type Generator,
} from '../core/run/index.js';
import { GENERATORS, RULES_DOC, ruleAnchor, rulesReference } from '../generators/index.js';

const REPOSITORY_URL = 'https://github.com/openwop/spec';

export interface CatalogRule extends RuleMeta {
  options?: Readonly<Record<string, OptionSpec>>;
  /** For a house rule: the config that defines it. */
  definedIn?: string;
}

const GENERATION_RULES: CatalogRule[] = [
  {
    ...DRIFT_RULE,
    fixable: true,
    description:
      "Generated text (whole files, and regions between `<!-- generated: … -->` markers) is what its generator makes of its sources. The finding names the generator and its sources; the fix is never an edit of the generated text: change the source if needed, then run `openwop-spec generate` (or `check --fix`, which regenerates too). A file another tool generated, or one under any banner of the \"generated … do not edit\" family, is compared fact by fact (each code's status and retriability, each row, each entry): a layout of its own (retriable codes as a list, another key or row order, cells without backticks) is no finding. A header each operation describes in its own words (`ETag`, `Cache-Control`) gets one neutral row in headers.md, as upstream's generator writes it (scripts/derive-v2-api.py), and keeps the neutral Meaning the document gives it. A Meaning cut at its description's first line, or an empty Meaning, is drift whoever generated it: both shipped in a published upstream release, and the table exists to prevent them. A row whose first cell differs only in case (a header name, case-insensitive in HTTP) is one changed row, not a missing one and an extra one.",
  },
  {
    ...REGION_RULE,
    fixable: false,
    description:
      'Region markers open and close in pairs on lines of their own, and each region id has a generator that fills it. A region no generator owns is reported as a warning, except while a generator is failing (then it cannot be told which regions it would own).',
  },
  {
    ...FIX_RULE,
    fixable: false,
    description: `\`check --fix\` applies the fixes findings carry and regenerates every stale output, then runs again over the result, until a pass changes nothing. When that has not happened after a bounded number of passes (some fixes or generators keep changing the text), the corpus is written as the last pass left it and this finding names the files still changing.`,
  },
];

/**
 * A generator's own findings (a registry it cannot read, a header without a description) carry
 * the rule \`generate/<generator>\`: listed, documented and configurable like any other.
 */
function generatorRules(generators: readonly Generator[]): CatalogRule[] {
  return generators.map((g) => ({
    id: generatorRule(g),
    summary: `The ${g.id} generator can read its inputs and render every entry of them`,
    severity: 'error' as const,
    fixable: false,
    description: `What stops the ${g.id} generator (an input it cannot read, an entry it cannot render) is reported under this rule; while it is in error, \`generate\` and \`check --fix\` write nothing generated.`,
  }));
}

/** The rules `check` can run, in the order `rules` lists them. */
export const ALL_RULES: readonly CatalogRule[] = (
  [
    ...GENERATION_RULES,
    ...CHECKS.map(({ id, summary, severity, options, description, fixable }) => ({
      id,
      summary,
      severity,
      ...(description ? { description } : {}),
      fixable: fixable === true,
      ...(options ? { options } : {}),
    })),
    ...SUPPRESSION_RULES.map((rule) => ({ ...rule, severity: rule.severity as Severity, fixable: false })),
    // The rules reference generator is made from this list, so its rule is named from a copy made from none.
    ...generatorRules([...GENERATORS, rulesReference([])]),
  ] as CatalogRule[]
).map((rule) => ({ ...rule, fixable: rule.fixable === true, helpUri: ruleHelpUri(rule.id) }));

export function ruleHelpUri(id: string): string {
  return `${REPOSITORY_URL}/blob/main/${RULES_DOC}#${ruleAnchor(id)}`;
}

/** Every generator, the rules reference last among the ordinary ones (the stamp still runs after all). */
export const ALL_GENERATORS: readonly Generator[] = [...GENERATORS, rulesReference(ALL_RULES)];

/** What the run runs, for every verb (core/run's pipeline takes it as an argument: it knows no rule). */
export const CATALOG: Catalog = {
  checks: CHECKS,
  generators: ALL_GENERATORS,
  rules: ALL_RULES,
  mentionDependents: registryMentionDependents,
};

/** The catalog of one config: the built-in one with the config's house rules, as rules to list and set and as gates to run. */
export interface ConfiguredCatalog {
  catalog: Omit<Catalog, 'rules'> & { rules: readonly CatalogRule[] };
  /** The config with its house rule definitions taken out of `rules` (see core/house-rules). */
  config: Config;
}

export function catalogFor(config: Config): ConfiguredCatalog {
  const house = houseRules(config, new Set(ALL_RULES.map((rule) => rule.id)));
  if (house.checks.length === 0) return { catalog: CATALOG as ConfiguredCatalog['catalog'], config };
  const defined = house.checks.map(({ id, summary, severity, description, fixable }): CatalogRule => ({
    id,
    summary,
    severity,
    ...(description ? { description } : {}),
    fixable: fixable === true,
    definedIn: config.source ? configName(config) : 'the config',
    ...houseRuleHelp(config, id),
  }));
  return {
    catalog: { ...CATALOG, checks: [...CATALOG.checks, ...house.checks], rules: [...ALL_RULES, ...defined] },
    config: house.config,
  };
}

/** A house rule's page is the one its definition names (`url`); else it has none but its definition. */
function houseRuleHelp(config: Config, id: string): { helpUri?: string } {
  const url = (config.rules[id] as { url?: unknown } | undefined)?.url;
  return typeof url === 'string' ? { helpUri: url } : {};
}
