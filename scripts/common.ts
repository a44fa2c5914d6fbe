/** What every verb shares: the root, loading the corpus, choosing a reporter, exit codes. */
import path from 'node:path';
import { globSync } from 'glob';
import { timed } from '../core/run/index.js';
import { Corpus, CorpusError, loadCorpus } from '../core/model/index.js';
import { Option, type Command } from 'commander';
import {
  ConfigError,
  configName,
  discoverConfig,
  loadConfig,
  type Config,
  CONFIG_FILES,
} from '../core/config/index.js';
import {
  type Diagnostic,
  type FailPolicy,
  FORMATS,
  isActive,
  note,
  recoverWrites,
  REPORTERS,
  type RuleMeta,
  stopCommands,
  summarize,
  writeFileAtomic,
  writeSetAtomic,
} from '../core/output/index.js';
import { expandGlob, givenTarget, isInsideBySpelling, LinkRefused } from '../core/fs/index.js';

import { EXIT, say, UsageError, toolVersion, TOOL_NAME } from './tool.js';

export { EXIT, say, TOOL_NAME, toolVersion, UsageError };
export type { FailPolicy };

/**
 * Where a verb that reads a corpus runs when `--root` is not given: the directory of the config
 * file found from the working directory upwards (to the repository root), else the repository
 * root, else the working directory (core/config discoverConfig). Paths on the command line stay
 * relative to the working directory. Called before the verb's action.
 */
