#!/usr/bin/env node
/** openwop-spec: generate, check and release the OpenWOP specification corpus. */
import { Command, CommanderError } from 'commander';
import { setFlagsFromString } from 'node:v8';
import { heapAfter, timings } from '../core/run/index.js';
import { flushCaches } from '../core/output/index.js';
import { register as registerCheck } from './check.js';
import { EXIT, TOOL_NAME, toolVersion, UsageError } from './common.js';
import { register as registerGenerate } from './generate.js';
import { register as registerRules } from './rules.js';
import { register as registerPack } from './pack.js';
import { register as registerVerify } from './verify.js';
import { register as registerDiff } from './diff.js';
import { register as registerBaseline } from './baseline.js';
import { register as registerStamp } from './stamp.js';

// The run holds the whole corpus model for its length, and little else lives long; by default V8
// lets the heap grow to four times what survives a collection before it collects again, which on
// a large corpus is gigabytes of garbage. Half again as much keeps the peak near the model's size
// (a x100 corpus: 2.5 GiB down to about 1) for a few per cent more time collecting.
setFlagsFromString('--heap-growing-percent=50');

const program = new Command(TOOL_NAME)
  .description('Generate, check and release the OpenWOP specification corpus')
  .version(toolVersion())
  .showHelpAfterError('(run with --help for usage)')
  .exitOverride();

registerGenerate(program);
registerCheck(program);
registerRules(program);
registerPack(program);
registerVerify(program);
registerDiff(program);
registerBaseline(program);
registerStamp(program);
for (const command of program.commands) command.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
}
flushCaches();
if (process.env.OPENWOP_SPEC_TIMING) printTimings();

/** Where the time went, slowest first, on stderr so that machine-readable stdout is untouched. */
function printTimings(): void {
  const rows = [...timings].sort((a, b) => b[1] - a[1]);
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  const mib = (bytes: number | undefined): string => (bytes === undefined ? '' : (bytes / 2 ** 20).toFixed(0).padStart(8));
  process.stderr.write(`${'rule'.padEnd(width)}  ${'ms'.padStart(9)}  heap MiB after\n`);
  for (const [id, ms] of rows) process.stderr.write(`${id.padEnd(width)}  ${ms.toFixed(1).padStart(9)}  ${mib(heapAfter.get(id))}\n`);
  const usage = process.resourceUsage();
  process.stderr.write(`${'total (process)'.padEnd(width)}  ${performance.now().toFixed(1).padStart(9)}  ${mib(usage.maxRSS * 1024)} (peak resident)\n`);
}

function exitCodeFor(error: unknown): number {
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help' ? EXIT.clean : EXIT.usage;
  }
  if (error instanceof UsageError) {
    process.stderr.write(`${TOOL_NAME}: ${error.message}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`${TOOL_NAME}: internal error: ${message.split('\n')[0]}\n`);
  if (process.env.OPENWOP_SPEC_DEBUG && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  return EXIT.usage;
}
