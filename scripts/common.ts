/** What every verb shares: the root, loading the corpus, choosing a reporter, exit codes. */
import { globSync } from 'glob';
import { timed } from '../core/run/index.js';
import { Corpus, CorpusError, loadCorpus } from '../core/model/index.js';
import { ConfigError, configName, loadConfig, type Config } from '../core/config/index.js';
import type { Diagnostic } from '../core/output/index.js';
import { summarize } from '../core/output/index.js';
import { FORMATS, REPORTERS, type RuleMeta } from '../core/output/index.js';

import { EXIT, UsageError, toolVersion, TOOL_NAME } from './tool.js';

export { EXIT, TOOL_NAME, toolVersion, UsageError };

/** The config of a run: `--config FILE`, else the root's openwop-spec.config.json, else the defaults. */
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
    if (corpus.files.size === 0 && !corpusDirectoryPresent(corpus.root, config)) throw new UsageError(`no corpus under ${root}: nothing there matches ${config.include.join(', ')} (config: ${configName(config)})`);
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
    return globSync([...config.include], { cwd: root, dot: false, follow: false, withFileTypes: true, ignore: ['**/node_modules/**'] }).some((entry) => entry.isDirectory());
  } catch {
    return false;
  }
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

export function printDiagnostics(diagnostics: readonly Diagnostic[], format: string, files: number, rules: readonly RuleMeta[]): void {
  const reporter = REPORTERS[format];
  if (!reporter) throw new UsageError(`unknown format "${format}"`);
  const color = format === 'stylish' && !process.env.NO_COLOR && (Boolean(process.env.FORCE_COLOR) || process.stdout.isTTY === true);
  const output = reporter(diagnostics, { summary: summarize(diagnostics, files), rules, toolName: TOOL_NAME, toolVersion: toolVersion(), color });
  process.stdout.write(output);
}

export function exitCodeFor(diagnostics: readonly Diagnostic[]): number {
  return diagnostics.some((d) => d.severity === 'error') ? EXIT.findings : EXIT.clean;
}

export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
