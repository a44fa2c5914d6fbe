/**
 * Rule ids that were split into rules of one concern each. An old id keeps working wherever a rule
 * id is accepted (the config's `rules` and `overrides`, suppressions, the findings baseline,
 * `--rule`): it stands for the rules that replaced it, as a family does. Splitting a rule again
 * only adds a line here: an alias may name another alias, and stands for every rule under it.
 */
export const RULE_ALIASES: Readonly<Record<string, readonly string[]>> = {
  'api/no-v1': [
    'api/message-names',
    'api/unversioned-paths',
    'api/channels-served',
    'api/shared-schemes',
    'api/v1-operation-mentions',
  ],
  'docs/readability': ['docs/rfc-numbers', 'docs/prose-length', 'docs/v1-mentions'],
  'declaration/registry': [
    'declaration/schema',
    'declaration/orgs',
    'declaration/vendor-orgs',
    'declaration/entries',
    'declaration/sections',
    'declaration/normative-homes',
    'declaration/counts',
  ],
};

export function isRuleAlias(id: string): boolean {
  return Object.hasOwn(RULE_ALIASES, id);
}

/** The rules an alias stands for, aliases among them expanded; empty for an id that is no alias. */
export function aliasMembers(alias: string): string[] {
  if (!isRuleAlias(alias)) return [];
  return (RULE_ALIASES[alias] as readonly string[]).flatMap((member) =>
    isRuleAlias(member) ? aliasMembers(member) : [member],
  );
}

/** The alias that lists `id` directly, if any. */
function parentAlias(id: string): string | undefined {
  return Object.keys(RULE_ALIASES).find((alias) => RULE_ALIASES[alias]?.includes(id));
}

/**
 * The ids a setting of `id` may be written under, the most specific first: the id itself, then
 * each alias that stands for it, nearest first (a setting of a new id wins over its old one's).
 */
export function ruleLineage(id: string): string[] {
  const lineage = [id];
  for (let parent = parentAlias(id); parent !== undefined && !lineage.includes(parent); parent = parentAlias(parent))
    lineage.push(parent);
  return lineage;
}

/**
 * The id a rule's findings are fingerprinted under: the oldest id in its lineage. A rule split out
 * of another keeps the fingerprints its findings had before the split, so that a suppressions-file
 * entry or a baseline entry written then still matches them.
 */
export function fingerprintRuleId(id: string): string {
  return ruleLineage(id).at(-1) as string;
}

/** Whether `pattern` (an id, an alias or `family/*`) covers the rule `id`. */
export function matchesPattern(id: string, pattern: string): boolean {
  if (pattern.endsWith('/*')) return id.startsWith(pattern.slice(0, -1));
  return id === pattern || (isRuleAlias(pattern) && ruleLineage(id).includes(pattern));
}

/** The aliases with what each now stands for, for `rules` and the rules reference. */
export function ruleAliases(): Array<{ id: string; replacedBy: readonly string[] }> {
  return Object.entries(RULE_ALIASES)
    .map(([id, replacedBy]) => ({ id, replacedBy }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
