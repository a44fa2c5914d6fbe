/** `openwop-spec check [FILE…]`: the drift gate, then every gate, over one corpus model; then the run's policy. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { globSync } from 'glob';
import { CHECKS } from '../checks/index.js';
import { DEFAULT_SUPPRESSIONS, effectiveConfig, ruleSettings, type Config, type RuleSetting } from '../core/config/index.js';
import { corpusFromFiles, type Corpus } from '../core/model/index.js';
import { encodeText, isActive, JOURNAL, sortDiagnostics, writeFileAtomic, type Diagnostic } from '../core/output/index.js';
import { registryMentionDependents } from '../core/registries/index.js';
import { findPreviousRelease, previousReleaseProblem, unifiedHunks } from '../core/release/index.js';
import {
  applyFixes,
  applyOverrides,
  applySuppressions,
  compareWithBaseline,
  dependentScope,
  DRIFT_RULE,
  driftDiagnostics,
  enabledByOverride,
  FindingsBaselineError,
  parseFindingsBaseline,
  planGeneration,
  REGION_RULE,
  renderFindingsBaseline,
  prepareChecks,
  runChecks,
  selectRules,
  withFingerprints,
  type BaselineEntry,
  type Check,
  type Suppression,
} from '../core/run/index.js';
import { causeFirst, parseFailuresFirst, relocateGenerated, type GenerationPlan } from '../core/run/index.js';
import { ALL_GENERATORS, ALL_RULES } from './catalog.js';
import { editSuppressionsFile, suppressedRules } from './check-suppress.js';
import { checkFormat, collect, emit, EXIT, exitCodeFor, finishInterruptedWrites, openConfig, openCorpus, printDiagnostics, say, TOOL_NAME, UsageError, usingConfig, writeOutputSet } from './common.js';

export { ALL_RULES } from './catalog.js';

export interface CheckOptions {
  root: string;
  config?: string;
  format: string;
  cache?: boolean;
  rule: string[];
  fix?: boolean;
  fixDryRun?: boolean;
  previousRelease?: string;
  baselineFindings?: string;
  update?: boolean;
  quiet?: boolean;
  maxWarnings?: string;
  failSeverity?: string;
  output?: string;
  color?: boolean;
  printConfig?: string;
  suppress?: string[];
  reason?: string;
  pruneSuppressions?: boolean;
  /** Injected in tests; the run uses today's UTC date. */
  today?: string;
}

export function register(program: Command): void {
  program
    .command('check')
    .description('run the corpus gates (and the generated-output drift gate); with FILE arguments, report only on those files and what depends on them')
    .argument('[files...]', 'files, directories or globs (relative to the working directory) to report on')
    .option('--root <dir>', 'corpus root (default: where the config file found from the working directory is, else the repository root)', '.')
    .option('--config <file>', 'config file (default: openwop-spec.config.{json,jsonc,yaml} in the working directory or the nearest directory above it)')
    .option('--print-config <file>', 'print the rules and options the config gives this file (JSON), and check nothing')
    .option('--format <format>', 'stylish | json | sarif | github', 'stylish')
    .option('--output <file>', 'write the report to this file instead of stdout')
    .option('--no-cache', 'parse every file afresh (the parse cache lives in node_modules/.cache/openwop-spec)')
    .option('--rule <id>', 'run only this rule (repeatable; family/* selects a family)', collect, [])
    .option('--fix', 'apply the fixes findings carry and regenerate what is stale, then report what remains')
    .option('--fix-dry-run', 'print, as a patch, what --fix would change; write nothing')
    .option('--quiet', 'report errors only (warnings still count for --max-warnings)')
    .option('--max-warnings <n>', 'exit 1 when there are more warnings than this')
    .option('--fail-severity <severity>', 'the least severity that fails the run: error | warning')
    .option('--previous-release <release>', 'the previous release, for gates that compare against one: a directory, a .tgz or git:<ref> (default: found from spec/v2/release.json or the newest version tag)')
    .option('--baseline-findings <file>', 'accept the findings recorded in this file: only new ones fail')
    .option('--update', 'with --baseline-findings, record the current findings in it')
    .option('--suppress <rule>', 'write a suppression of each current finding of this rule (repeatable; family/*) into the suppressions file; needs --reason', collect, [])
    .option('--reason <text>', 'with --suppress, why the findings are accepted (written into each entry)')
    .option('--prune-suppressions', 'remove from the suppressions file the entries that match no finding any more')
    .option('--color', 'colour the stylish report even when stdout is not a terminal')
    .option('--no-color', 'never colour the report')
    .action((files: string[], options: CheckOptions) => {
      process.exitCode = runCheck(options, files);
    });
}

