/** `openwop-spec pack [--out DIR]`: build @openwop/spec-artifacts from a corpus whose gates pass. */
import type { Command } from 'commander';
import { isActive, note, visibleLines } from '../core/output/index.js';
import { runCorpus } from '../core/run/index.js';
import {
  NpmPackError,
  packCorpus,
  StageError,
  readPackageManifest,
  loadSigningKey,
  SIGNING_KEY_ENV,
  SIGNING_KEY_FILE_ENV,
  SigningKeyError,
} from '../core/release/index.js';
import { EXIT, exitCodeFor, openCorpus, printDiagnostics, UsageError, configOption, rootOption } from './common.js';
import { configureRun } from './run-setup.js';

interface PackOptions {
  root: string;
  config?: string;
  out: string;
  signingKey?: string;
  unsigned?: boolean;
}

export function register(program: Command): void {
  program
    .command('pack')
    .description(
      'pack @openwop/spec-artifacts (corpus, stamps, types, README, package.json) with npm pack; refuses unless generate --check and check pass',
    )
    .addOption(rootOption())
    .addOption(configOption())
    .option('--out <dir>', 'directory to write the .tgz (and its .dsse.json signature) into', '.')
    .option(
      '--signing-key <file>',
      `ed25519 private key (PEM) to sign with; else $${SIGNING_KEY_ENV} (the PEM) or $${SIGNING_KEY_FILE_ENV}`,
    )
    .option('--unsigned', 'pack without a signature (for local builds; a release is signed)')
    .action(async (options: PackOptions) => {
      process.exitCode = await runPack(options);
    });
}

export async function runPack(options: PackOptions): Promise<number> {
  const started = Date.now();
  // The run `check` makes with the same config, suppressions and findings baseline: pack refuses exactly when it fails.
  const run = configureRun(options);
  const corpus = openCorpus(options.root, { ...options, config: run.config });
  const manifest = readPackageManifest(corpus.root);
  if (!('version' in manifest)) throw new UsageError(`cannot pack ${corpus.root}: ${manifest.problem}`);
  // That the version is one and a released version is not stamped over is the run's to say (release/version).

  let signingKey;
  try {
    signingKey = loadSigningKey(options.signingKey);
  } catch (error) {
    if (error instanceof SigningKeyError) throw new UsageError(error.message);
    throw error;
  }
  if (!signingKey && !options.unsigned)
    throw new UsageError(
      `no signing key: pass --signing-key FILE or set $${SIGNING_KEY_ENV} or $${SIGNING_KEY_FILE_ENV}, or --unsigned for a local build`,
    );
  if (signingKey && options.unsigned) throw new UsageError('--unsigned and a signing key contradict each other');

  const judged = runCorpus(corpus, run.options).diagnostics;
  if (exitCodeFor(judged, run.policy) !== EXIT.clean) {
    const failing = judged.filter(isActive);
    printDiagnostics(judged, 'stylish', corpus.files.size, run.rules);
    note(
      `pack refused: \`check\` fails on this corpus (${failing.length} finding${failing.length === 1 ? '' : 's'} above); fix them, or run \`check --fix\`, then pack again\n`,
    );
    return EXIT.findings;
  }

  let packed;
  try {
    packed = await packCorpus(corpus, {
      version: manifest.version,
      license: manifest.license,
      out: options.out,
      signingKey,
    });
  } catch (error) {
    if (error instanceof StageError) {
      for (const problem of error.problems) note(`  ${problem.file}  ${problem.message}\n`);
      note(`pack refused: ${error.message}\n`);
      return EXIT.findings;
    }
    if (error instanceof NpmPackError) {
      note(`pack failed: ${error.message}\n`);
      return EXIT.findings;
    }
    throw error;
  }
  const { corpus: corpusFiles, types, modules, schemaIndex, stamps } = packed.counts;
  // The package name and version come from the corpus: shown as every other corpus text is.
  process.stdout.write(
    visibleLines(
      [
        `${packed.package}@${packed.version}: ${packed.files} files (${corpusFiles} corpus, ${types} type declarations, ${modules} verifier and validator modules, ${schemaIndex} schema index and vocabulary, ${stamps} stamps, README.md and package.json)`,
        `size:      ${kilobytes(packed.size)} packed, ${kilobytes(packed.unpackedSize)} unpacked`,
        `digest:    ${packed.digest}`,
        `integrity: ${packed.integrity}`,
        `tarball:   ${packed.tarball}`,
        packed.signature
          ? `signature: ${packed.signature.file} (key ${packed.signature.keyFingerprint})`
          : 'signature: none (--unsigned)',
        '',
      ].join('\n'),
    ),
  );
  note(`packed in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return EXIT.clean;
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1000).toFixed(1)} kB`;
}
