/** `openwop-spec check [FILE…]`: core/run's pipeline over the corpus (with --fix, to a fixed point), then the report. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { globSync } from 'glob';
import { effectiveConfig, type Config, type ConfigurableRule, type RuleSetting } from '../core/config/index.js';
import type { Corpus } from '../core/model/index.js';
import {
  failureReason,
  FORMATS,
  isActive,
  JOURNAL,
  note,
  writeFileAtomic,
  safeJson,
  visibleLines,
} from '../core/output/index.js';
import { unifiedHunks } from '../core/release/index.js';
import {
  fixCorpus,
  judgedAgainst,
  parseFindingsBaseline,
  renderFindingsBaseline,
  runCorpus,
  type FixOutcome,
  type RunResult,
} from '../core/run/index.js';
import { catalogFor } from './catalog.js';
import { editSuppressionsFile, suppressedRules } from './check-suppress.js';
import {
  checkFormat,
  collect,
  EXIT,
  exitCodeFor,
  finishInterruptedWrites,
  openCorpus,
  printReports,
  say,
  TOOL_NAME,
  UsageError,
  usingConfig,
  writeOutputSet,
  type ReportTarget,
  configOption,
  rootOption,
} from './common.js';
import { reportOptions } from './report-targets.js';
import { configureRun, displayPath, type RunFlags } from './run-setup.js';

/** The flags of `check`: those of the run (run-setup.ts), and what it does with the outcome. */
export interface CheckOptions extends RunFlags {
  /** One report: --format and --output as the single pair (runs that name several give `reports`). */
  format?: string;
  /** Every report of the run, from `--format F --output FILE` repeated. */
  reports?: ReportTarget[];
  cache?: boolean;
  rule: string[];
  fix?: boolean;
  fixDryRun?: boolean;
  output?: string;
  color?: boolean;
  printConfig?: string;
  suppress?: string[];
  reason?: string;
  pruneSuppressions?: boolean;
}

export function register(program: Command): void {
  const reports = reportOptions();
  program
    .command('check')
    .description(
      'run the corpus gates (and the generated-output drift gate); with FILE arguments, report only on those files and what depends on them',
    )
    .argument('[files...]', 'files, directories or globs (relative to the working directory) to report on')
    .addOption(rootOption())
    .addOption(configOption())
    .option('--print-config <file>', 'print the rules and options the config gives this file (JSON), and check nothing')
    .option(
      '--format <format>',
      `the report's form: ${FORMATS.join(' | ')} (default stylish); repeatable, each with its own --output`,
      reports.format,
    )
    .option(
      '--output <file>',
      'write the report of the --format before it to this file instead of stdout (repeatable, one for each --format)',
      reports.output,
    )
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .option('--rule <id>', 'run only this rule (repeatable; family/* selects a family)', collect, [])
    .option('--fix', 'apply the fixes findings carry and regenerate what is stale, then report what remains')
    .option('--fix-dry-run', 'print, as a patch, what --fix would change; write nothing')
    .option('--quiet', 'report errors only (warnings still count for --max-warnings)')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this')
    .option('--fail-severity <severity>', 'the least severity that fails the run: error | warning')
    .option(
      '--previous-release <release>',
      'the previous release, for gates that compare against one: a directory, a .tgz, git:<ref>, or none to compare with nothing (default: found from spec/v2/release.json or the newest version tag)',
    )
    .option('--baseline-findings <file>', 'accept the findings recorded in this file: only new ones fail')
    .option('--update', 'with --baseline-findings, record the current findings in it')
    .option(
      '--suppress <rule>',
      'write a suppression of each current finding of this rule (repeatable; family/*) into the suppressions file; needs --reason',
      collect,
      [],
    )
    .option('--reason <text>', 'with --suppress, why the findings are accepted (written into each entry)')
    .option('--prune-suppressions', 'remove from the suppressions file the entries that match no finding any more')
    .option('--color', 'colour the stylish report even when stdout is not a terminal')
    .option('--no-color', 'never colour the report')
    .action((files: string[], options: CheckOptions) => {
      process.exitCode = runCheck({ ...options, reports: reports.targets() }, files);
    });
}