export function runCheck(options: CheckOptions, files: readonly string[] = []): number {
  const format = checkFormat(options.format);
  const { selected: chosen, unknown } = selectRules(ALL_RULES, options.rule);
  if (unknown.length > 0) throw new UsageError(`unknown rule ${unknown.join(', ')}; \`${TOOL_NAME} rules\` lists them`);
  if (options.fix && options.fixDryRun) throw new UsageError('--fix and --fix-dry-run exclude each other');
  const suppressing = suppressedRules(options);
  const config = openConfig(options.root, options.config);
  const policy = runPolicy(options, config);
  const settings = usingConfig(() => ruleSettings(config, ALL_RULES));
  if (options.printConfig !== undefined) return printConfig(options, config, settings, options.printConfig);
  // A rule named with --rule runs even when the config turns it off: the command line is the
  // narrower, later word, as it is for other linters.
  for (const rule of chosen) {
    const setting = settings.get(rule.id);
    if (options.rule.length > 0 && setting && !setting.enabled) settings.set(rule.id, { ...setting, enabled: true, severity: rule.severity, configured: false });
  }
  // A rule off at the top level still runs when an override turns it on for some files.
  const selected = chosen.filter((rule) => settings.get(rule.id)?.enabled !== false || enabledByOverride(config, settings, rule.id));
  const ids = new Set(selected.map((rule) => rule.id));
  const checks = CHECKS.filter((check) => ids.has(check.id));
  const root = path.resolve(options.root);
  const previous = previousReleaseOf(root, options.previousRelease);
  const baseline = policy.baselineFindings && !options.update ? readBaseline(policy.baselineFindings) : undefined;

  // A killed generate or check --fix left a journal: --fix finishes it, so that it fixes the new set;
  // a plain check reports what is on disk, and says why some outputs may be stale.
  if (options.fix) finishInterruptedWrites(options.root);
  else if (existsSync(path.join(root, JOURNAL))) process.stderr.write(say(`an interrupted generate left ${JOURNAL}: some outputs were not replaced; run \`${TOOL_NAME} generate\` (or \`${TOOL_NAME} check --fix\`) to finish\n`));
  let corpus = openCorpus(options.root, { ...options, config });
  const scope = files.length > 0 ? selectFiles(corpus, files) : undefined;
  let { diagnostics, plan: planned } = evaluate(corpus, checks, ids, settings, previous, config);

  if (options.fix || options.fixDryRun) {
    const changes = fixedContent(corpus, diagnostics, ids.has(DRIFT_RULE.id), planned);
    if (options.fixDryRun) {
      for (const { path: file, before, after } of changes.files) process.stdout.write(`--- a/${file}\n+++ b/${file}\n${unifiedHunks(before, after)}`);
      process.stderr.write(`${describeChanges(changes)}; nothing written (--fix-dry-run)\n`);
      return EXIT.clean;
    }
    if (changes.files.length > 0) {
      // One set, as generate writes it: a kill part-way leaves a journal the next run finishes.
      writeOutputSet(
        corpus,
        changes.files.map((file) => {
          const original = corpus.get(file.path);
          return { path: file.path, content: encodeText(file.after, original && original.kind !== 'binary' ? original.style : undefined) };
        }),
      );
      process.stderr.write(`${describeChanges(changes)}\n`);
      corpus = openCorpus(options.root, { ...options, config });
      ({ diagnostics, plan: planned } = evaluate(corpus, checks, ids, settings, previous, config));
    }
  }

  const plan = planned ?? planGeneration(corpus, ALL_GENERATORS);
  const inScope = scope ? new Set([...dependentScope(corpus, scope, plan, ALL_GENERATORS), ...registryMentionDependents(corpus, scope)]) : undefined;
  const located = relocateGenerated(corpus, causeFirst(corpus, diagnostics, { derivedFrom: derivedFrom(plan), rerun: rerunOver(checks, ids, settings, previous) }), plan, ALL_GENERATORS);
  const fingerprinted = withFingerprints(corpus, inScope ? located.filter((d) => inScope.has(d.file) || d.related?.some((r) => inScope.has(r.file))) : located);
  const today = options.today ?? new Date().toISOString().slice(0, 10);
  const unused: Suppression[] = [];
  let judged = suppress(corpus, fingerprinted, config, settings, ids, today, inScope, unused);
  // --suppress and --prune-suppressions edit the suppressions file; the report is of the file as written.
  if (editSuppressionsFile(corpus, config, judged, suppressing, options.reason ?? '', options.pruneSuppressions ? unused : undefined)) judged = suppress(corpus, fingerprinted, config, settings, ids, today, inScope);

  if (options.update && policy.baselineFindings) {
    writeFileAtomic(policy.baselineFindings, renderFindingsBaseline(judged.filter(isActive)));
    const count = judged.filter(isActive).length;
    process.stderr.write(`wrote ${displayPath(policy.baselineFindings)}: ${count} finding${count === 1 ? '' : 's'} accepted\n`);
    judged = compareWithBaseline(judged, parseFindingsBaseline(readFileSync(policy.baselineFindings, 'utf8'), policy.baselineFindings));
  } else if (baseline) {
    judged = compareWithBaseline(judged, baseline);
  }

  judged = parseFailuresFirst(sortDiagnostics(judged));
  const hidden = policy.quiet ? judged.filter((d) => isActive(d) && d.severity === 'warning') : [];
  const shown = policy.quiet ? judged.filter((d) => !(isActive(d) && d.severity === 'warning')) : judged;
  printDiagnostics(shown, format, corpus.files.size, selected.map((rule) => ({ ...rule, severity: settings.get(rule.id)?.severity ?? rule.severity })), {
    ...(options.output !== undefined ? { output: options.output } : {}),
    ...(options.color !== undefined ? { color: options.color } : {}),
    ...(policy.baselineFindings ? { baselineUpdate: `${TOOL_NAME} check --baseline-findings ${displayPath(policy.baselineFindings)} --update` } : {}),
    hiddenWarnings: hidden.length,
  });
  return exitCodeFor(judged, policy);
}

