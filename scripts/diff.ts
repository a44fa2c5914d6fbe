/** `openwop-spec diff <old> <new>`: what changed between two releases, and what version bump it needs. */
import path from 'node:path';
import type { Command } from 'commander';
import type { Corpus } from '../core/model/index.js';
import { planGeneration } from '../core/run/index.js';
import { diffReleases, semverVerdict } from '../core/release/index.js';
import { DIFF_FORMATS, formatJson, formatMarkdown, formatPatch, formatStylish, type DiffFormat } from '../core/release/index.js';
import { loadRelease, type Release } from '../core/release/index.js';
import { ReleaseSourceError } from '../core/release/index.js';
import { ALL_GENERATORS as GENERATORS } from './catalog.js';
import { stopCommands } from '../core/output/index.js';
import { EXIT, UsageError } from './common.js';

interface DiffOptions {
  root: string;
  format: string;
  checkSemver?: boolean;
}

export function register(program: Command): void {
  program
    .command('diff')
    .description('semantic diff of two releases (each a directory, a .tgz, or git:<ref>), each change classified breaking, additive or editorial')
    .argument('<old>', 'the earlier release')
    .argument('<new>', 'the later release')
    .option('--root <dir>', 'resolve relative paths and git:<ref> from this directory', '.')
    .option('--format <format>', 'stylish | json | markdown | patch', 'stylish')
    .option('--check-semver', 'exit 1 when the version bump is smaller than the changes require')
    .action((older: string, newer: string, options: DiffOptions) => {
      process.exitCode = runDiff(older, newer, options);
    });
}

export function runDiff(older: string, newer: string, options: DiffOptions): number {
  if (!(DIFF_FORMATS as readonly string[]).includes(options.format)) throw new UsageError(`unknown format "${options.format}"; use one of ${DIFF_FORMATS.join(', ')}`);
  const format = options.format as DiffFormat;
  const root = path.resolve(options.root);
  const before = load(older, root);
  const after = load(newer, root);
  const diff = diffReleases(before, after, generatedFiles);
  const semver = options.checkSemver ? semverVerdict(diff) : undefined;

  if (format === 'json') process.stdout.write(formatJson(diff, semver));
  else if (format === 'markdown') process.stdout.write(formatMarkdown(diff));
  else if (format === 'patch') process.stdout.write(formatPatch(diff, before, after));
  else process.stdout.write(stopCommands(formatStylish(diff, semver?.message)));
  if (semver && format !== 'stylish' && format !== 'json') process.stderr.write(`${semver.message}\n`);
  return semver && !semver.ok ? EXIT.findings : EXIT.clean;
}

function load(spec: string, root: string): Release {
  try {
    return loadRelease(spec, root);
  } catch (error) {
    if (error instanceof ReleaseSourceError) throw new UsageError(error.message);
    throw error;
  }
}

/** Generated files and the inputs of the generators that write them (for `derived` changes). */
function generatedFiles(corpus: Corpus): Map<string, string[]> {
  const inputs = new Map(GENERATORS.map((generator) => [generator.id, generator.inputs]));
  const plan = planGeneration(corpus, GENERATORS.filter((generator) => !generator.runsLast));
  return new Map(plan.files.map((file) => [file.path, file.generators.flatMap((id) => inputs.get(id) ?? [])]));
}
