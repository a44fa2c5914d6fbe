import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

/** A private copy of a fixture corpus, for tests that edit it (`removeTempDirs` removes it). */
export function copyFixture(name: string): string {
  const target = tempDir();
  cpSync(fixture(name), target, { recursive: true });
  return target;
}

/** What a corpus root holds (package.json too, which the stamp reads its version from). */
export const CORPUS_ENTRIES = [
  'spec',
  'api',
  'schemas',
  'conformance',
  'SECURITY',
  'docs',
  'CORPUS-STAMP.json',
  'package.json',
];

/**
 * A fresh temporary copy of the corpus under `from` (this repository by default): `entries` are the
 * files and folders copied, `config` adds its openwop-spec.config.json, `cached` an empty
 * node_modules, which turns the caches on. `removeTempDirs` removes it.
 */
export function copyCorpus(
  options: { from?: string; entries?: readonly string[]; config?: boolean; cached?: boolean; prefix?: string } = {},
): string {
  const { from = REPO, config = false, cached = false, prefix = 'openwop-spec-' } = options;
  const entries = options.entries ?? [...CORPUS_ENTRIES, ...(config ? ['openwop-spec.config.json'] : [])];
  const root = tempDir(prefix);
  for (const entry of entries) cpSync(path.join(from, entry), path.join(root, entry), { recursive: true });
  if (cached) mkdirSync(path.join(root, 'node_modules'));
  return root;
}

/** The active findings of a `--format json` report, as the reporter writes them. */
export function reported(stdout: string): Diagnostic[] {
  return (JSON.parse(stdout) as { diagnostics: Diagnostic[] }).diagnostics;
}

export function run(rule: string, source: Corpus | string | Record<string, string>): Diagnostic[] {
  const corpus =
    typeof source === 'string'
      ? loadCorpus(source)
      : source instanceof Corpus
        ? source
        : corpusFromFiles('/nonexistent-root', source);
  const check = CHECKS.find((c) => c.id === rule);
  if (!check) throw new Error(`no rule ${rule}`);
  return runChecks(corpus, [check]);
}

/** The built CLI run in process with `--format json` added: its exit code, its stderr and the active findings it reported. */
export async function cliReport(
  args: readonly string[],
): Promise<{ status: number; diagnostics: Diagnostic[]; stderr: string }> {
  const result = await cli([...args, '--format', 'json']);
  return { status: result.status, diagnostics: reported(result.stdout), stderr: result.stderr };
}

/** The active findings of `check --root root --format json` with `args`, run in process. */
export async function checkFindings(root: string, ...args: string[]): Promise<Diagnostic[]> {
  return reported((await cli(['check', '--root', root, '--format', 'json', ...args])).stdout);
}

/** A `links/anchor` error "broken" at `line`, column 1, of spec/v2/core/a.md, with `fields` over it. */
export function brokenAnchor(line: number, fields: Partial<Diagnostic> = {}): Diagnostic {
  return {
    rule: 'links/anchor',
    severity: 'error',
    file: 'spec/v2/core/a.md',
    line,
    column: 1,
    message: 'broken',
    ...fields,
  };
}

