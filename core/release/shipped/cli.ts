#!/usr/bin/env node
/**
 * `openwop-spec-artifacts verify [DIR] [--digest sha256:…] [--json]` (the package's bin, also run
 * as `npx @openwop/spec-artifacts verify`): the package's own
 * verifier on the command line. Exit 0 verified, 1 a problem found, 2 a usage error.
 */
import { describeArtifacts, normalizeDigest, packageDirectory, verifyArtifacts } from './verify.js';

/** The bin's name, as package.json declares it: what a user types, so what help and errors say. */
const BIN = 'openwop-spec-artifacts';
const USAGE = `usage: ${BIN} verify [DIR] [--digest sha256:<hex>] [--json]`;

function main(argv: readonly string[]): number {
  const [verb, ...rest] = argv;
  if (verb === '--help' || verb === '-h') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (verb !== 'verify') return usage(verb === undefined ? 'name a verb' : `unknown verb "${verb}"`);
  let digest: string | undefined;
  let json = false;
  let directory: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const argument = rest[i] as string;
    if (argument === '--json') json = true;
    else if (argument === '--digest' || argument.startsWith('--digest=')) {
      digest = argument === '--digest' ? rest[++i] : argument.slice('--digest='.length);
      if (digest === undefined || !normalizeDigest(digest))
        return usage(`--digest ${digest ?? ''} is not sha256:<64 hex digits>`.replace(/ +$/, ''));
    } else if (argument.startsWith('-')) return usage(`unknown option ${argument}`);
    else if (directory === undefined) directory = argument;
    else return usage(`unexpected argument ${argument}`);
  }
  const result = verifyArtifacts(directory ?? packageDirectory(), digest === undefined ? {} : { digest });
  process.stdout.write(json ? `${JSON.stringify(result, null, 2)}\n` : describeArtifacts(result));
  return result.ok ? 0 : 1;
}

function usage(problem: string): number {
  process.stderr.write(`${BIN}: ${problem}\n${USAGE}\n`);
  return 2;
}

process.exitCode = main(process.argv.slice(2));
