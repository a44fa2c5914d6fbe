#!/usr/bin/env node
/** openwop-spec: generate, check and release the OpenWOP specification corpus. */
import { Command, CommanderError } from 'commander';
import { register as registerCheck } from './check.js';
import { EXIT, TOOL_NAME, toolVersion, UsageError } from './common.js';
import { register as registerGenerate } from './generate.js';
import { register as registerRules } from './rules.js';
import { register as registerPack } from './pack.js';
import { register as registerVerify } from './verify.js';
import { register as registerDiff } from './diff.js';
import { register as registerBaseline } from './baseline.js';

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
for (const command of program.commands) command.exitOverride();

try {
  await program.parseAsync(process.argv);
} catch (error) {
  process.exitCode = exitCodeFor(error);
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
