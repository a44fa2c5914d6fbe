/** `openwop-spec diff <old> <new>`: what changed between two releases, and what version bump it needs. */
import path from 'node:path';
import type { Command } from 'commander';
import type { Corpus } from '../core/model/index.js';
import { planGeneration } from '../core/run/index.js';
import { note, safeJson, stopCommands, visible } from '../core/output/index.js';
import {
  applyImpacts,
  checkImpacts,
  configuredImpact,
  DIFF_RULES,
  DIRECTIONAL_LEVELS,
  diffReleases,
  ImpactConfigError,
  LEVELS,
  semverVerdict,
  DIFF_FORMATS,
  formatGithub,
  formatDiffJson,
  formatMarkdown,
  formatPatch,
  formatStylish,
  type DiffFormat,
  loadRelease,
  type Release,
  ReleaseSourceError,
} from '../core/release/index.js';
import { ALL_GENERATORS as GENERATORS } from './catalog.js';
import { emit, EXIT, openConfig, UsageError, formatOption } from './common.js';

interface DiffOptions {
  root: string;
  config?: string;
  format: string;
  output?: string;
  checkSemver?: boolean;
  failOn?: string;
  rules?: boolean;
}

const FAIL_ON = ['breaking', 'additive'] as const;

export function register(program: Command): void {
  program
    .command('diff')
    .description(
      "semantic diff of two releases (each a directory, a .tgz, or git:<ref>), each change classified breaking, additive or editorial by the protocol's compatibility rules",
    )
    .argument('[old]', 'the earlier release')
    .argument('[new]', 'the later release')
    .option('--root <dir>', 'resolve relative paths and git:<ref> from this directory, and find the config there', '.')
    .option(
      '--config <file>',
      'config file whose `diff` section sets impacts (default: openwop-spec.config.json at the root, when there is one)',
    )
    .addOption(formatOption(DIFF_FORMATS, 'stylish'))
    .option('--output <file>', 'write the report to this file instead of stdout')
    .option('--check-semver', 'exit 1 when the version bump is smaller than the changes require')
    .option('--fail-on <impact>', 'exit 1 when a change is at least this impact: breaking | additive')
    .option('--rules', 'list the change rules, their ids and impacts (as the config sets them), and exit')
    .action((older: string | undefined, newer: string | undefined, options: DiffOptions) => {
      process.exitCode = options.rules ? listRules(options) : runDiff(older, newer, options);
    });
}

export function runDiff(older: string | undefined, newer: string | undefined, options: DiffOptions): number {
  if (older === undefined || newer === undefined)
    throw new UsageError(
      'diff needs two releases: openwop-spec diff <old> <new> (or --rules to list the change rules)',
    );
  if (!(DIFF_FORMATS as readonly string[]).includes(options.format))
    throw new UsageError(`unknown format "${options.format}"; use one of ${DIFF_FORMATS.join(', ')}`);
  if (options.failOn !== undefined && !(FAIL_ON as readonly string[]).includes(options.failOn))
    throw new UsageError(`unknown --fail-on "${options.failOn}"; use breaking or additive`);
  const format = options.format as DiffFormat;
  const root = path.resolve(options.root);
  const settings = diffSettings(options);
  const before = load(older, root);
  const after = load(newer, root);
  const diff = applyImpacts(diffReleases(before, after, generatedFiles), settings);
  const semver = options.checkSemver ? semverVerdict(diff) : undefined;

  const text =
    format === 'json'
      ? formatDiffJson(diff, semver)
      : format === 'markdown'
        ? formatMarkdown(diff)
        : format === 'github'
          ? formatGithub(diff)
          : format === 'patch'
            ? formatPatch(diff, before, after)
            : format === 'stylish' && options.output === undefined
              ? stopCommands(formatStylish(diff, semver?.message))
              : formatStylish(diff, semver?.message);
  emit(text, options.output);
  if (semver && (format !== 'stylish' || options.output !== undefined) && format !== 'json')
    note(`${visible(semver.message)}\n`);
  const failing =
    options.failOn === 'breaking'
      ? diff.counts.breaking > 0
      : options.failOn === 'additive'
        ? diff.counts.breaking + diff.counts.additive > 0
        : false;
  if (failing)
    note(`--fail-on ${options.failOn}: ${diff.counts.breaking} breaking, ${diff.counts.additive} additive change(s)\n`);
  return (semver && !semver.ok) || failing ? EXIT.findings : EXIT.clean;
}

function diffSettings(options: Pick<DiffOptions, 'root' | 'config'>) {
  const settings = openConfig(options.root, options.config).diff;
  try {
    checkImpacts(settings);
  } catch (error) {
    if (error instanceof ImpactConfigError) throw new UsageError(error.message);
    throw error;
  }
  return settings;
}

/** `diff --rules`: every change rule, its default impact (by direction for schema rules) and the impact the config gives it. */
function listRules(options: DiffOptions): number {
  if (options.format !== 'stylish' && options.format !== 'json')
    throw new UsageError(`diff --rules writes stylish or json, not "${options.format}"`);
  const settings = diffSettings(options);
  const rules = Object.entries(DIFF_RULES).map(([id, rule]) => {
    const directional = DIRECTIONAL_LEVELS[id];
    const configured = configuredImpact(settings ? { impacts: settings.impacts ?? {} } : undefined, {
      rule: id,
      file: '',
    });
    return {
      id,
      impact: rule.level,
      ...(directional ? { byDirection: directional } : {}),
      ...(configured ? { configured } : {}),
      summary: rule.summary,
    };
  });
  if (options.format === 'json') {
    emit(
      `${safeJson(JSON.stringify({ levels: LEVELS, rules, overrides: settings?.overrides ?? [] }, null, 2))}\n`,
      options.output,
    );
    return EXIT.clean;
  }
  const width = Math.max(...rules.map((rule) => rule.id.length));
  const lines = rules.map((rule) => {
    const impact = rule.byDirection
      ? `request ${rule.byDirection.request}, response ${rule.byDirection.response}`
      : rule.impact;
    return `${rule.id.padEnd(width)}  ${impact}${rule.configured ? ` (config: ${rule.configured})` : ''}  ${visible(rule.summary)}`;
  });
  for (const override of settings?.overrides ?? [])
    lines.push(
      `override for ${override.files.map(visible).join(', ')}: ${Object.entries(override.impacts)
        .map(([id, impact]) => `${visible(id)} ${impact}`)
        .join(', ')}`,
    );
  emit(`${lines.join('\n')}\n`, options.output);
  return EXIT.clean;
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
  const plan = planGeneration(
    corpus,
    GENERATORS.filter((generator) => !generator.runsLast),
  );
  return new Map(plan.files.map((file) => [file.path, file.generators.flatMap((id) => inputs.get(id) ?? [])]));
}