/** `--print-config FILE`: the effective config of one file (relative to the working directory), as JSON. */
function printConfig(options: CheckOptions, config: Config, settings: ReadonlyMap<string, RuleSetting>, file: string): number {
  const root = path.resolve(options.root);
  const relative = path.relative(root, path.resolve(file)).split(path.sep).join('/');
  if (relative.startsWith('../') || relative === '..' || path.isAbsolute(relative)) throw new UsageError(`--print-config ${file} is outside the corpus root ${root}`);
  const effective = usingConfig(() => effectiveConfig(config, ALL_RULES, settings, relative));
  emit(`${JSON.stringify({ ...effective, config: config.source ? displayPath(config.source) : null }, null, 2)}\n`, options.output);
  return EXIT.clean;
}

/** Each generated output and what its generators read (`*`: every file). */
function derivedFrom(plan: GenerationPlan | undefined): Map<string, string[]> {
  const inputs = new Map(ALL_GENERATORS.map((g) => [g.id, g.runsLast ? ['*'] : g.inputs]));
  return new Map((plan?.files ?? []).map((file) => [file.path, file.generators.flatMap((id) => inputs.get(id) ?? [])]));
}

interface RunPolicy {
  quiet?: boolean;
  maxWarnings?: number;
  failSeverity?: 'error' | 'warning';
  /** Absolute. */
  baselineFindings?: string;
}

/** The config's policy with the flags over it; paths in the config are relative to the root, on the command line to the working directory. */
function runPolicy(options: CheckOptions, config: Config): RunPolicy {
  const policy: RunPolicy = { ...config.policy };
  delete (policy as { suppressions?: string }).suppressions;
  if (config.policy.baselineFindings) policy.baselineFindings = path.resolve(options.root, config.policy.baselineFindings);
  if (options.baselineFindings !== undefined) policy.baselineFindings = path.resolve(options.baselineFindings);
  if (options.update && !policy.baselineFindings) throw new UsageError('--update writes the findings baseline: name it with --baseline-findings FILE (or baselineFindings in the config)');
  if (options.quiet) policy.quiet = true;
  if (options.maxWarnings !== undefined) {
    if (!/^\d+$/.test(options.maxWarnings)) throw new UsageError(`--max-warnings ${JSON.stringify(options.maxWarnings)} is not a whole number`);
    policy.maxWarnings = Number(options.maxWarnings);
  }
  if (options.failSeverity !== undefined) {
    if (options.failSeverity !== 'error' && options.failSeverity !== 'warning') throw new UsageError(`--fail-severity ${JSON.stringify(options.failSeverity)}: use error or warning`);
    policy.failSeverity = options.failSeverity;
  }
  return policy;
}