export function locateCorpus(command: Command): void {
  if (command.getOptionValueSource('root') === 'cli') return;
  try {
    command.setOptionValueWithSource('root', discoverConfig(process.cwd()).root, 'config');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * `--root`, as every verb that reads a corpus declares it: one name, one help text, one default.
 * Its default is the working directory until locateCorpus (run before the action) moves it.
 */
export function rootOption(): Option {
  return new Option('--root <dir>', 'corpus root').default(
    '.',
    "the config file's directory, found from the working directory upwards, else the repository root",
  );
}

/** `--config`, as every verb that reads a config declares it. */
export function configOption(): Option {
  return new Option(
    '--config <file>',
    `config file (default: ${CONFIG_FILES.join(', ')} at the root, the first there is)`,
  );
}

/** `--format`, for a verb printing one report in one of `formats`; an unknown one is the verb's usage error. */
export function formatOption(formats: readonly string[], fallback: string): Option {
  return new Option('--format <format>', `the report's form: ${formats.join(' | ')}`).default(fallback);
}

/** The config of a run: `--config FILE`, else the root's config file, else the defaults. */
export function openConfig(root: string, explicit?: string): Config {
  try {
    return loadConfig(root, explicit);
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export function openCorpus(root: string, options: { cache?: boolean; config?: string | Config } = {}): Corpus {
  const config = typeof options.config === 'object' ? options.config : openConfig(root, options.config);
  try {
    const corpus = timed('load corpus', () => loadCorpus(root, { cache: options.cache !== false, config }));
    // A root where the include globs match nothing is a wrong --root far more often than an empty
    // corpus; passing it silently would report "no problems" about nothing.
    if (corpus.files.size === 0 && !corpusDirectoryPresent(corpus.root, config))
      throw new UsageError(
        `no corpus under ${root}: nothing there matches ${config.include.join(', ')} (config: ${configName(config)})`,
      );
    return corpus;
  } catch (error) {
    if (error instanceof CorpusError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * Whether the include globs name a directory that is there (an empty spec/, say): then the root is
 * right and the corpus is empty, which the gates report (every required file is missing).
 */
function corpusDirectoryPresent(root: string, config: Config): boolean {
  try {
    return globSync(config.include.flatMap(expandGlob).filter(isInsideBySpelling), {
      cwd: root,
      dot: false,
      follow: false,
      withFileTypes: true,
      ignore: ['**/node_modules/**'],
    }).some((entry) => entry.isDirectory());
  } catch {
    return false;
  }
}

/**
 * Finishes the set of writes a killed `generate` or `check --fix` left journalled under `root`,
 * before this run reads the corpus, so that it starts from the new set, and says what it did.
 */
export function finishInterruptedWrites(root: string): void {
  const { completed, failed } = recoverWrites(path.resolve(root));
  if (completed.length > 0) note(`finished an interrupted generate: replaced ${completed.join(', ')}\n`);
  if (failed.length > 0) note(`could not finish an interrupted generate for ${failed.join(', ')}; regenerating\n`);
}

/**
 * Writes the files of one run (generate's outputs, check --fix's fixed and regenerated files) as
 * one set: every file staged before any is replaced, the renames journalled, the stamp last, since
 * until every file it digests is in place it still describes the old set. Temporaries abandoned by
 * killed runs in those directories (and in those of `outputs`) go first; they are never read.
 */
export function writeOutputSet(
  corpus: Corpus,
  files: ReadonlyArray<{ path: string; content: Buffer }>,
  outputs: Iterable<string> = [],
): void {
  const stamp = corpus.config.layout.stamp;
  const ordered = [...files].sort((a, b) => Number(a.path === stamp) - Number(b.path === stamp));
  recoverWrites(
    corpus.root,
    new Set([...outputs, ...ordered.map((file) => file.path)].map((file) => path.posix.dirname(file))),
  );
  writeSetAtomic(corpus.root, ordered);
}

/** Turns a config problem found after loading (a rule setting) into the one-line usage error it is. */
export function usingConfig<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

export function checkFormat(format: string): string {
  if (!REPORTERS[format]) throw new UsageError(`unknown format "${format}"; use one of ${FORMATS.join(', ')}`);
  return format;
}

/** Where a report goes and how it looks: the flags every reporting verb shares. */
export interface OutputOptions {
  /** Write the report to this file (atomically) instead of stdout. */
  output?: string;
  /** --color / --no-color; undefined: the environment decides. */
  color?: boolean;
  /** The command that rewrites the findings baseline, for the hint when entries of it are fixed. */
  baselineUpdate?: string;
  /** Warnings left out of the report (--quiet), still counted in the summary line. */
  hiddenWarnings?: number;
  /** Why the run fails, said by the reports that have a summary. */
  failure?: string;
  /** The command that applies the fixes findings carry (check has one). */
  fixCommand?: string;
  /** The text of a corpus file, for reports that show source lines (html). */
  source?: (file: string) => string | undefined;
}

/** One report of a run: a format, and the file it goes to (stdout when none). */
export interface ReportTarget {
  format: string;
  output?: string;
}

export function printDiagnostics(
  diagnostics: readonly Diagnostic[],
  format: string,
  files: number,
  rules: readonly RuleMeta[],
  io: OutputOptions = {},
): void {
  printReports(diagnostics, [{ format, ...(io.output !== undefined ? { output: io.output } : {}) }], files, rules, io);
}

/** Every report of a run from the same findings; each file is written whole or not at all. */
export function printReports(
  diagnostics: readonly Diagnostic[],
  targets: readonly ReportTarget[],
  files: number,
  rules: readonly RuleMeta[],
  io: Omit<OutputOptions, 'output'> = {},
): void {
  const summary = {
    ...summarize(diagnostics, files),
    ...(io.hiddenWarnings ? { hiddenWarnings: io.hiddenWarnings } : {}),
  };
  const said = diagnostics.map((d) => ({
    ...d,
    message: say(d.message),
    ...(d.hint !== undefined ? { hint: say(d.hint) } : {}),
  }));
  const context = {
    summary,
    rules,
    toolName: TOOL_NAME,
    toolVersion: toolVersion(),
    ...(io.baselineUpdate ? { baselineUpdate: say(io.baselineUpdate) } : {}),
    ...(io.failure ? { failure: io.failure } : {}),
    ...(io.fixCommand ? { fixCommand: say(`\`${io.fixCommand}\``).slice(1, -1) } : {}),
    ...(io.source ? { source: io.source } : {}),
  };
  for (const target of targets) {
    const reporter = REPORTERS[target.format];
    if (!reporter) throw new UsageError(`unknown format "${target.format}"`);
    const color =
      target.format === 'stylish' && target.output === undefined && useColor(io.color, process.stdout.isTTY === true);
    const output = reporter(said, { ...context, color });
    // A human report in a CI log carries no workflow command; the github format is made of them.
    emit(target.format === 'stylish' && target.output === undefined ? stopCommands(output) : output, target.output);
  }
}

/** stdout, or the --output file, written whole or not at all. */
export function emit(text: string, output?: string): void {
  if (output === undefined) {
    process.stdout.write(text);
    return;
  }
  // Where the user said, inside the root or not, but never through a link in its last component.
  let target: string;
  try {
    target = givenTarget(output);
  } catch (error) {
    if (error instanceof LinkRefused) throw new UsageError(`--output ${error.message}`);
    throw error;
  }
  writeFileAtomic(target, text, output);
}

/**
 * Colour, as the conventions have it: the flag wins; then FORCE_COLOR (set and not empty: on,
 * unless it is 0 or false, as Node and supports-color read it); then NO_COLOR (set and not empty:
 * off, no-color.org); else on only at a terminal that is not dumb.
 */
export function useColor(flag: boolean | undefined, isTTY: boolean, env: NodeJS.ProcessEnv = process.env): boolean {
  if (flag !== undefined) return flag;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  return isTTY && env.TERM !== 'dumb';
}

export function exitCodeFor(diagnostics: readonly Diagnostic[], policy: FailPolicy = {}): number {
  const active = diagnostics.filter(isActive);
  if (active.some((d) => d.severity === 'error')) return EXIT.findings;
  const warnings = active.filter((d) => d.severity === 'warning').length;
  if (policy.failSeverity === 'warning' && warnings > 0) return EXIT.findings;
  if (policy.maxWarnings !== undefined && warnings > policy.maxWarnings) {
    note(
      `${TOOL_NAME}: ${warnings} warning${warnings === 1 ? '' : 's'}, more than --max-warnings ${policy.maxWarnings} allows\n`,
    );
    return EXIT.findings;
  }
  return EXIT.clean;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
