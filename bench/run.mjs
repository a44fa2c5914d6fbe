#!/usr/bin/env node
/**
 * `npm run bench`: the cost of the main job (`openwop-spec generate --check` + `openwop-spec check`)
 * on this repository (×1) and on the scale corpora of bench/make-corpus.mjs (×10, ×100), beside the
 * tools a spec repository would otherwise chain for the overlapping part of the job, on the same
 * ×1 and ×10 inputs, measured in the same run:
 *   - Redocly CLI: `redocly lint` of the OpenAPI documents;
 *   - AsyncAPI: @asyncapi/parser validating api/v2/asyncapi.yaml (bench/peers/asyncapi-validate.mjs);
 *   - remark-cli with remark-gfm and remark-validate-links over the prose;
 *   - ajv-cli: `ajv compile` of every *.schema.json (draft 2020-12, ajv-formats).
 *
 * Each figure is whole-process wall time and peak resident memory, the median of N runs (default 5)
 * after one warm-up run that is not counted. Ours runs cold (`--no-cache`, the primary figure) and,
 * as a second figure, with a warm parse cache. Every run of ours must exit 0 (the scale corpora are
 * built to pass), or the benchmark stops and shows the output.
 *
 * Usage: npm run bench [-- options]
 *   --runs N          measured runs per figure (default 5)
 *   --scales LIST     scales of ours, e.g. 1,10 (default 1,10,100); peers run on the scales ≤ 10
 *   --budget S        seconds the measured runs of one ×100 figure may take (default 240): fewer
 *                     runs when one run is slow, never fewer than 1; the table says how many
 *   --seed S          seed of the scale corpora (default 1)
 *   --no-peers        skip the peer tools
 *   --no-warm         skip the warm-cache figures
 *   --no-write        print the table, leave BENCHMARKS.md alone
 *   --rebuild         rebuild the scale corpora even when their fingerprint is current
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeCorpus, readCorpusFiles, REPO } from './make-corpus.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(REPO, 'dist', 'scripts', 'cli.js');
const BIN = path.join(REPO, 'node_modules', '.bin');
const TIME = '/usr/bin/time';
const RSS_PROBE = path.join(HERE, 'peers', 'rss-probe.cjs');
const OUTPUT = path.join(REPO, 'BENCHMARKS.md');
const TIMEOUT_MS = 30 * 60 * 1000;
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
  const options = { runs: 5, scales: [1, 10, 100], budget: 240, seed: 1, peers: true, warm: true, write: true, rebuild: false };
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
    else if (argument === '--help' || argument === '-h') usage(undefined, 0);
    else usage(`unknown option ${argument}`);
  }
  options.scales = [...new Set(options.scales)].sort((a, b) => a - b);
  return options;
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
function measure(command, { cwd, env = {} }) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'openwop-bench-'));
  const report = path.join(scratch, 'usage');
  try {
    const childEnv = { ...process.env, ...QUIET_ENV, ...env };
    let file;
    let args;
    if (measurer === 'gnu-time') {
      file = TIME;
      args = ['-f', '%e %M', '-o', report, ...command];
    } else {
      file = command[0];
      args = command.slice(1);
      childEnv.OPENWOP_BENCH_RSS = report;
      childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ''} --require ${RSS_PROBE}`.trim();
    }
    const started = performance.now();
    const result = spawnSync(file, args, { cwd, env: childEnv, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, timeout: TIMEOUT_MS });
    const elapsed = (performance.now() - started) / 1000;
    if (result.error) throw new Error(`${command.join(' ')}: ${result.error.message}`);
    let seconds = elapsed;
    let rssKiB;
    const usage = existsSync(report) ? readFileSync(report, 'utf8').trim().split('\n') : [];
    if (measurer === 'gnu-time') {
      // GNU time prefixes "Command exited with non-zero status N" when the command fails.
      const match = /^([\d.]+) (\d+)$/.exec(usage[usage.length - 1] ?? '');
      if (!match) throw new Error(`${TIME} wrote no usage for ${command.join(' ')}: ${usage.join(' ')}`);
      seconds = Number(match[1]);
      rssKiB = Number(match[2]);
    } else {
      rssKiB = Math.max(0, ...usage.map(Number).filter(Number.isFinite));
    }
    return { seconds, rssKiB, status: result.status ?? (result.signal ? 128 : -1), signal: result.signal, stdout: result.stdout, stderr: result.stderr };
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
 * wall time is the sum over its steps, its peak memory the largest of them. `mustPass`: every step
 * must exit 0, or the benchmark stops with the step's output.
 */
