/**
 * The one place the language server meets the run: the same composition `check` makes of core/run
 * (generation and drift, gates, cascade, relocation, fingerprints, suppressions, the findings
 * baseline, the config's severities), over a model the server holds instead of one read from disk.
 * When the run has a single entry point in core/run, this module calls it and nothing else changes.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CHECKS } from '../checks/index.js';
import { ruleSettings, type Config } from '../core/config/index.js';
import type { Corpus } from '../core/model/index.js';
import { sortDiagnostics, type Diagnostic } from '../core/output/index.js';
import { causeFirst, compareWithBaseline, parseFailuresFirst, parseFindingsBaseline, planGeneration, relocateGenerated, withFingerprints, type GenerationPlan } from '../core/run/index.js';
import type { CorpusRun, RunResult } from '../lsp/index.js';
import { ALL_GENERATORS, ALL_RULES } from './catalog.js';
import { derivedFrom, evaluate, previousReleaseOf, rerunOver, suppress } from './check.js';
import { say, usingConfig } from './common.js';

/** What `check --format json` reports for a model, with no file arguments and no flags: the config alone decides. */
export function corpusRun(root: string, config: Config, today: () => string = () => new Date().toISOString().slice(0, 10)): CorpusRun {
  const settings = usingConfig(() => ruleSettings(config, ALL_RULES));
  const selected = ALL_RULES.filter((rule) => settings.get(rule.id)?.enabled !== false);
  const ids = new Set(selected.map((rule) => rule.id));
  const checks = CHECKS.filter((check) => ids.has(check.id));
  const previous = previousReleaseOf(path.resolve(root), undefined);
  const baselineFile = config.policy.baselineFindings ? path.resolve(root, config.policy.baselineFindings) : undefined;
  return {
    rules: ALL_RULES.map((rule) => rule.id),
    generate: (corpus: Corpus) => planGeneration(corpus, ALL_GENERATORS),
    run(corpus: Corpus): RunResult {
      const { diagnostics, plan: planned } = evaluate(corpus, checks, ids, settings, previous);
      const plan: GenerationPlan = planned ?? planGeneration(corpus, ALL_GENERATORS);
      const located = relocateGenerated(corpus, causeFirst(corpus, diagnostics, { derivedFrom: derivedFrom(plan), rerun: rerunOver(checks, ids, settings, previous) }), plan, ALL_GENERATORS);
      let judged: Diagnostic[] = suppress(corpus, withFingerprints(corpus, located), config, settings, ids, today(), undefined);
      if (baselineFile && existsSync(baselineFile)) judged = compareWithBaseline(judged, parseFindingsBaseline(readFileSync(baselineFile, 'utf8'), baselineFile));
      // Messages name the command as it works here, as check's report does (printDiagnostics).
      const said = parseFailuresFirst(sortDiagnostics(judged)).map((d) => ({ ...d, message: say(d.message), ...(d.hint !== undefined ? { hint: say(d.hint) } : {}) }));
      return { diagnostics: said, plan };
    },
  };
}
