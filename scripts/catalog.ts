/**
 * Every rule and every generator the verbs know, with what is said about them: the gates, the two
 * generation rules, the suppression rules, and the rules reference generated from all of them.
 */
import { CHECKS } from '../checks/index.js';
import type { OptionSpec } from '../core/config/index.js';
import type { RuleMeta, Severity } from '../core/output/index.js';
import { DRIFT_RULE, REGION_RULE, SUPPRESSION_RULES, type Generator } from '../core/run/index.js';
import { GENERATORS } from '../generators/index.js';
import { RULES_DOC, ruleAnchor, rulesReference } from '../generators/index.js';

export const REPOSITORY_URL = 'https://github.com/openwop/spec';

export interface CatalogRule extends RuleMeta {
  options?: Readonly<Record<string, OptionSpec>>;
}

const GENERATION_RULES: CatalogRule[] = [
  {
    ...DRIFT_RULE,
    fixable: true,
    description:
      'Generated text (whole files, and regions between `<!-- generated: … -->` markers) is what its generator makes of its sources. The finding names the generator and its sources; the fix is never an edit of the generated text: change the source if needed, then run `openwop-spec generate` (or `check --fix`, which regenerates too). A file another tool generated, or one under any banner of the "generated … do not edit" family, is compared fact by fact (each code\'s status and retriability, each row, each entry): a layout of its own (retriable codes as a list, another key or row order, cells without backticks) is no finding. A header each operation describes in its own words (`ETag`, `Cache-Control`) gets one neutral row in headers.md, as upstream\'s generator writes it (scripts/derive-v2-api.py), and keeps the neutral Meaning the document gives it.',
  },
  {
    ...REGION_RULE,
    fixable: false,
    description: 'Region markers open and close in pairs on lines of their own, and each region id has a generator that fills it. A region no generator owns is reported as a warning, except while a generator is failing (then it cannot be told which regions it would own).',
  },
];

/** The rules `check` can run, in the order `rules` lists them. */
export const ALL_RULES: readonly CatalogRule[] = ([
  ...GENERATION_RULES,
  ...CHECKS.map(({ id, summary, severity, options, description, fixable }) => ({ id, summary, severity, ...(description ? { description } : {}), fixable: fixable === true, ...(options ? { options } : {}) })),
  ...SUPPRESSION_RULES.map((rule) => ({ ...rule, severity: rule.severity as Severity, fixable: false })),
] as CatalogRule[]).map((rule) => ({ ...rule, fixable: rule.fixable === true, helpUri: ruleHelpUri(rule.id) }));

export function ruleHelpUri(id: string): string {
  return `${REPOSITORY_URL}/blob/main/${RULES_DOC}#${ruleAnchor(id)}`;
}

/** Every generator, the rules reference last among the ordinary ones (the stamp still runs after all). */
export const ALL_GENERATORS: readonly Generator[] = [...GENERATORS, rulesReference(ALL_RULES)];
