/**
 * `openwop-spec generate [--check]`: rebuild derived artifacts; with --check, only say what is stale.
 * A thin caller of the one pipeline (core/run's runGeneration runs it over the generation rules):
 * the config's severities, `off`, suppressions and findings baseline apply as they do for `check`,
 * so `generate --check` fails exactly when `check` reports an error of those rules.
 */
import path from 'node:path';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { JOURNAL, note, sortDiagnostics } from '../core/output/index.js';
import { DRIFT_RULE, generationRules, plannedContent, runGeneration } from '../core/run/index.js';
import {
  checkFormat,
  exitCodeFor,
  finishInterruptedWrites,
  openCorpus,
  printDiagnostics,
  writeOutputSet,
  configOption,
  formatOption,
  rootOption,
} from './common.js';
import { configureRun } from './run-setup.js';

interface GenerateOptions {
  root: string;
  config?: string;
  format: string;
  cache?: boolean;
  check?: boolean;
  baselineFindings?: string;
}

export function register(program: Command): void {
  program
    .command('generate')
    .description('regenerate every derived artifact from its registry (only files whose content changes are written)')
    .addOption(rootOption())
    .addOption(configOption())
    .option('--check', 'write nothing; report every stale or missing output and exit 1')
    .addOption(formatOption(['stylish', 'json', 'sarif', 'github'], 'stylish'))
    .option(
      '--baseline-findings <file>',
      "findings baseline (default: the config's baselineFindings): the findings it records are accepted, as check accepts them",
    )
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .action((options: GenerateOptions) => {
      process.exitCode = runGenerate(options);
    });
}

export function runGenerate(options: GenerateOptions): number {
  const format = checkFormat(options.format);
  if (options.check) {
    if (existsSync(path.join(path.resolve(options.root), JOURNAL)))
      note(
        `an interrupted generate left ${JOURNAL}: some outputs were not replaced; run \`openwop-spec generate\` to finish\n`,
      );
  } else {
    finishInterruptedWrites(options.root);
  }
  const run = configureRun({
    root: options.root,
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.baselineFindings !== undefined ? { baselineFindings: options.baselineFindings } : {}),
  });
  const corpus = openCorpus(options.root, { ...options, config: run.config });
  const { plan, findings, blocking } = runGeneration(corpus, run.options);
  const ran = generationRules(run.options.catalog);
  const rules = run.rules.filter((rule) => ran.has(rule.id));

  if (options.check) {
    printDiagnostics(findings, format, corpus.files.size, rules);
    return exitCodeFor(findings);
  }

  if (blocking.length > 0) {
    // Half a regeneration is worse than none: refuse to write while any generator is in error.
    printDiagnostics(
      findings.filter((d) => d.rule !== DRIFT_RULE.id),
      format,
      corpus.files.size,
      rules,
    );
    note('nothing written: fix the findings above, then run generate again\n');
    return exitCodeFor(blocking);
  }
  const stamp = corpus.config.layout.stamp;
  const changed = plan.files
    .filter((file) => file.before !== file.after)
    .sort((a, b) => Number(a.path === stamp) - Number(b.path === stamp));
  // Every output is staged before any is replaced: a failure while staging changes nothing, and a kill
  // while replacing leaves a journal the next run finishes.
  writeOutputSet(
    corpus,
    changed.map((file) => ({ path: file.path, content: plannedContent(file) })),
    plan.files.map((file) => file.path),
  );
  for (const file of changed) note(`wrote ${file.path}\n`);
  // What is left once written is what generation says of itself (drift is what was just repaired).
  const said = sortDiagnostics(findings.filter((d) => d.rule !== DRIFT_RULE.id));
  // A machine format is a document even with nothing in it: `generate --format json` always prints JSON.
  if (said.length > 0 || format === 'json' || format === 'sarif')
    printDiagnostics(said, format, corpus.files.size, rules);
  note(
    `${changed.length} file${changed.length === 1 ? '' : 's'} written, ${plan.files.length - changed.length} up to date\n`,
  );
  return 0;
}