/** `file:line:column` of each finding, the form a reader checks against the fixture. */
export function where(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.file}:${d.line}:${d.column}`);
}

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
  /** The signal that ended a spawned run (null in process, where nothing can kill the run alone). */
  signal: NodeJS.Signals | null;
}

export interface CliOptions {
  /** The working directory of the run; this repository by default. */
  cwd?: string;
  /** The whole environment of the run; by default this process's, with colour off (`cliEnv()`). */
  env?: NodeJS.ProcessEnv;
}

/** This process's environment with `extra` over it and colour off, the way the tests run the CLI. */
export function cliEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  // FORCE_COLOR is removed, not emptied: Node.js 26 warns on stderr when it is set (even empty) beside NO_COLOR.
  // GITHUB_ACTIONS is removed too: under Actions a stylish report is wrapped in stop-commands, which a test asks for by name.
  const { FORCE_COLOR: _, GITHUB_ACTIONS: _actions, ...env } = process.env;
  const out: NodeJS.ProcessEnv = { ...env, NO_COLOR: '1' };
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete out[key];
    else out[key] = value;
  }
  return out;
}

function resolveOptions(options: string | CliOptions): Required<CliOptions> {
  const { cwd = REPO, env = cliEnv() } = typeof options === 'string' ? { cwd: options } : options;
  return { cwd, env };
}

/**
 * The built CLI as its own process: for what only a process shows (a signal, the fault hook that
 * kills the run, start-up, a closed pipe, `process.stdout` being a pipe, the timing of a whole
 * process). Everything else runs in process with `cli`, which is many times cheaper.
 */
export function spawnCli(args: readonly string[], options: string | CliOptions = {}): CliResult {
  const { cwd, env } = resolveOptions(options);
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', env });
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr, signal: result.signal };
}

/**
 * The built CLI run inside this test worker: the same entry as the executable (dist/scripts/main.js,
 * which dist/scripts/cli.js calls), loaded once per worker natively (vitest.config.ts externalises
 * dist/), with its own arguments, working directory and environment, stdout and stderr captured and
 * the exit code it leaves in `process.exitCode`. Runs are queued, never overlap, and leave the
 * process as they found it.
 */
export function cli(args: readonly string[], options: string | CliOptions = {}): Promise<CliResult> {
  const run = queue.then(() => inProcess(args, resolveOptions(options)));
  queue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}

let queue: Promise<unknown> = Promise.resolve();
let entry: Promise<{ main(args: readonly string[]): Promise<void> }> | undefined;

/** Thrown by `process.exit` during an in-process run, so that the run ends there and not the worker. */
class ExitCalled extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

// Both would act on the whole worker: the fault hook kills it or counts writes across runs, and
// the timings are of a process.
const PROCESS_ONLY = ['OPENWOP_SPEC_FAULT', 'OPENWOP_SPEC_TIMING'];

async function inProcess(args: readonly string[], { cwd, env }: Required<CliOptions>): Promise<CliResult> {
  const only = PROCESS_ONLY.find((name) => env[name]);
  if (only) throw new Error(`${only} acts on a whole process: run this case with spawnCli`);
  // The schema compile thread puts a second core to work during one run. Here both cores are
  // already busy with test workers, and the thread is a new isolate each run, its modules loaded
  // and compiled cold every time while the worker's are warm: about twice the CPU of the run on
  // one thread (a check of this corpus, 1.8 s against 0.85 s), and it may still be compiling when
  // the run returns. A case that sets the variable decides; spawned runs (and
  // test/schemas/compile-thread.test.ts) keep the thread.
  if (env.OPENWOP_SPEC_THREADS === undefined) env = { ...env, OPENWOP_SPEC_THREADS: '0' };
  entry ??= import(pathToFileURL(path.join(REPO, 'dist', 'scripts', 'main.js')).href);
  const { main } = await entry;

  const saved = {
    env: { ...process.env },
    cwd: process.cwd(),
    exitCode: process.exitCode,
    exit: process.exit,
    stdout: process.stdout.write,
    stderr: process.stderr.write,
    stdoutTTY: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'),
    stderrTTY: Object.getOwnPropertyDescriptor(process.stderr, 'isTTY'),
  };
  const stdout: Buffer[] = [];
  const stderr: Buffer[] = [];
  let status: number | undefined;
  try {
    replaceEnv(env);
    process.chdir(cwd);
    process.exitCode = undefined;
    process.exit = (code?: number | string | null) => {
      throw new ExitCalled(Number(code ?? process.exitCode ?? 0));
    };
    process.stdout.write = capture(stdout);
    process.stderr.write = capture(stderr);
    // What the CLI sees of its output is a pipe, as in a spawned run, whatever the worker's is.
    Object.defineProperty(process.stdout, 'isTTY', { value: false, configurable: true, writable: true });
    Object.defineProperty(process.stderr, 'isTTY', { value: false, configurable: true, writable: true });
    try {
      await main(args);
    } catch (error) {
      if (!(error instanceof ExitCalled)) throw error;
      status = error.code;
    }
    status ??= Number(process.exitCode ?? 0);
  } finally {
    process.stdout.write = saved.stdout;
    process.stderr.write = saved.stderr;
    restoreProperty(process.stdout, 'isTTY', saved.stdoutTTY);
    restoreProperty(process.stderr, 'isTTY', saved.stderrTTY);
    process.exit = saved.exit;
    process.exitCode = saved.exitCode;
    process.chdir(saved.cwd);
    replaceEnv(saved.env);
  }
  return {
    status,
    stdout: Buffer.concat(stdout).toString('utf8'),
    stderr: Buffer.concat(stderr).toString('utf8'),
    signal: null,
  };
}

function capture(sink: Buffer[]): typeof process.stdout.write {
  return (
    chunk: string | Uint8Array,
    encoding?: BufferEncoding | ((error?: Error | null) => void),
    callback?: (error?: Error | null) => void,
  ): boolean => {
    if (typeof encoding === 'function') [callback, encoding] = [encoding, undefined];
    sink.push(typeof chunk === 'string' ? Buffer.from(chunk, encoding ?? 'utf8') : Buffer.from(chunk));
    if (callback) process.nextTick(callback);
    return true;
  };
}

function replaceEnv(env: NodeJS.ProcessEnv): void {
  for (const key of Object.keys(process.env))
    if (!Object.hasOwn(env, key) || env[key] === undefined) delete process.env[key];
  for (const [key, value] of Object.entries(env)) if (value !== undefined) process.env[key] = value;
}

function restoreProperty(target: object, key: string, descriptor: PropertyDescriptor | undefined): void {
  if (descriptor) Object.defineProperty(target, key, descriptor);
  else delete (target as Record<string, unknown>)[key];
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

/** The text of each file under `folders` of this repository whose name `accept` takes, by repository path. */
export function repositoryFiles(folders: readonly string[], accept: (name: string) => boolean): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (accept(entry.name)) files.set(child, readFileSync(path.join(REPO, child), 'utf8'));
    }
  };
  for (const folder of folders) walk(folder);
  return files;
}

/** Writes `files` (by `/`-separated path relative to `root`) under `root`, making their folders. */
export function writeFiles(root: string, files: Readonly<Record<string, string | Buffer>>): void {
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
}

const made: string[] = [];

/** Every file under `root` (node_modules aside) with its bytes, to compare a root before and after a run. */
export function snapshotFiles(root: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(root, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.name === 'node_modules') continue;
      if (entry.isDirectory()) walk(child);
      else files.set(child, readFileSync(path.join(root, child)));
    }
  };
  walk('');
  return files;
}

/** A fresh empty temporary directory; `removeTempDirs` removes every one made so far. */
export function tempDir(prefix = 'openwop-spec-'): string {
  const root = mkdtempSync(path.join(tmpdir(), prefix));
  made.push(root);
  return root;
}

/** Removes every directory `tempDir` and `tempTree` made in this test file (an `afterAll` of the files that make many). */
export function removeTempDirs(): void {
  for (const root of made.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** A fresh temporary directory holding `files`: an in-memory corpus on disk, for the CLI and for edits. */
export function tempTree(files: Readonly<Record<string, string | Buffer>> = {}, prefix = 'openwop-spec-'): string {
  const root = tempDir(prefix);
  writeFiles(root, files);
  return root;
}

/**
 * A temporary root of a few documents: `files` and a config whose `required` list is empty (a root
 * this small holds none of the registries a full corpus must contain); a config among `files` keeps
 * its other settings.
 */
export function smallCorpus(files: Readonly<Record<string, string>>, prefix = 'openwop-spec-'): string {
  const config = files['openwop-spec.config.json'];
  const settings: Record<string, unknown> = config === undefined ? {} : JSON.parse(config);
  return tempTree({ ...files, 'openwop-spec.config.json': JSON.stringify({ required: [], ...settings }) }, prefix);
}

/**
 * Rewrites one file under `root`: through `change`, or with the first `from` replaced by `to`. An
 * edit that finds nothing to change is a broken test, and says so.
 */
export function edit(root: string, file: string, change: ((text: string) => string) | string, to = ''): void {
  const target = path.join(root, file);
  const before = readFileSync(target, 'utf8');
  if (typeof change === 'string' && !before.includes(change)) throw new Error(`${file} has no ${change}`);
  const after = typeof change === 'string' ? before.replace(change, to) : change(before);
  if (after === before) throw new Error(`the edit of ${file} changed nothing`);
  writeFileSync(target, after);
}

/**
 * The 1-based line where `needle` first occurs in `text`, searching from the line after line
 * `after` (0: the whole text); a needle that is not there is an error, never a line 0.
 */
export function lineOf(text: string, needle: string, after = 0): number {
  let start = 0;
  for (let line = 0; line < after && start !== -1; line++) start = text.indexOf('\n', start) + 1 || -1;
  const at = start === -1 ? -1 : text.indexOf(needle, start);
  if (at === -1) throw new Error(`${JSON.stringify(needle)} not found${after ? ` after line ${after}` : ''}`);
  return text.slice(0, at).split('\n').length;
}

/**
 * The 0-based line and character (a language-server position) of the `nth` (0-based) occurrence of
 * `needle` in `text`, moved `delta` characters into it; a needle that is not there is an error.
 */
export function positionOf(text: string, needle: string, delta = 0, nth = 0): { line: number; character: number } {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`${JSON.stringify(needle)} not found`);
  }
  const offset = at + delta;
  const before = text.slice(0, offset);
  return { line: before.split('\n').length - 1, character: offset - (before.lastIndexOf('\n') + 1) };
}

/** One string for everything `check --format json` and the language server both say of a finding in `file`. */
export function findingKey(
  file: string,
  d: { rule: string; message: string; hint?: string; fingerprint?: string; line: number; column: number },
): string {
  return JSON.stringify([file, d.line, d.column, d.rule, d.message, d.hint ?? null, d.fingerprint ?? null]);
}

const require = createRequire(import.meta.url);

/**
 * A validator of the OASIS SARIF 2.1.0 schema. The schema is draft-04 (hence ajv-draft-04), and one
 * of its patterns is not valid in unicode mode, so ajv compiles it with legacy regular expressions.
 */
export function sarifValidator() {
  const Draft04 = require('ajv-draft-04');
  const addFormats = require('ajv-formats');
  const ajv = new Draft04({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json'));
}

/** The text of `file` (by `/`-separated path relative to `root`). */
export function readText(root: string, file: string): string {
  return readFileSync(path.join(root, file), 'utf8');
}

/** Replaces the text of `file` under `root`, whose folder exists. */
export function writeText(root: string, file: string, text: string): void {
  writeFileSync(path.join(root, file), text);
}

/** `file` under `root`, parsed as JSON. */
export function readJson(root: string, file: string): any {
  return JSON.parse(readText(root, file));
}

/** `value` as a JSON file's text: two-space indent and a final newline. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** `n` distinct words (`w0 w1 …`, or `${stem}0 …`): prose of a known word count. */
export function words(n: number, stem = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');
}

/** The built CLI as its own process with the fault hook `fault` set (which kills or fails the run at that point). */
export function spawnWithFault(args: readonly string[], fault: string): CliResult {
  return spawnCli(args, { env: cliEnv({ OPENWOP_SPEC_FAULT: fault }) });
}
