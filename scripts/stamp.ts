/**
 * `openwop-spec stamp [--check]`: bring CORPUS-STAMP.json up to date, and print the corpus digest.
 * The stamp is the corpus-stamp generator's output; it is written only when every other generated
 * file is current, since a stamp over stale content would certify what a release will not ship.
 * A thin caller of the one pipeline (core/run's runGeneration): the config's severities, `off`,
 * suppressions and findings baseline apply to what stops it as they do for `check`.
 */
import type { Command } from 'commander';
import { isActive, note, writeTextInside } from '../core/output/index.js';
import { DRIFT_RULE, generationRules, runGeneration } from '../core/run/index.js';
import { parseStamp, STAMP_PATH, stampPath } from '../core/release/index.js';
import {
  checkFormat,
  EXIT,
  exitCodeFor,
  openCorpus,
  printDiagnostics,
  say,
  configOption,
  rootOption,
} from './common.js';
import { configureRun } from './run-setup.js';

interface StampOptions {
  root: string;
  config?: string;
  format: string;
  check?: boolean;
  cache?: boolean;
  baselineFindings?: string;
}

export function register(program: Command): void {
  program
    .command('stamp')
    .description(
      `write ${STAMP_PATH} (file hashes and the RFC 8785 digest) and print the digest; --check only says whether it is current`,
    )
    .addOption(rootOption())
    .addOption(configOption())
    .option('--check', 'write nothing; exit 1 if the stamp is stale')
    .option('--format <format>', 'stylish | json | sarif | github (for findings)', 'stylish')
    .option(
      '--baseline-findings <file>',
      "findings baseline (default: the config's baselineFindings): the findings it records are accepted, as check accepts them",
    )
    .option('--no-cache', 'parse every file afresh')
    .action((options: StampOptions) => {
      process.exitCode = runStamp(options);
    });
}

export function runStamp(options: StampOptions): number {
  const format = checkFormat(options.format);
  const run = configureRun({
    root: options.root,
    ...(options.config !== undefined ? { config: options.config } : {}),
    ...(options.baselineFindings !== undefined ? { baselineFindings: options.baselineFindings } : {}),
  });
  const corpus = openCorpus(options.root, { ...options, config: run.config });
  const { plan, findings, blocking: stopping } = runGeneration(corpus, run.options);
  const ran = generationRules(run.options.catalog);
  const rules = run.rules.filter((rule) => ran.has(rule.id));
  const STAMP = stampPath(corpus);
  const stamp = plan.files.find((file) => file.path === STAMP);
  if (!stamp) {
    note(`no generator produces ${STAMP}\n`);
    return EXIT.findings;
  }
  // A stamp over stale outputs, or over a corpus that lacks a required registry, would certify a
  // release that is not this corpus; the stamp's own drift is what this verb repairs.
  const staleOthers = findings.filter(
    (d) => d.rule === DRIFT_RULE.id && d.file !== STAMP && isActive(d) && d.severity === 'error',
  );
  const blocking = [...stopping, ...staleOthers];
  if (blocking.length > 0) {
    printDiagnostics(
      findings.filter((d) => d.rule !== DRIFT_RULE.id || d.file !== STAMP),
      format,
      corpus.files.size,
      rules,
    );
    note(
      say(
        `${STAMP} not written: generated files are stale or a generator failed; run \`openwop-spec generate\` first\n`,
      ),
    );
    return exitCodeFor(blocking);
  }
  const digest = parseStamp(stamp.after).stamp?.digest;
  if (stamp.before === stamp.after) {
    process.stdout.write(`${STAMP} is current: ${String(digest)}\n`);
    return EXIT.clean;
  }
  if (options.check) {
    printDiagnostics(
      findings.filter((d) => d.rule === DRIFT_RULE.id && d.file === STAMP),
      format,
      corpus.files.size,
      rules,
    );
    return EXIT.findings;
  }
  writeTextInside(corpus.root, STAMP, stamp.after);
  process.stdout.write(`wrote ${STAMP}: ${String(digest)}\n`);
  return EXIT.clean;
}
