/** `openwop-spec verify <dir|tgz> [--digest D]`: recompute a release's hashes and digest against its stamp. */
import path from 'node:path';
import type { Command } from 'commander';
import { ReleaseSourceError } from '../core/release/index.js';
import { describeVerification, normalizeDigest, verifyArtifacts } from '../core/release/index.js';
import { EXIT, UsageError } from './common.js';

interface VerifyOptions {
  root: string;
  digest?: string;
  format: string;
}

export function register(program: Command): void {
  program
    .command('verify')
    .description('verify a packed (.tgz), installed or checked-out release against its CORPUS-STAMP.json; names every missing, altered or unlisted file')
    .argument('<target>', 'a directory (node_modules/@openwop/spec-artifacts, a repository) or a .tgz')
    .option('--digest <digest>', 'the digest the release must have (sha256:<hex>)')
    .option('--root <dir>', 'resolve a relative target from this directory', '.')
    .option('--format <format>', 'text | json', 'text')
    .action((target: string, options: VerifyOptions) => {
      process.exitCode = runVerify(target, options);
    });
}

export function runVerify(target: string, options: VerifyOptions): number {
  if (options.format !== 'text' && options.format !== 'json') throw new UsageError(`unknown format "${options.format}"; use text or json`);
  if (options.digest !== undefined && !normalizeDigest(options.digest)) throw new UsageError(`--digest ${options.digest} is not sha256:<64 hex digits>`);
  let result;
  try {
    result = verifyArtifacts(path.resolve(options.root, target), options.digest === undefined ? {} : { digest: options.digest });
  } catch (error) {
    if (error instanceof ReleaseSourceError) throw new UsageError(error.message);
    throw error;
  }
  if (options.format === 'json') process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  else process.stdout.write(describeVerification(result));
  return result.ok ? EXIT.clean : EXIT.findings;
}