/** The previous release to compare with, as the gates take it; a wrong --previous-release is a usage error, not a finding. */
function previousReleaseOf(root: string, given: string | undefined): string | undefined {
  if (given === undefined) return findPreviousRelease(root);
  // A path is taken from the working directory, as every path on the command line is.
  const spec = given.startsWith('git:') || !existsSync(path.resolve(given)) ? given : path.resolve(given);
  const problem = previousReleaseProblem(root, spec);
  if (problem) throw new UsageError(problem);
  return spec;
}

function readBaseline(file: string): BaselineEntry[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(code === 'ENOENT' ? `findings baseline ${displayPath(file)} does not exist; write it with \`${TOOL_NAME} check --baseline-findings ${displayPath(file)} --update\`` : `cannot read findings baseline ${displayPath(file)}: ${code ?? String(error)}`);
  }
  try {
    return parseFindingsBaseline(text, displayPath(file));
  } catch (error) {
    if (error instanceof FindingsBaselineError) throw new UsageError(error.message);
    throw error;
  }
}

/** The findings of one pass, and the generation plan it made (reused for what follows from it). */
function evaluate(corpus: Corpus, checks: readonly Check[], ids: ReadonlySet<string>, settings: ReadonlyMap<string, RuleSetting>, previousRelease: string | undefined, config: Config): { diagnostics: Diagnostic[]; plan: GenerationPlan | undefined } {
  const diagnostics: Diagnostic[] = [];
  let plan: GenerationPlan | undefined;
  // Before generation is planned, so that background work (schemas compiling) overlaps it too.
  prepareChecks(corpus, checks, { ...(previousRelease ? { previousRelease } : {}), settings });
  if (ids.has(DRIFT_RULE.id) || ids.has(REGION_RULE.id)) {
    plan = planGeneration(corpus, ALL_GENERATORS);
    const generated = [...plan.diagnostics.filter((d) => d.rule !== REGION_RULE.id || ids.has(REGION_RULE.id)), ...(ids.has(DRIFT_RULE.id) ? driftDiagnostics(plan, ALL_GENERATORS) : [])];
    for (const d of generated) {
      const setting = settings.get(d.rule);
      diagnostics.push(setting?.configured ? { ...d, severity: setting.severity } : d);
    }
  }
  diagnostics.push(...runChecks(corpus, checks, { ...(previousRelease ? { previousRelease } : {}), settings }));
  const overridden = applyOverrides(corpus, diagnostics, config, ALL_RULES, settings, new Set(checks.map((check) => check.id)), (rule, variant) =>
    runChecks(corpus, checks.filter((check) => check.id === rule), { ...(previousRelease ? { previousRelease } : {}), settings: variant }),
  );
  return { diagnostics: sortDiagnostics(overridden), plan };
}

/** The findings the named rules give over another reading of the corpus (its broken files read as far as they go). */
function rerunOver(checks: readonly Check[], ids: ReadonlySet<string>, settings: ReadonlyMap<string, RuleSetting>, previousRelease: string | undefined) {
  return (corpus: Corpus, rules: ReadonlySet<string>): Diagnostic[] => {
    const again = runChecks(corpus, checks.filter((check) => rules.has(check.id)), { ...(previousRelease ? { previousRelease } : {}), settings });
    // A generator's own findings (a region with no generator, a registry it cannot read) come from planning.
    if ([...rules].some((rule) => !checks.some((check) => check.id === rule) && rule !== DRIFT_RULE.id)) {
      again.push(...planGeneration(corpus, ALL_GENERATORS).diagnostics.filter((d) => d.rule !== REGION_RULE.id || ids.has(REGION_RULE.id)));
    }
    return again;
  };
}