export function runCheck(options: CheckOptions, files: readonly string[] = []): number {
  const reportTargets = options.reports ?? [
    {
      format: checkFormat(options.format ?? 'stylish'),
      ...(options.output !== undefined ? { output: options.output } : {}),
    },
  ];
  if (options.fix && options.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other');
  const run = configureRun(options);
  const { config, policy } = run;
  const suppressing = suppressedRules(options, run.options.catalog.rules);
  if (options.printConfig !== undefined)
    return printConfig(
      options,
      config,
      usingConfig(() => catalogFor(config)).catalog.rules,
      run.options.settings,
      options.printConfig,
    );

  // A killed generate or check --fix left a journal: --fix finishes it, so that it fixes the new set;
  // a plain check reports what is on disk, and says why some outputs may be stale.
  if (options.fix) finishInterruptedWrites(options.root);
  else if (existsSync(path.join(path.resolve(options.root), JOURNAL)))
    note(
      say(
        `an interrupted generate left ${JOURNAL}: some outputs were not replaced; run \`${TOOL_NAME} generate\` (or \`${TOOL_NAME} check --fix\`) to finish\n`,
      ),
    );
  const corpus = openCorpus(options.root, { ...options, config });
  const pipeline = files.length > 0 ? { ...run.options, files: selectFiles(corpus, files) } : run.options;

  let result: RunResult;
  if (options.fix || options.fixDryRun) {
    const outcome = fixCorpus(corpus, pipeline);
    if (outcome.generationBlocked)
      note('generated output not refreshed: a generator reports errors (see the report)\n');
    if (options.fixDryRun) {
      const patch = outcome.files
        .map(
          (file) =>
            `--- ${file.before === undefined ? '/dev/null' : `a/${file.path}`}\n+++ b/${file.path}\n${unifiedHunks(file.before ?? '', file.after)}`,
        )
        .join('');
      // The patch carries the corpus's own text. On a terminal it is read, so every line is made
      // visible (no escape sequence of a corpus file reaches the terminal); piped, it is a patch to
      // apply, byte for byte what --fix writes.
      process.stdout.write(process.stdout.isTTY ? visibleLines(patch) : patch);
      note(`${describeChanges(outcome)}; nothing written (--fix-dry-run)\n`);
      return EXIT.clean;
    }
    // One set, as generate writes it: a kill part-way leaves a journal the next run finishes.
    if (outcome.files.length > 0) {
      writeOutputSet(corpus, outcome.files);
      note(`${describeChanges(outcome)}\n`);
    }
    result = outcome.result;
  } else {
    result = runCorpus(corpus, pipeline);
  }

  // --suppress and --prune-suppressions edit the suppressions file; the report is of the file as written.
  const edited = editSuppressionsFile(
    result.corpus.root,
    run.options.suppressions,
    config,
    result.diagnostics,
    suppressing,
    options.reason ?? '',
    options.pruneSuppressions === true,
  );
  if (edited) result = runCorpus(result.corpus, { ...pipeline, suppressions: edited });

  let judged = result.diagnostics;
  if (options.update && policy.baselineFindings) {
    const written = renderFindingsBaseline(judged.filter(isActive));
    writeFileAtomic(policy.baselineFindings, written);
    const count = judged.filter(isActive).length;
    note(`wrote ${displayPath(policy.baselineFindings)}: ${count} finding${count === 1 ? '' : 's'} accepted\n`);
    judged = judgedAgainst(judged, parseFindingsBaseline(written, policy.baselineFindings));
  }

  const hidden = policy.quiet ? judged.filter((d) => isActive(d) && d.severity === 'warning') : [];
  const shown = policy.quiet ? judged.filter((d) => !(isActive(d) && d.severity === 'warning')) : judged;
  const failure = failureReason(judged, policy);
  const sourceOf = (file: string): string | undefined => {
    const entry = result.corpus.get(file);
    return entry && entry.kind !== 'binary' ? entry.text : undefined;
  };
  printReports(shown, reportTargets, result.scope?.size ?? result.corpus.files.size, run.rules, {
    ...(failure ? { failure } : {}),
    fixCommand: `${TOOL_NAME} check --fix`,
    source: sourceOf,
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(policy.baselineFindings
      ? { baselineUpdate: `${TOOL_NAME} check --baseline-findings ${displayPath(policy.baselineFindings)} --update` }
      : {}),
    hiddenWarnings: hidden.length,
  });
  return exitCodeFor(judged, policy);
}

/** `--print-config FILE`: the effective config of one file (relative to the working directory), as JSON. */
function printConfig(
  options: CheckOptions,
  config: Config,
  rules: readonly ConfigurableRule[],
  settings: ReadonlyMap<string, RuleSetting>,
  file: string,
): number {
  const root = path.resolve(options.root);
  const relative = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  if (relative === '..' || relative.startsWith('../') || path.isAbsolute(relative))
    throw new UsageError(`--print-config ${file} is outside the corpus root ${root}`);
  const effective = usingConfig(() => effectiveConfig(config, rules, settings, relative));
  // The config's own strings (globs, paths) may carry what a terminal or a CI log interprets.
  process.stdout.write(
    `${safeJson(JSON.stringify({ ...effective, config: config.source ? displayPath(config.source) : null }, null, 2))}\n`,
  );
  return EXIT.clean;
}

function describeChanges(outcome: FixOutcome): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const fixed = `fixed ${plural(outcome.fixes, 'problem')} in ${plural(outcome.fixedFiles, 'file')}`;
  return outcome.regenerated > 0 ? `${fixed}; regenerated ${plural(outcome.regenerated, 'generated file')}` : fixed;
}

/** The corpus files the arguments name (paths, directories or globs, relative to the working directory), root-relative. */
function selectFiles(corpus: Corpus, args: readonly string[]): Set<string> {
  const selected = new Set<string>();
  const toCorpus = (absolute: string): string => path.relative(corpus.root, absolute).split(path.sep).join('/');
  for (const arg of args) {
    const absolute = path.resolve(arg);
    let matched: string[];
    if (existsSync(absolute)) {
      const relative = toCorpus(absolute);
      matched = statSync(absolute).isDirectory()
        ? [...corpus.files.keys()].filter((file) => relative === '' || file.startsWith(`${relative}/`))
        : corpus.files.has(relative)
          ? [relative]
          : [];
    } else {
      matched = globSync(arg, { absolute: true, nodir: true })
        .map(toCorpus)
        .filter((file) => corpus.files.has(file));
    }
    if (matched.length === 0) throw new UsageError(`${arg} names no file of the corpus at ${corpus.root}`);
    for (const file of matched) selected.add(file);
  }
  return selected;
}
