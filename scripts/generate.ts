/** `openwop-spec generate [--check]`: rebuild derived artifacts; with --check, only say what is stale. */
import path from 'node:path';
import type { Command } from 'commander';
import { sortDiagnostics } from '../core/output/index.js';
import { DRIFT_RULE, REGION_RULE, driftDiagnostics, planGeneration } from '../core/run/index.js';
import { writeFileAtomic } from '../core/output/index.js';
import { ALL_GENERATORS as GENERATORS } from './catalog.js';
import { checkFormat, exitCodeFor, openCorpus, printDiagnostics } from './common.js';

interface GenerateOptions {
  root: string;
  config?: string;
  format: string;
  cache?: boolean;
  check?: boolean;
}

export function register(program: Command): void {
  program
    .command('generate')
    .description('regenerate every derived artifact from its registry (only files whose content changes are written)')
    .option('--root <dir>', 'corpus root', '.')
    .option('--config <file>', 'config file (default: openwop-spec.config.json at the root, when there is one)')
    .option('--check', 'write nothing; report every stale or missing output and exit 1')
    .option('--format <format>', 'stylish | json | sarif | github', 'stylish')
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .action((options: GenerateOptions) => {
      process.exitCode = runGenerate(options);
    });
}

export function runGenerate(options: GenerateOptions): number {
  const format = checkFormat(options.format);
  const corpus = openCorpus(options.root, options);
  const plan = planGeneration(corpus, GENERATORS);
  const rules = [DRIFT_RULE, REGION_RULE, ...GENERATORS.map((g) => ({ id: `generate/${g.id}`, summary: g.summary, severity: 'error' as const }))];

  if (options.check) {
    const diagnostics = sortDiagnostics([...plan.diagnostics, ...driftDiagnostics(plan, GENERATORS)]);
    printDiagnostics(diagnostics, format, corpus.files.size, rules);
    return exitCodeFor(diagnostics);
  }

  const blocking = plan.diagnostics.filter((d) => d.severity === 'error');
  if (blocking.length > 0) {
    // Half a regeneration is worse than none: refuse to write while any generator is in error.
    printDiagnostics(sortDiagnostics(plan.diagnostics), format, corpus.files.size, rules);
    process.stderr.write('nothing written: fix the findings above, then run generate again\n');
    return exitCodeFor(blocking);
  }
  const changed = plan.files.filter((file) => file.before !== file.after);
  for (const file of changed) {
    writeFileAtomic(path.join(corpus.root, file.path), file.after);
    process.stderr.write(`wrote ${file.path}\n`);
  }
  // A machine format is a document even with nothing in it: `generate --format json` always prints JSON.
  if (plan.diagnostics.length > 0 || format === 'json' || format === 'sarif') printDiagnostics(sortDiagnostics(plan.diagnostics), format, corpus.files.size, rules);
  process.stderr.write(`${changed.length} file${changed.length === 1 ? '' : 's'} written, ${plan.files.length - changed.length} up to date\n`);
  return 0;
}
