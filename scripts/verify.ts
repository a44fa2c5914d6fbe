/** `openwop-spec verify <dir|tgz> [--digest D] [--public-key K]`: recompute a release's hashes and digest against its stamps, and check who signed it. */
import path from 'node:path';
import type { Command } from 'commander';
import { ReleaseSourceError, describeVerification, normalizeDigest, verifyArtifacts } from '../core/release/index.js';
import { safeJson } from '../core/output/index.js';
import { EXIT, UsageError, formatOption } from './common.js';

interface VerifyOptions {
  root: string;
  digest?: string;
  publicKey?: string;
  signature?: string;
  format: string;
}

export function register(program: Command): void {
  program
    .command('verify')
    .description(
      'verify a packed (.tgz), installed or checked-out release against its CORPUS-STAMP.json; names every missing, altered or unlisted file',
    )
    .argument('<target>', 'a directory (node_modules/@openwop/spec-artifacts, a repository) or a .tgz')
    .option('--digest <digest>', 'the digest the release must have (sha256:<hex>)')
    .option(
      '--public-key <file>',
      'the release key (PEM) you pinned: refuse a release it did not sign, and name the key that did',
    )
    .option(
      '--signature <file>',
      'the DSSE envelope (default: <tgz>.dsse.json beside a tarball; a directory must name one)',
    )
    .option('--root <dir>', 'resolve a relative target from this directory', '.')
    .addOption(formatOption(['text', 'json'], 'text'))
    .action((target: string, options: VerifyOptions) => {
      process.exitCode = runVerify(target, options);
    });
}

export function runVerify(target: string, options: VerifyOptions): number {
  if (options.format !== 'text' && options.format !== 'json')
    throw new UsageError(`unknown format "${options.format}"; use text or json`);
  if (options.digest !== undefined && !normalizeDigest(options.digest))
    throw new UsageError(`--digest ${options.digest} is not sha256:<64 hex digits>`);
  let result;
  try {
    result = verifyArtifacts(path.resolve(options.root, target), {
      ...(options.digest !== undefined ? { digest: options.digest } : {}),
      ...(options.publicKey !== undefined ? { publicKey: path.resolve(options.root, options.publicKey) } : {}),
      ...(options.signature !== undefined ? { signature: path.resolve(options.root, options.signature) } : {}),
    });
  } catch (error) {
    if (error instanceof ReleaseSourceError) throw new UsageError(error.message);
    throw error;
  }
  if (options.format === 'json') process.stdout.write(`${safeJson(JSON.stringify(result, null, 2))}\n`);
  else process.stdout.write(describeVerification(result));
  return result.ok ? EXIT.clean : EXIT.findings;
}
