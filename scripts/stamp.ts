/**
 * `openwop-spec stamp [--check]`: bring CORPUS-STAMP.json up to date, and print the corpus digest.
 * The stamp is the corpus-stamp generator's output; it is written only when every other generated
 * file is current, since a stamp over stale content would certify what a release will not ship.
 */
import type { Command } from 'commander';
import { sortDiagnostics,writeTextInside } from '../core/output/index.js';
import { DRIFT_RULE, driftDiagnostics, runGeneration } from '../core/run/index.js';
import { parseStamp, STAMP_PATH, stampPath } from '../core/release/index.js';
import { ALL_GENERATORS as GENERATORS } from './catalog.js';
import { checkFormat, EXIT, exitCodeFor, openCorpus, printDiagnostics, say, configOption, rootOption } from './common.js';

interface StampOptions {
  root: string;
  config?: string;
  format: string;
  check?: boolean;
  cache?: boolean;
}

export function register(program: Command): void {
  program
    .command('stamp')
    .description(`write ${STAMP_PATH} (file hashes and the RFC 8785 digest) and print the digest; --check only says whether it is current`)
    .addOption(rootOption())
    .addOption(configOption())
    .option('--check', 'write nothing; exit 1 if the stamp is stale')
    .option('--format <format>', 'stylish | json | sarif | github (for findings)', 'stylish')
    .option('--no-cache', 'parse every file afresh')
    .action((options: StampOptions) => {
      process.exitCode = runStamp(options);
    });
}

export function runStamp(options: StampOptions): number {
  const format = checkFormat(options.format);
  const corpus = openCorpus(options.root, options);
  const { plan, blocking: stopping } = runGeneration(corpus, GENERATORS);
  const STAMP = stampPath(corpus);
  const stamp = plan.files.find((file) => file.path === STAMP);
  if (!stamp) {
    process.stderr.write(`no generator produces ${STAMP}\n`);
    return EXIT.findings;
  }
  const others = { ...plan, files: plan.files.filter((file) => file.path !== STAMP) };
  // A stamp over a corpus that lacks a required registry would certify a release without it.
  const blocking = sortDiagnostics([...stopping, ...driftDiagnostics(others, GENERATORS)]);
  if (blocking.length > 0) {
    printDiagnostics(blocking, format, corpus.files.size, [DRIFT_RULE]);
    process.stderr.write(say(`${STAMP} not written: generated files are stale or a generator failed; run \`openwop-spec generate\` first\n`));
    return exitCodeFor(blocking);
  }
  const digest = parseStamp(stamp.after).stamp?.digest;
  if (stamp.before === stamp.after) {
    process.stdout.write(`${STAMP} is current: ${String(digest)}\n`);
    return EXIT.clean;
  }
  if (options.check) {
    printDiagnostics(driftDiagnostics({ ...plan, files: [stamp] }, GENERATORS), format, corpus.files.size, [DRIFT_RULE]);
    return EXIT.findings;
  }
  writeTextInside(corpus.root, STAMP, stamp.after);
  process.stdout.write(`wrote ${STAMP}: ${String(digest)}\n`);
  return EXIT.clean;
}
