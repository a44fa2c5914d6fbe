/**
 * The command line itself, apart from the process it runs in: scripts/cli.ts is the executable and
 * owns what belongs to a process (V8 flags, a closed stdout, the `--version` fast path); this
 * module parses the arguments and runs a verb, so that a test can run the real command line many
 * times in one process. The outcome is left in `process.exitCode`, as the verbs set it.
 */
import type { Command } from 'commander';
import { EXIT, say, TOOL_NAME, toolVersion, UsageError } from './tool.js';
import { note } from '../core/output/index.js';

/**
 * Each verb's module, loaded only when that verb runs: a verb's module pulls in what it needs (the
 * gates, the generators, the release code), and loading all of them for any verb was most of the
 * start-up. Help and an unknown verb load them all, so the listing and the suggestions are whole.
 */
const VERBS: Record<string, () => Promise<{ register(program: Command): void }>> = {
  generate: () => import('./generate.js'),
  check: () => import('./check.js'),
  rules: () => import('./rules.js'),
  pack: () => import('./pack.js'),
  verify: () => import('./verify.js'),
  diff: () => import('./diff.js'),
  baseline: () => import('./baseline.js'),
  stamp: () => import('./stamp.js'),
  init: () => import('./init.js'),
  completion: () => import('./completion.js'),
  lsp: () => import('./lsp.js'),
};

/** Runs the command line on `args` (the arguments after the executable's name). */
export async function main(given: readonly string[]): Promise<void> {
  let args = given;
  const { Command } = await import('commander');
  const program = new Command(TOOL_NAME)
    .description('Generate, check and release the OpenWOP specification corpus')
    .version(toolVersion())
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  // `openwop-spec --print-config FILE`, as ESLint takes it, is check's flag.
  if (args[0] === '--print-config') args = ['check', ...args];
  const verb = args.find((argument) => !argument.startsWith('-'));
  // Completion describes every verb, so it loads them all, as help does.
  const chosen =
    verb !== undefined && Object.hasOwn(VERBS, verb) && verb !== 'completion' ? [verb] : Object.keys(VERBS);
  for (const name of chosen)
    (await (VERBS[name] as () => Promise<{ register(program: Command): void }>)()).register(program);
  for (const command of program.commands) command.exitOverride();
  // A verb that reads a corpus finds it from the working directory when --root is not given.
  program.hook('preAction', async (_program, action) => {
    if (action.options.some((option) => option.long === '--config')) (await import('./common.js')).locateCorpus(action);
  });

  try {
    await program.parseAsync([...args], { from: 'user' });
  } catch (error) {
    process.exitCode = await exitCodeFor(error);
  }
  const [{ flushCaches }, { heapAfter, timings }] = await Promise.all([
    import('../core/output/index.js'),
    import('../core/run/index.js'),
  ]);
  flushCaches();
  if (process.env.OPENWOP_SPEC_TIMING) printTimings(timings, heapAfter);
}

/** Where the time went, slowest first, on stderr so that machine-readable stdout is untouched. */
function printTimings(timings: ReadonlyMap<string, number>, heapAfter: ReadonlyMap<string, number>): void {
  const rows = [...timings].sort((a, b) => b[1] - a[1]);
  const width = Math.max(0, ...rows.map(([id]) => id.length));
  const mib = (bytes: number | undefined): string =>
    bytes === undefined ? '' : (bytes / 2 ** 20).toFixed(0).padStart(8);
  note(`${'rule'.padEnd(width)}  ${'ms'.padStart(9)}  heap MiB after\n`);
  for (const [id, ms] of rows) note(`${id.padEnd(width)}  ${ms.toFixed(1).padStart(9)}  ${mib(heapAfter.get(id))}\n`);
  const usage = process.resourceUsage();
  note(
    `${'total (process)'.padEnd(width)}  ${performance.now().toFixed(1).padStart(9)}  ${mib(usage.maxRSS * 1024)} (peak resident)\n`,
  );
}

async function exitCodeFor(error: unknown): Promise<number> {
  const [{ CommanderError }, { visible }] = await Promise.all([import('commander'), import('../core/output/index.js')]);
  if (error instanceof CommanderError) {
    return error.code === 'commander.helpDisplayed' ||
      error.code === 'commander.version' ||
      error.code === 'commander.help'
      ? EXIT.clean
      : EXIT.usage;
  }
  // A write that failed (core/output's WriteError) is one line naming the target and the cause.
  if (error instanceof UsageError || (error instanceof Error && error.name === 'WriteError')) {
    note(`${TOOL_NAME}: ${visible(say(error.message))}\n`);
    return EXIT.usage;
  }
  const message = error instanceof Error ? error.message : String(error);
  note(`${TOOL_NAME}: internal error: ${visible(message.split('\n')[0] ?? '')}\n`);
  if (process.env.OPENWOP_SPEC_DEBUG && error instanceof Error) note(`${error.stack}\n`);
  return EXIT.usage;
}
