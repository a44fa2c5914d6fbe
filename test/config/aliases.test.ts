/**
 * The old ids of split rules (core/config/aliases.ts): wherever a rule id is accepted, an old id
 * stands for each of the rules that replaced it, and a setting of a new id wins over it.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { aliasMembers, fingerprintRuleId, matchesPattern } from '../../core/config/index.js';
import { RULE_ALIASES } from '../../core/config/aliases.js';
import type { Diagnostic } from '../../core/output/index.js';
import { runCorpus } from '../../core/run/index.js';
import { ALL_RULES } from '../../scripts/catalog.js';
import { openCorpus } from '../../scripts/common.js';
import { configureRun } from '../../scripts/run-setup.js';
import { caseFiles, TODAY } from '../rule-tester.js';
import { cli, doc, tempTree, words } from '../helpers.js';

const RUNS = 'spec/v2/core/runs.md';
/** One finding of each docs rule split out of docs/readability: a long paragraph, an RFC number, a v1 mention over its count. */
const BODY = `${words(91)}\n\nAs RFC 0144 says, a run MUST carry its id; unlike v1.`;
const FAMILY = aliasMembers('docs/readability');

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function aliasRoot(config: Record<string, unknown>, files: Record<string, string> = {}): string {
  const root = tempTree(
    caseFiles({
      files: { [RUNS]: doc('Runs', BODY), ...files },
      config: { rules: { 'docs/v1-mentions': ['error', { v1Mentions: 0 }] }, ...config },
    }),
    'openwop-alias-',
  );
  roots.push(root);
  return root;
}

function runFamily(root: string, rule: string[] = FAMILY): Diagnostic[] {
  const run = configureRun({ root, rule, today: TODAY });
  return runCorpus(openCorpus(root, { cache: false, config: run.config }), run.options).diagnostics;
}