function suppress(corpus: Corpus, diagnostics: readonly Diagnostic[], config: Config, settings: ReadonlyMap<string, RuleSetting>, ran: ReadonlySet<string>, today: string, inScope: ReadonlySet<string> | undefined, unused?: Suppression[]): Diagnostic[] {
  const relative = config.policy.suppressions ?? DEFAULT_SUPPRESSIONS;
  const absolute = path.join(corpus.root, relative);
  if (config.policy.suppressions && !existsSync(absolute)) throw new UsageError(`the suppressions file ${relative} (config: suppressions) does not exist`);
  const file = existsSync(absolute) && statSync(absolute).isFile() ? { path: relative, text: readFileSync(absolute, 'utf8') } : undefined;
  const out = applySuppressions(corpus, diagnostics, {
    today,
    ran,
    known: new Set(ALL_RULES.map((rule) => rule.id)),
    ...(file ? { file } : {}),
    ...(inScope ? { inScope: (f: string) => inScope.has(f) } : {}),
    ...(unused ? { unused } : {}),
  });
  // The suppression rules are rules like any other: the config may turn them off or down.
  return withFingerprints(
    corpus,
    out.flatMap((d) => {
      if (!d.rule.startsWith('suppressions/')) return [d];
      const setting = settings.get(d.rule);
      if (setting && !setting.enabled) return [];
      return [setting?.configured ? { ...d, severity: setting.severity } : d];
    }),
  );
}

interface Changes {
  files: Array<{ path: string; before: string; after: string }>;
  fixes: number;
  fixedFiles: number;
  regenerated: number;
}

/**
 * What --fix makes of the corpus, worked out in memory: the fixes findings carry, then the
 * generated outputs the fixes made stale brought up to date over the fixed text, and the stamp,
 * which digests every file (any edit makes it stale), so that a fixed corpus checks clean in one
 * run. An output that was stale before is left to its drift finding: regenerating it would
 * rewrite lines no finding named. Generation is skipped while a generator fails.
 */
function fixedContent(corpus: Corpus, diagnostics: readonly Diagnostic[], regenerate: boolean, before: GenerationPlan | undefined): Changes {
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of diagnostics) if (d.fix) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
  const texts = new Map<string, { before: string; after: string }>();
  let fixes = 0;
  for (const [file, found] of byFile) {
    const source = corpus.get(file);
    if (!source || source.kind === 'binary') continue;
    const result = applyFixes(source.text, found.flatMap((d) => (d.fix ? [d.fix] : [])));
    if (result.applied === 0 || result.text === source.text) continue;
    texts.set(file, { before: source.text, after: result.text });
    fixes += result.applied;
  }
  const fixedFiles = texts.size;
  let regenerated = 0;
  if (regenerate) {
    const contents: Record<string, string | Buffer> = {};
    for (const [file, entry] of corpus.files) contents[file] = texts.get(file)?.after ?? entry.bytes;
    const fixed = texts.size > 0 ? corpusFromFiles(corpus.root, contents, corpus.config) : corpus;
    const plan = planGeneration(fixed, ALL_GENERATORS);
    const staleBefore = new Set((before?.files ?? []).filter((file) => file.before !== file.after).map((file) => file.path));
    const digests = new Set(ALL_GENERATORS.filter((g) => g.runsLast || g.followsEveryEdit).map((g) => g.id));
    if (plan.diagnostics.some((d) => d.severity === 'error')) {
      process.stderr.write('generated output not refreshed: a generator reports errors (see below)\n');
    } else {
      for (const file of plan.files) {
        if (file.before === file.after) continue;
        if (staleBefore.has(file.path) && !file.generators.some((id) => digests.has(id))) continue;
        const original = corpus.get(file.path);
        texts.set(file.path, { before: texts.get(file.path)?.before ?? (original && original.kind !== 'binary' ? original.text : ''), after: file.after });
        regenerated++;
      }
    }
  }
  const files = [...texts].map(([file, { before, after }]) => ({ path: file, before, after })).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, fixes, fixedFiles, regenerated };
}

function describeChanges(changes: Changes): string {
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  const fixed = `fixed ${plural(changes.fixes, 'problem')} in ${plural(changes.fixedFiles, 'file')}`;
  return changes.regenerated > 0 ? `${fixed}; regenerated ${plural(changes.regenerated, 'generated file')}` : fixed;
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
      matched = statSync(absolute).isDirectory() ? [...corpus.files.keys()].filter((file) => relative === '' || file.startsWith(`${relative}/`)) : corpus.files.has(relative) ? [relative] : [];
    } else {
      matched = globSync(arg, { absolute: true, nodir: true }).map(toCorpus).filter((file) => corpus.files.has(file));
    }
    if (matched.length === 0) throw new UsageError(`${arg} names no file of the corpus at ${corpus.root}`);
    for (const file of matched) selected.add(file);
  }
  return selected;
}

function displayPath(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') ? relative : file;
}

