#!/usr/bin/env node
/** openwop-spec: generate, check and release the OpenWOP specification corpus. */
import { toolVersion } from './tool.js';

// A reader that stops early (`openwop-spec rules | head`) closes the pipe; that ends the output, it is not an error.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});

// `npm run spec -- …` runs from the package root whichever directory it was typed in, and says
// which in INIT_CWD; this repository's pass-through script works from there, so that the paths
// on its command line mean what they mean in the shell and the config is found from there.
if (
  process.env.npm_lifecycle_event === 'spec' &&
  process.env.npm_package_name === '@openwop/spec' &&
  process.env.INIT_CWD
)
  process.chdir(process.env.INIT_CWD);

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Asked this often by scripts; answered without loading the command line parser at all.
  process.stdout.write(`${toolVersion()}\n`);
} else {
  // The run holds the whole corpus model for its length, and little else lives long; by default V8
  // lets the heap grow to four times what survives a collection before it collects again, which on
  // a large corpus is gigabytes of garbage. Half again as much keeps the peak near the model's size
  // (a x100 corpus: 2.5 GiB down to about 1) for a few per cent more time collecting. (node:v8 is
  // loaded here, not above: loading it costs `--version` a tenth of its time.)
  (await import('node:v8')).setFlagsFromString('--heap-growing-percent=50');
  // Loaded only here, so that `--version` evaluates nothing but the manifest read.
  const { main } = await import('./main.js');
  await main(args);
}