/** The findings not suppressed, of the docs rules and of the suppressions (a suppression found unused, say). */
const docsFindings = (diagnostics: readonly Diagnostic[]) =>
  diagnostics
    .filter((d) => !d.suppression && /^(docs|suppressions)\//.test(d.rule))
    .map((d) => `${d.rule} ${d.severity} ${d.messageId}`);

describe('an old rule id', () => {
  it('each alias stands for rules that exist, each in one alias', () => {
    const members = Object.keys(RULE_ALIASES).flatMap(aliasMembers);
    expect(members.length).toBeGreaterThan(0);
    expect(members.filter((id) => !ALL_RULES.some((rule) => rule.id === id))).toEqual([]);
    expect(new Set(members).size).toBe(members.length);
    expect(Object.keys(RULE_ALIASES).filter((alias) => ALL_RULES.some((rule) => rule.id === alias))).toEqual([]);
  });

  it('reaches its rules and no other', () => {
    expect(FAMILY).toEqual(['docs/rfc-numbers', 'docs/prose-length', 'docs/v1-mentions']);
    expect(matchesPattern('docs/prose-length', 'docs/readability')).toBe(true);
    expect(matchesPattern('docs/structure', 'docs/readability')).toBe(false);
    // Findings keep the fingerprints they had under the old id.
    expect(fingerprintRuleId('docs/prose-length')).toBe('docs/readability');
    expect(fingerprintRuleId('docs/structure')).toBe('docs/structure');
  });

  it('the base case: each new rule finds its defect', () => {
    expect(docsFindings(runFamily(aliasRoot({})))).toEqual([
      'docs/prose-length error too-long',
      'docs/rfc-numbers error rfc-in-prose',
      'docs/v1-mentions error v1-mentions-up',
    ]);
  });

  it('set off in the config, silences every rule it stands for; a setting of a new id wins over it', () => {
    expect(
      docsFindings(
        runFamily(
          aliasRoot({ rules: { 'docs/readability': 'off', 'docs/v1-mentions': ['error', { v1Mentions: 0 }] } }),
          [],
        ),
      ),
    ).toEqual(['docs/v1-mentions error v1-mentions-up']);
    const root = aliasRoot({ rules: { 'docs/readability': 'off', 'docs/prose-length': 'warn' } });
    expect(docsFindings(runFamily(root, []))).toEqual(['docs/prose-length warning too-long']);
  });

  it('gives its options to the rules that declare them, and refuses one none of them declares', () => {
    const root = aliasRoot({ rules: { 'docs/readability': ['warn', { maxWords: 200, v1Mentions: 1 }] } });
    expect(docsFindings(runFamily(root))).toEqual(['docs/rfc-numbers warning rfc-in-prose']);
    expect(() => runFamily(aliasRoot({ rules: { 'docs/readability': ['error', { maxWordz: 10 }] } }))).toThrow(
      /rules\["docs\/readability"\] has no option "maxWordz"/,
    );
  });

  it('in an override, applies to the files it matches', () => {
    const root = aliasRoot({ overrides: [{ files: [RUNS], rules: { 'docs/readability': 'off' } }] });
    expect(docsFindings(runFamily(root))).toEqual([]);
  });

  it('chosen with --rule, runs each of its rules', () => {
    const root = aliasRoot({});
    expect([...configureRun({ root, rule: ['docs/readability'], today: TODAY }).options.ran].sort()).toEqual(
      [...FAMILY].sort(),
    );
    expect(docsFindings(runFamily(root, ['docs/readability']))).toHaveLength(3);
  });

  it('in an inline suppression, suppresses the findings of its rules, and is used', () => {
    const root = aliasRoot(
      {},
      {
        [RUNS]: doc(
          'Runs',
          `<!-- openwop-spec-disable-next-line docs/readability -- a long paragraph kept for now -->\n${words(91)}`,
        ),
      },
    );
    const all = runFamily(root);
    expect(all.filter((d) => d.suppression).map((d) => d.rule)).toEqual(['docs/prose-length']);
    expect(docsFindings(all)).toEqual([]);
  });

  it("in the suppressions file, matches the fingerprint its rules' findings had before the split", () => {
    const root = aliasRoot({});
    const paragraph = runFamily(root).find((d) => d.rule === 'docs/prose-length') as Diagnostic;
    const suppressions = {
      suppressions: [
        {
          rule: 'docs/readability',
          file: RUNS,
          fingerprint: paragraph.fingerprint,
          reason: 'written before the split',
        },
      ],
    };
    const again = aliasRoot({}, { 'openwop-spec.suppressions.json': JSON.stringify(suppressions) });
    expect(docsFindings(runFamily(again))).toEqual([
      'docs/rfc-numbers error rfc-in-prose',
      'docs/v1-mentions error v1-mentions-up',
    ]);
  });

  it('in a findings baseline, accepts what it recorded', () => {
    const root = aliasRoot({});
    const paragraph = runFamily(root).find((d) => d.rule === 'docs/prose-length') as Diagnostic;
    const baseline = {
      findings: [
        {
          rule: 'docs/readability',
          file: RUNS,
          fingerprint: paragraph.fingerprint,
          message: paragraph.message,
          severity: 'error',
        },
      ],
    };
    const again = aliasRoot({ baselineFindings: 'baseline.json' }, { 'baseline.json': JSON.stringify(baseline) });
    const states = runFamily(again).map((d) => `${d.rule} ${d.baselineState}`);
    expect(states).toEqual(['docs/prose-length unchanged', 'docs/rfc-numbers new', 'docs/v1-mentions new']);
  });

  it('may not name a house rule', () => {
    const root = aliasRoot({
      rules: {
        'docs/readability': {
          given: { files: 'schemas/**/*.json', path: '$' },
          then: { field: 'title', function: 'defined' },
        },
      },
    });
    expect(() => runFamily(root)).toThrow(/rules\["docs\/readability"\] defines a rule with the id of a built-in one/);
  });

  it('is listed by `rules` as deprecated, with the rules that replaced it', async () => {
    const result = await cli(['rules', '--root', aliasRoot({}), '--format', 'json']);
    const { aliases } = JSON.parse(result.stdout) as { aliases: Array<{ id: string; replacedBy: string[] }> };
    expect(aliases.find((alias) => alias.id === 'docs/readability')?.replacedBy).toEqual(FAMILY);
  });
});
