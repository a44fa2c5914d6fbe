/**
 * The rules reference: one section per rule (what it asks, why, its severity, whether `--fix`
 * repairs it, its options), from the rules' own metadata, into the `rules/reference` region of
 * docs/rules.md. `openwop-spec rules` and SARIF `helpUri` link to these sections; being generated,
 * a page cannot describe a rule that changed or is gone.
 */
import GithubSlugger from 'github-slugger';
import { ruleAliases, type OptionSpec } from '../core/config/index.js';
import { regionOutputs, defineGenerator, type Generator } from '../core/run/index.js';
import type { Severity } from '../core/output/index.js';

export const RULES_DOC = 'docs/rules.md';
const RULES_REGION = 'rules/reference';

export interface RuleDoc {
  id: string;
  summary: string;
  description?: string;
  severity: Severity;
  fixable?: boolean;
  options?: Readonly<Record<string, OptionSpec>>;
}

/** The anchor of a rule's section: its heading is the id in backticks, slugged as GitHub does. */
export function ruleAnchor(id: string): string {
  return new GithubSlugger().slug(id);
}

/** The generator over a given list of rules (the list lives above generators: scripts compose it). */
export function rulesReference(rules: readonly RuleDoc[]): Generator {
  return defineGenerator({
    id: 'rules-reference',
    summary: `Fills the ${RULES_REGION} region (one section per rule) from the rules' metadata`,
    inputs: [RULES_DOC],
    generate(corpus) {
      return regionOutputs(corpus, RULES_REGION, render(rules));
    },
  });
}

/** The sections of the reference, one a rule by family; `rules --format markdown` prints them too (house rules included). */
export function render(rules: readonly RuleDoc[]): string {
  const sorted = [...rules].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const families = [...new Set(sorted.map((rule) => rule.id.split('/')[0] as string))];
  const out: string[] = [];
  for (const family of families) {
    out.push(`## ${family}`, '');
    for (const rule of sorted.filter((r) => r.id.startsWith(`${family}/`))) {
      out.push(`### ${rule.id}`, '', prose(sentence(rule.summary)), '');
      if (rule.description && rule.description !== rule.summary) out.push(prose(rule.description), '');
      out.push(`Default severity: ${rule.severity}. Fixable with \`--fix\`: ${rule.fixable ? 'yes' : 'no'}.`, '');
      const options = Object.entries(rule.options ?? {});
      if (options.length > 0) {
        out.push('Options:', '');
        for (const [name, spec] of options) {
          const { description, default: value, ...schema } = spec;
          const type = typeof schema.type === 'string' ? schema.type : 'value';
          out.push(`- \`${name}\` (${type}, default \`${JSON.stringify(value)}\`): ${prose(description)}`);
        }
        out.push('');
      }
    }
  }
  out.push(...aliasSections());
  return `${out.join('\n').trimEnd()}\n`;
}

/**
 * The old ids of rules split into several, each under its own heading so that a link to its former
 * section still lands on what replaced it.
 */
function aliasSections(): string[] {
  const aliases = ruleAliases();
  if (aliases.length === 0) return [];
  const out = [
    '## Aliases',
    '',
    'Old ids of rules that were split into rules of one concern each. An old id still works wherever a rule id is accepted (`rules` and `overrides` of the config, suppression comments and the suppressions file, the findings baseline, `--rule`): it stands for each of its rules, and a setting of a new id wins over one of its old id. Options set under an old id go to the rules that declare them.',
    '',
  ];
  for (const alias of aliases) {
    out.push(
      `### ${alias.id}`,
      '',
      `Deprecated: split into ${alias.replacedBy.map((id) => `[\`${id}\`](#${ruleAnchor(id)})`).join(', ')}.`,
      '',
    );
  }
  return out;
}

/**
 * A summary quotes the syntax its rule is about (an annotation comment, a section citation); in
 * the reference that syntax must read as text, not be taken for the thing itself: a tag is shown
 * as code, and the section sign is written as its entity, which renders the same but cites nothing.
 */
function prose(text: string): string {
  return text
    .split(/(`[^`]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/<[^>\n]*>/g, (tag) => `\`${tag}\``).replace(/§/g, '&sect;')))
    .join('');
}

function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}
