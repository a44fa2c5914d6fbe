/**
 * The run as the command line configures it, shared by every verb that judges the corpus (`check`
 * and `pack`'s refusal, which must agree): the config, the rules chosen and their settings, the
 * previous release, the suppressions file, the findings baseline and the fail policy. Usage
 * errors are one line (UsageError); what follows is core/run's pipeline.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, DEFAULT_SUPPRESSIONS, readConfigText, ruleSettings, type Config } from '../core/config/index.js';
import { guardedPath, OutsideRootError, ReadRefused } from '../core/fs/index.js';
import { findPreviousRelease, previousReleaseProblem } from '../core/release/index.js';
import {
  enabledByOverride,
  FindingsBaselineError,
  overrideSettings,
  parseFindingsBaseline,
  selectRules,
  type BaselineEntry,
  type PipelineOptions,
} from '../core/run/index.js';
import { catalogFor, type CatalogRule } from './catalog.js';
import { openConfig, TOOL_NAME, UsageError, usingConfig, type FailPolicy } from './common.js';
import { note } from '../core/output/index.js';

export interface RunFlags {
  root: string;
  config?: string;
  /** --rule: the rules to run (ids or `family/*`); empty: every rule the config leaves on. */
  rule?: readonly string[];
  previousRelease?: string;
  baselineFindings?: string;
  update?: boolean;
  quiet?: boolean;
  maxWarnings?: string;
  failSeverity?: string;
  /** Injected in tests; the run uses today's UTC date. */
  today?: string;
}

interface RunPolicy extends FailPolicy {
  quiet?: boolean;
  /** Absolute. */
  baselineFindings?: string;
}

export interface ConfiguredRun {
  config: Config;
  /** For core/run's runCorpus and fixCorpus; `files` is the caller's to add. */
  options: PipelineOptions;
  policy: RunPolicy;
  /** The rules that run, each with the severity the config gives it (for the reporters). */
  rules: CatalogRule[];
}

export function configureRun(flags: RunFlags): ConfiguredRun {
  const patterns = flags.rule ?? [];
  // The config's house rules are rules like the built-in ones from here on.
  const { catalog, config } = usingConfig(() => catalogFor(openConfig(flags.root, flags.config)));
  const { selected: chosen, unknown } = selectRules(catalog.rules, patterns);
  if (unknown.length > 0) throw new UsageError(`unknown rule ${unknown.join(', ')}; \`${TOOL_NAME} rules\` lists them`);
  const policy = runPolicy(flags, config);
  const settings = usingConfig(() => ruleSettings(config, catalog.rules));
  // A rule named with --rule runs even when the config turns it off: the command line is the
  // narrower, later word, as it is for other linters.
  for (const rule of chosen) {
    const setting = settings.get(rule.id);
    if (patterns.length > 0 && setting && !setting.enabled)
      settings.set(rule.id, { ...setting, enabled: true, severity: rule.severity, configured: false });
  }
  // A rule off at the top level still runs when an override turns it on for some files.
  const rules = chosen
    .filter((rule) => settings.get(rule.id)?.enabled !== false || enabledByOverride(config, settings, rule.id))
    .map((rule) => ({ ...rule, severity: settings.get(rule.id)?.severity ?? rule.severity }));
  const settingsFor = usingConfig(() => overrideSettings(config, catalog.rules, settings));
  const root = path.resolve(flags.root);
  const previousRelease = previousReleaseOf(root, flags.previousRelease);
  const baseline = policy.baselineFindings && !flags.update ? readBaseline(policy.baselineFindings) : undefined;
  const suppressions = suppressionsFile(root, config);
  const options: PipelineOptions = {
    catalog,
    ran: new Set(rules.map((rule) => rule.id)),
    settings: settings,
    ...(settingsFor ? { settingsFor } : {}),
    today: flags.today ?? new Date().toISOString().slice(0, 10),
    ...(previousRelease ? { previousRelease } : {}),
    ...(suppressions ? { suppressions } : {}),
    ...(baseline ? { baseline } : {}),
  };
  return { config, options, policy, rules };
}

