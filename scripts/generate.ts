/** `openwop-spec generate [--check]`: rebuild derived artifacts; with --check, only say what is stale. */
import path from 'node:path';
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { JOURNAL, sortDiagnostics } from '../core/output/index.js';
import { DRIFT_RULE, generatorRule, plannedContent, REGION_RULE, REQUIRED_RULE_ID, runGeneration } from '../core/run/index.js';
import { ALL_GENERATORS as GENERATORS } from './catalog.js';
import { checkFormat, exitCodeFor, finishInterruptedWrites, openCorpus, printDiagnostics, writeOutputSet, configOption, formatOption, rootOption } from './common.js';

interface GenerateOptions {
  root: string;
  config?: string;
  format: string;
  cache?: boolean;
  check?: boolean;
}

const REQUIRED_RULE = { id: REQUIRED_RULE_ID, summary: 'Every file the config requires (the registries, the API documents) is in the corpus', severity: 'error' as const };

export function register(program: Command): void {
  program
    .command('generate')
    .description('regenerate every derived artifact from its registry (only files whose content changes are written)')
    .addOption(rootOption())
    .addOption(configOption())
    .option('--check', 'write nothing; report every stale or missing output and exit 1')
    .addOption(formatOption(['stylish', 'json', 'sarif', 'github'], 'stylish'))
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .action((options: GenerateOptions) => {
      process.exitCode = runGenerate(options);
    });
}

export function runGenerate(options: GenerateOptions): number {
  const format = checkFormat(options.format);
  if (options.check) {
    if (existsSync(path.join(path.resolve(options.root), JOURNAL))) process.stderr.write(`an interrupted generate left ${JOURNAL}: some outputs were not replaced; run \`openwop-spec generate\` to finish\n`);
  } else {
    finishInterruptedWrites(options.root);
  }
  const corpus = openCorpus(options.root, options);
  const { plan, findings, blocking, drift } = runGeneration(corpus, GENERATORS);
  const rules = [DRIFT_RULE, REGION_RULE, REQUIRED_RULE, ...GENERATORS.map((g) => ({ id: generatorRule(g), summary: g.summary, severity: 'error' as const }))];

  if (options.check) {
    const diagnostics = sortDiagnostics([...findings, ...drift]);
    printDiagnostics(diagnostics, format, corpus.files.size, rules);
    return exitCodeFor(diagnostics);
  }

  if (blocking.length > 0) {
    // Half a regeneration is worse than none: refuse to write while any generator is in error.
    printDiagnostics(findings, format, corpus.files.size, rules);
    process.stderr.write('nothing written: fix the findings above, then run generate again\n');
    return exitCodeFor(blocking);
  }
  const stamp = corpus.config.layout.stamp;
  const changed = plan.files.filter((file) => file.before !== file.after).sort((a, b) => Number(a.path === stamp) - Number(b.path === stamp));
  // Every output is staged before any is replaced: a failure while staging changes nothing, and a kill
  // while replacing leaves a journal the next run finishes.
  writeOutputSet(
    corpus,
    changed.map((file) => ({ path: file.path, content: plannedContent(file) })),
    plan.files.map((file) => file.path),
  );
  for (const file of changed) process.stderr.write(`wrote ${file.path}\n`);
  // A machine format is a document even with nothing in it: `generate --format json` always prints JSON.
  if (plan.diagnostics.length > 0 || format === 'json' || format === 'sarif') printDiagnostics(sortDiagnostics(plan.diagnostics), format, corpus.files.size, rules);
  process.stderr.write(`${changed.length} file${changed.length === 1 ? '' : 's'} written, ${plan.files.length - changed.length} up to date\n`);
  return 0;
}
