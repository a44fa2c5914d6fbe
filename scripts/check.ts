/** `openwop-spec check`: the drift gate, then every gate, over one corpus model. */
import type { Command } from 'commander';
import { CHECKS } from '../checks/index.js';
import type { Corpus } from '../core/model/index.js';
import type { Check } from '../core/run/index.js';
import { sortDiagnostics, type Diagnostic } from '../core/output/index.js';
import { runChecks, selectRules } from '../core/run/index.js';
import { applyFixes } from '../core/run/index.js';
import { DRIFT_RULE, REGION_RULE, driftDiagnostics, planGeneration } from '../core/run/index.js';
import { writeTextAtomic } from '../core/output/index.js';
import { GENERATORS } from '../generators/index.js';
import path from 'node:path';
import { ruleSettings, type RuleSetting } from '../core/config/index.js';
import { checkFormat, collect, exitCodeFor, openConfig, openCorpus, printDiagnostics, UsageError, usingConfig } from './common.js';

/** The rules `check` can run: the two generation rules and every gate. */
export const ALL_RULES = [DRIFT_RULE, REGION_RULE, ...CHECKS.map(({ id, summary, severity, options }) => ({ id, summary, severity, ...(options ? { options } : {}) }))];

interface CheckOptions {
  root: string;
  config?: string;
  format: string;
  cache?: boolean;
  rule: string[];
  fix?: boolean;
  baseline?: string;
}

export function register(program: Command): void {
  program
    .command('check')
    .description('run the corpus gates (and the generated-output drift gate)')
    .option('--root <dir>', 'corpus root', '.')
    .option('--config <file>', 'config file (default: openwop-spec.config.json at the root, when there is one)')
    .option('--format <format>', 'stylish | json | sarif | github', 'stylish')
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .option('--rule <id>', 'run only this rule (repeatable; family/* selects a family)', collect, [])
    .option('--fix', 'apply the fixes findings carry, then report what remains')
    .option('--baseline <release>', 'previous release, for gates that compare against one: a checkout, an installed package, a .tgz, or a git ref')
    .action((options: CheckOptions) => {
      process.exitCode = runCheck(options);
    });
}

export function runCheck(options: CheckOptions): number {
  const format = checkFormat(options.format);
  const { selected: chosen, unknown } = selectRules(ALL_RULES, options.rule);
  if (unknown.length > 0) throw new UsageError(`unknown rule ${unknown.join(', ')}; \`openwop-spec rules\` lists them`);
  const config = openConfig(options.root, options.config);
  const settings = usingConfig(() => ruleSettings(config, ALL_RULES));
  // A rule named with --rule runs even when the config turns it off: the command line is the
  // narrower, later word, as it is for other linters.
  for (const rule of chosen) {
    const setting = settings.get(rule.id);
    if (options.rule.length > 0 && setting && !setting.enabled) settings.set(rule.id, { ...setting, enabled: true, severity: rule.severity, configured: false });
  }
  const selected = chosen.filter((rule) => settings.get(rule.id)?.enabled !== false);
  const ids = new Set(selected.map((rule) => rule.id));
  const checks = CHECKS.filter((check) => ids.has(check.id));

  let corpus = openCorpus(options.root, { ...options, config });
  let diagnostics = evaluate(corpus, checks, ids, settings, options);
  if (options.fix) {
    const fixed = applyAll(corpus, diagnostics);
    if (fixed.files > 0) {
      process.stderr.write(`fixed ${fixed.fixes} problem${fixed.fixes === 1 ? '' : 's'} in ${fixed.files} file${fixed.files === 1 ? '' : 's'}\n`);
      corpus = openCorpus(options.root, { ...options, config });
      diagnostics = evaluate(corpus, checks, ids, settings, options);
    }
  }
  printDiagnostics(diagnostics, format, corpus.files.size, selected.map((rule) => ({ ...rule, severity: settings.get(rule.id)?.severity ?? rule.severity })));
  return exitCodeFor(diagnostics);
}

function evaluate(corpus: Corpus, checks: readonly Check[], ids: ReadonlySet<string>, settings: ReadonlyMap<string, RuleSetting>, options: CheckOptions): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (ids.has(DRIFT_RULE.id) || ids.has(REGION_RULE.id)) {
    const plan = planGeneration(corpus, GENERATORS);
    const generated = [...plan.diagnostics.filter((d) => d.rule !== REGION_RULE.id || ids.has(REGION_RULE.id)), ...(ids.has(DRIFT_RULE.id) ? driftDiagnostics(plan) : [])];
    for (const d of generated) {
      const setting = settings.get(d.rule);
      diagnostics.push(setting?.configured ? { ...d, severity: setting.severity } : d);
    }
  }
  diagnostics.push(...runChecks(corpus, checks, { ...(options.baseline ? { baseline: options.baseline } : {}), settings }));
  return sortDiagnostics(diagnostics);
}

function applyAll(corpus: Corpus, diagnostics: readonly Diagnostic[]): { files: number; fixes: number } {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) if (d.fix) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  let files = 0;
  let fixes = 0;
  for (const [file, found] of byFile) {
    const source = corpus.get(file);
    if (!source || source.kind === 'binary') continue;
    const result = applyFixes(source.text, found.flatMap((d) => (d.fix ? [d.fix] : [])));
    if (result.applied === 0 || result.text === source.text) continue;
    writeTextAtomic(path.join(corpus.root, file), result.text, file);
    files++;
    fixes += result.applied;
  }
  return { files, fixes };
}