/** The config's policy with the flags over it; paths in the config are relative to the root, on the command line to the working directory. */
function runPolicy(flags: RunFlags, config: Config): RunPolicy {
  const policy: RunPolicy = { ...config.policy };
  delete (policy as { suppressions?: string }).suppressions;
  if (config.policy.baselineFindings)
    policy.baselineFindings = baselineInRoot(flags.root, config.policy.baselineFindings);
  if (flags.baselineFindings !== undefined) policy.baselineFindings = path.resolve(flags.baselineFindings);
  if (flags.update && !policy.baselineFindings)
    throw new UsageError(
      '--update writes the findings baseline: name it with --baseline-findings FILE (or baselineFindings in the config)',
    );
  if (flags.quiet) policy.quiet = true;
  if (flags.maxWarnings !== undefined) {
    if (!/^(\d+|-1)$/.test(flags.maxWarnings))
      throw new UsageError(
        `--max-warnings ${JSON.stringify(flags.maxWarnings)} is not a whole number (or -1, no limit)`,
      );
    // -1 is no limit, as ESLint takes it: a flag that lifts the config's limit for one run.
    if (flags.maxWarnings === '-1') delete policy.maxWarnings;
    else policy.maxWarnings = Number(flags.maxWarnings);
  }
  if (flags.failSeverity !== undefined) {
    if (flags.failSeverity !== 'error' && flags.failSeverity !== 'warning')
      throw new UsageError(`--fail-severity ${JSON.stringify(flags.failSeverity)}: use error or warning`);
    policy.failSeverity = flags.failSeverity;
  }
  return policy;
}

/**
 * The config's findings baseline: a file of the checkout, so inside the root by its spelling and
 * through every directory on the way (read and written there, never through a link out of it).
 */
function baselineInRoot(root: string, relative: string): string {
  try {
    return guardedPath(path.resolve(root), relative);
  } catch (error) {
    if (error instanceof OutsideRootError)
      throw new UsageError(`the findings baseline ${relative} (config: baselineFindings): ${error.message}`);
    throw error;
  }
}

/** The previous release to compare with, as the gates take it; a wrong --previous-release is a usage error, not a finding. */
function previousReleaseOf(root: string, given: string | undefined): string | undefined {
  if (given === undefined) return findPreviousRelease(root);
  if (given === 'none') {
    // Said, so that a run that compares with nothing never looks like one that compared and passed.
    note('no comparison with a previous release (--previous-release none)\n');
    return undefined;
  }
  // A path is taken from the working directory, as every path on the command line is.
  const spec = given.startsWith('git:') || !existsSync(path.resolve(given)) ? given : path.resolve(given);
  const problem = previousReleaseProblem(root, spec);
  if (problem) throw new UsageError(problem);
  return spec;
}

function readBaseline(file: string): BaselineEntry[] {
  let text: string;
  try {
    text = readConfigText(file, 'findings baseline');
  } catch (error) {
    if (error instanceof ConfigError) throw new UsageError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(
      code === 'ENOENT'
        ? `findings baseline ${displayPath(file)} does not exist; write it with \`${TOOL_NAME} check --baseline-findings ${displayPath(file)} --update\``
        : `cannot read findings baseline ${displayPath(file)}: ${code ?? String(error)}`,
    );
  }
  try {
    return parseFindingsBaseline(text, displayPath(file));
  } catch (error) {
    if (error instanceof FindingsBaselineError) throw new UsageError(error.message);
    throw error;
  }
}

/**
 * The suppressions file of the config (or the default one, when it is there): read inside the root
 * without following a link (a linked file is refused with one line; its content is never printed).
 */
function suppressionsFile(root: string, config: Config): { path: string; text: string } | undefined {
  const relative = config.policy.suppressions ?? DEFAULT_SUPPRESSIONS;
  try {
    return { path: relative, text: readConfigText(guardedPath(root, relative), 'suppressions file') };
  } catch (error) {
    if (error instanceof ReadRefused && error.code === 'ENOENT') {
      if (config.policy.suppressions)
        throw new UsageError(`the suppressions file ${relative} (config: suppressions) does not exist`);
      return undefined;
    }
    if (error instanceof OutsideRootError) throw new UsageError(`the suppressions file ${relative}: ${error.message}`);
    if (error instanceof ConfigError) throw new UsageError(error.message);
    throw error;
  }
}

/** A path as the user would type it: relative to the working directory when it is under it. */
export function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') ? relative : file;
}