function figure(label, steps, { cwd, runs, budget, mustPass, log }) {
  const once = () => steps.map((step) => {
    const result = measure(step.command, { cwd, env: step.env });
    if (mustPass && result.status !== 0) {
      const output = `${result.stdout}${result.stderr}`.trim().split('\n');
      throw new Error(`${label}: \`${step.command.slice(1).join(' ')}\` exited ${result.status}${result.signal ? ` (${result.signal})` : ''} in ${cwd}; a measured run must pass:\n${output.slice(-40).join('\n')}`);
    }
    return result;
  });
  const warmup = once();
  const warmupSeconds = warmup.reduce((sum, step) => sum + step.seconds, 0);
  let count = runs;
  if (budget !== undefined && warmupSeconds * runs > budget) count = Math.max(1, Math.min(runs, Math.floor(budget / warmupSeconds)));
  log(`  ${label}: warm-up ${warmupSeconds.toFixed(2)} s; ${count} measured run${count === 1 ? '' : 's'}`);
  const measured = [];
  for (let i = 0; i < count; i++) measured.push(once());
  const totals = measured.map((run) => run.reduce((sum, step) => sum + step.seconds, 0));
  const peaks = measured.map((run) => Math.max(...run.map((step) => step.rssKiB)));
  const statuses = [...new Set(measured.flatMap((run) => run.map((step) => step.status)))];
  return {
    label,
    runs: count,
    seconds: median(totals),
    min: Math.min(...totals),
    max: Math.max(...totals),
    rssMiB: median(peaks) / 1024,
    steps: steps.map((step, index) => {
      const times = measured.map((run) => run[index].seconds);
      return { name: step.name, seconds: median(times), min: Math.min(...times), max: Math.max(...times), rssMiB: median(measured.map((run) => run[index].rssKiB)) / 1024 };
    }),
    statuses,
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
  return [
    { name: 'generate --check', command: [process.execPath, CLI, 'generate', '--check', '--root', root, ...cache], env },
    { name: 'check', command: [process.execPath, CLI, 'check', '--root', root, ...cache], env },
  ];
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
  return ['@redocly/cli', '@asyncapi/parser', '@asyncapi/specs', 'remark-cli', 'remark-validate-links', 'remark-gfm', 'ajv-cli', 'ajv', 'ajv-formats'].map((name) => `${name} ${version(name)}`);
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
  const header = ['Scale', 'What', 'Wall s (median)', 'min–max', 'Peak RSS MiB', 'Runs', 'Exit'];
  const lines = [header, header.map(() => '---')];
  for (const row of rows) {
    lines.push([
      `×${row.scale}`,
      row.label,
      seconds(row.seconds),
      `${seconds(row.min)}–${seconds(row.max)}`,
      mib(row.rssMiB),
      String(row.runs),
      row.statuses.join(','),
    ]);
  }
  return lines.map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}

function profile(run, count = 6) {
  const stderr = run?.map((step) => step.stderr).join('\n') ?? '';
  const rows = [];
  for (const line of stderr.split('\n')) {
    const match = /^(\S+)\s+([\d.]+)$/.exec(line.trim());
    if (match && match[1] !== 'rule') rows.push({ rule: match[1], ms: Number(match[2]) });
  }
  const totals = [...stderr.matchAll(/^total \(process\)\s+([\d.]+)$/gm)].map((match) => Number(match[1]));
  rows.sort((a, b) => b.ms - a.ms);
  return { top: rows.slice(0, count), processMs: totals };
}

// ---------------------------------------------------------------------------------------------
// Main

function main() {
  const options = parseArguments(process.argv.slice(2));
  const log = (line) => console.error(line);
  if (!existsSync(CLI)) throw new Error(`${path.relative(REPO, CLI)} does not exist: run \`npm run build\` first (npm run bench does)`);
  if (options.peers) {
    for (const bin of ['redocly', 'remark', 'ajv']) if (!existsSync(path.join(BIN, bin))) throw new Error(`node_modules/.bin/${bin} is missing: run \`npm ci\` (the peer tools are devDependencies)`);
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
  const profiles = new Map();
  const peersByScale = new Map();
  for (const scale of options.scales) {
    const { root } = corpora.get(scale);
    const budget = scale >= 100 ? options.budget : undefined;
    log(`×${scale}:`);
    const cold = figure(`ours: generate --check + check, cold (--no-cache)`, oursSteps(root, true), { cwd: root, runs: options.runs, budget, mustPass: true, log });
    rows.push({ scale, kind: 'ours-cold', ...cold });
    profiles.set(scale, profile(cold.last));
    for (const step of cold.steps) rows.push({ scale, kind: 'ours-step', label: `… of which ${step.name}`, ...step, runs: cold.runs, statuses: cold.statuses });
    if (options.warm) {
      const warm = figure(`ours: generate --check + check, warm parse cache`, oursSteps(root, false), { cwd: root, runs: options.runs, budget, mustPass: true, log });
      rows.push({ scale, kind: 'ours-warm', ...warm });
    }
    if (options.peers && scale <= 10) {
      const peers = [];
      for (const peer of peerFigures(root)) {
        const result = figure(`${peer.name}`, peer.steps, { cwd: root, runs: options.runs, mustPass: false, log });
        if (result.statuses.some((status) => status !== 0 && status !== 1)) {
          log(`  warning: ${peer.name} exited ${result.statuses.join(',')} on ×${scale}; its output:\n${`${result.last[0].stdout}${result.last[0].stderr}`.trim().split('\n').slice(-15).join('\n')}`);
        }
        rows.push({ scale, kind: 'peer', what: peer.what, ...result });
        peers.push(result);
      }
      const sum = {
        label: 'peers: sum of the four',
        seconds: peers.reduce((total, peer) => total + peer.seconds, 0),
        min: peers.reduce((total, peer) => total + peer.min, 0),
        max: peers.reduce((total, peer) => total + peer.max, 0),
        rssMiB: Math.max(...peers.map((peer) => peer.rssMiB)),
        runs: Math.min(...peers.map((peer) => peer.runs)),
        statuses: [...new Set(peers.flatMap((peer) => peer.statuses))],
      };
      rows.push({ scale, kind: 'peer-sum', ...sum });
      peersByScale.set(scale, { sum, ours: cold });
    }
  }

  const lines = [];
  lines.push(table(rows));
  lines.push('');
  for (const [scale, { sum, ours }] of peersByScale) {
    lines.push(`- ×${scale}: ours ${seconds(ours.seconds)} s / peers ${seconds(sum.seconds)} s = **${(ours.seconds / sum.seconds).toFixed(2)}** (wall); peak memory ${mib(ours.rssMiB)} MiB / ${mib(sum.rssMiB)} MiB (the largest peer)`);
  }
  const one = rows.find((row) => row.scale === 1 && row.kind === 'ours-cold');
  const hundred = rows.find((row) => row.scale === 100 && row.kind === 'ours-cold');
  const ten = rows.find((row) => row.scale === 10 && row.kind === 'ours-cold');
  if (one && ten) lines.push(`- growth ×10 / ×1: **${(ten.seconds / one.seconds).toFixed(1)}×** the wall time (linear would be 10×)`);
  if (one && hundred) lines.push(`- growth ×100 / ×1: **${(hundred.seconds / one.seconds).toFixed(1)}×** the wall time (target ≤ 100×: ${hundred.seconds / one.seconds <= 100 ? 'met' : 'NOT met'}); peak memory ${mib(hundred.rssMiB)} MiB (target < 1024 MiB: ${hundred.rssMiB < 1024 ? 'met' : 'NOT met'})`);
  if (one) lines.push(`- ×1 full run: ${seconds(one.seconds)} s for the two processes (target: well under 1 s each, process start included)`);
  const summary = lines.join('\n');
  console.log(summary);

  const profileLines = [];
  for (const [scale, { top, processMs }] of profiles) {
    profileLines.push(`- ×${scale} (${processMs.map((ms) => `${(ms / 1000).toFixed(2)} s`).join(' + ')} in-process): ${top.map((entry) => `${entry.rule} ${(entry.ms / 1000).toFixed(2)} s`).join(', ')}`);
  }
  console.log(`\nSlowest rules and generators in the last cold run (OPENWOP_SPEC_TIMING=1):\n${profileLines.join('\n')}`);

  const total = (performance.now() - started) / 1000;
  log(`bench: done in ${total.toFixed(0)} s`);
  if (options.write) {
    writeFileSync(OUTPUT, report({ options, host, corpora, rows, summary, profileLines, total }));
    log(`bench: wrote ${path.relative(process.cwd(), OUTPUT)}`);
  }
}

function report({ options, host, corpora, rows, summary, profileLines, total }) {
  const argv = process.argv.slice(2);
  const command = `npm run bench${argv.length > 0 ? ` -- ${argv.join(' ')}` : ''}`;
  const peerRows = rows.filter((row) => row.kind === 'peer');
  const peerCommands = [...new Map(peerRows.map((row) => [row.label, row.what])).entries()].map(([name, what]) => `- ${name}: \`${what}\``);
  const corpusLines = [...corpora.entries()].map(([scale, corpus]) => {
    const added = corpus.counts ? `; added ${Object.entries(corpus.counts).map(([name, count]) => `${count} ${name}`).join(', ')}` : ' (the repository itself)';
    return `- ×${scale}: ${corpus.files} files, ${(corpus.bytes / 1048576).toFixed(1)} MiB${added}`;
  });
  return `# Benchmarks

The cost of the main job, \`openwop-spec generate --check\` followed by \`openwop-spec check\` (two
processes, exactly what \`npm run corpus\` and CI run), on this repository and on synthetic corpora
ten and a hundred times its size; and, on the same ×1 and ×10 inputs, the tools a spec repository
would otherwise chain for the part of the job they overlap with. Written by \`npm run bench\`;
rerun it to refresh this page.

- Date: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC; revision ${revision()}
- Command: \`${command}\` (${total.toFixed(0)} s in all)
- Machine: ${host.cpu}, ${host.cores} cores, ${host.memoryGiB.toFixed(1)} GiB memory; ${host.os}; Node.js ${host.node}; load average at start ${host.load}
- Measured with: ${measurer === 'gnu-time' ? '`/usr/bin/time -f "%e %M"` (GNU time: elapsed wall seconds, peak resident set in KiB)' : "the wall clock around each spawn and each Node child's own `process.resourceUsage().maxRSS` (bench/peers/rss-probe.cjs; /usr/bin/time was not found)"}
- Peer tools: ${toolVersions().join(', ')}

## Results

Wall time is whole-process (process start included), the median of the measured runs after one
warm-up run; "min–max" is the spread of those runs. A figure of ours is the sum of its two
processes per run and its peak memory the larger of the two. Cold runs (\`--no-cache\`) parse every
file; warm runs reuse the parse cache in \`<root>/node_modules/.cache/openwop-spec\`. Exit is the set
of exit codes seen (ours must exit 0 on every run, or the benchmark stops).

${table(rows)}

${summary}

Slowest rules and generators in the last cold run of each scale (\`OPENWOP_SPEC_TIMING=1\`; the
in-process total of each of the two processes, then the top entries):

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
- The peers are four processes, ours two; each side pays Node's start-up per process.
- A ×100 figure whose warm-up run is slow gets fewer measured runs (\`--budget\`, default 240 s per
  figure), never fewer than one; the Runs column says how many.
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
