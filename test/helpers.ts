import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CHECKS } from '../checks/index.js';
import { Corpus, corpusFromFiles, loadCorpus } from '../core/model/corpus.js';
import type { Diagnostic } from '../core/output/diagnostics.js';
import { runChecks } from '../core/run/engine.js';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.join(REPO, 'test', 'fixtures');
export const CLI = path.join(REPO, 'dist', 'scripts', 'cli.js');

export function fixture(name: string): string {
  return path.join(FIXTURES, name);
}

/** A private copy of a fixture corpus, for tests that edit it. */
export function copyFixture(name: string): string {
  const target = mkdtempSync(path.join(tmpdir(), 'openwop-spec-'));
  cpSync(fixture(name), target, { recursive: true });
  return target;
}

export function run(rule: string, source: Corpus | string | Record<string, string>): Diagnostic[] {
  const corpus = typeof source === 'string' ? loadCorpus(source) : source instanceof Corpus ? source : corpusFromFiles('/nonexistent-root', source);
  const check = CHECKS.find((c) => c.id === rule);
  if (!check) throw new Error(`no rule ${rule}`);
  return runChecks(corpus, [check]);
}

/** `file:line:column` of each finding, the form a reader checks against the fixture. */
export function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`);
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

export function cli(args: string[], cwd = REPO): CliResult {
  // FORCE_COLOR is removed, not emptied: Node.js 26 warns on stderr when it is set (even empty) beside NO_COLOR.
  const { FORCE_COLOR: _, ...env } = process.env;
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env: { ...env, NO_COLOR: '1' } });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}

/** A house-style core document around `body`. */
export function doc(title: string, body: string): string {
  return `# ${title}\n\n> **Status: Stable.**\n\n## Why this exists\n\n${body}\n`;
}

/** Every file under `root`, by `/`-separated relative path: a fixture as the files of an in-memory corpus. */
export function readTree(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else files[child] = readFileSync(path.join(root, child), 'utf8');
    }
  };
  walk('');
  return files;
}
