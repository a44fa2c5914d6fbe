#!/usr/bin/env node
/** openwop-spec: generate, check and release the OpenWOP specification corpus. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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
  // The bundled script with the code cache the build made beside it (scripts/script-bundle.ts),
  // else, run from the sources or tsc's output, the ES modules. Node's own compile cache is not
  // used: it writes where it likes, past core/fs, and reads back whatever it finds there.
  // Loaded only here, so that `--version` evaluates nothing but the manifest read.
  const { loadScriptBundle, setRunFlags } = await import('./script-bundle.js');
  setRunFlags();
  const { main } = loadScriptBundle(path.dirname(fileURLToPath(import.meta.url))) ?? (await import('./main.js'));
  await main(args);
}
