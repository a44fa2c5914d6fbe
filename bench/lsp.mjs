#!/usr/bin/env node
/**
 * The language server's latency, as ratios against a warm `check` of the same corpus measured in
 * the same run (whole process, parse cache warm, median): what an author waits for after an edit,
 * beside what they would wait for running the gates themselves.
 *
 *   - edited file: from sending a didChange that breaks a citation to the publication of the
 *     edited file's diagnostics;
 *   - every affected file: from sending a didChange that renames a heading cited from other files
 *     (markdown, JSON and YAML) to the last publication that change causes;
 *   - navigation: definition, hover, references and completion at a citation, once the server holds
 *     the model (the first request after an edit reads the edited file's sites again; it is counted).
 *
 * And the memory of the server holding the corpus: its peak resident set (VmHWM) after the edits.
 * Each latency is the median of `runs` edits (each undone before the next) or requests.
 *
 * Usage: node bench/lsp.mjs [--scales 1,10] [--runs N] [--seed S] [--no-write]   (after npm run build)
 * `npm run bench` runs it too (bench/run.mjs) and puts its table in BENCHMARKS.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createProtocolConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-languageserver-protocol/node';
import { makeCorpus, REPO } from './make-corpus.mjs';

const CLI = path.join(REPO, 'dist', 'scripts', 'cli.js');
/** The heading the edits rename: cited from markdown, from errors.json and from openapi.yaml in this corpus, and in every scale corpus built from it. */
const DOCUMENT = 'spec/v2/core/connection-packs.md';
const HEADING = 'Provider identity';
const CITING = 'spec/v2/core/security-defaults.md';
const TARGETS = { edited: 0.1, affected: 0.5, navigation: 0.05 };

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** A warm `check --format json` of the root: one warm-up, then the median of `runs`. */
function warmCheck(root, runs) {
  const once = () => {
    const started = performance.now();
    const result = spawnSync(process.execPath, [CLI, 'check', '--root', root, '--format', 'json'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (result.status !== 0) throw new Error(`check on ${root} exited ${result.status}: ${result.stderr.split('\n')[0]}`);
    return performance.now() - started;
  };
  once();
  return median(Array.from({ length: runs }, once));
}

function positionOf(text, needle, delta = 0) {
  const at = text.indexOf(needle);
  if (at === -1) throw new Error(`${JSON.stringify(needle)} not found`);
  const before = text.slice(0, at + delta);
  return { line: before.split('\n').length - 1, character: before.length - (before.lastIndexOf('\n') + 1) };
}

/** The server on `root`, with every publication timed. */
async function startServer(root) {
  const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const publications = [];
  connection.onNotification('textDocument/publishDiagnostics', (params) => publications.push({ at: performance.now(), uri: params.uri, count: params.diagnostics.length }));
  connection.onRequest('client/registerCapability', () => null);
  connection.onNotification('window/showMessage', () => undefined);
  connection.listen();
  await connection.sendRequest('initialize', { processId: process.pid, rootUri: pathToFileURL(root).href, capabilities: {}, workspaceFolders: null });
  await connection.sendNotification('initialized', {});
  const uri = (file) => pathToFileURL(path.join(root, file)).href;
  /**
   * Resolves once publications stop for `quietMs`, with the time of the last one; with `some`, not
   * before there has been one (an edit always publishes), else none at all also ends the wait.
   */
  const quiet = async (since, quietMs = 1500, some = false) => {
    for (;;) {
      await new Promise((r) => setTimeout(r, 20));
      const last = publications.filter((p) => p.at >= since).at(-1);
      if (some && !last) {
        if (performance.now() - since > 300_000) throw new Error('no publication within 300 s of an edit');
        continue;
      }
      if (performance.now() - (last?.at ?? since) > quietMs) return last?.at ?? since;
    }
  };
  const publishedFor = (file, since) =>
    new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        const found = publications.find((p) => p.at >= since && p.uri === uri(file));
        if (found) {
          clearInterval(timer);
          resolve(found.at);
        } else if (performance.now() - since > 120_000) {
          clearInterval(timer);
          reject(new Error(`no publication for ${file}`));
        }
      }, 1);
    });
  return { child, connection, uri, quiet, publishedFor, publications };
}

function residentMiB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) / 1024;
    return { now: field('VmRSS'), peak: field('VmHWM') };
  } catch {
    return { now: NaN, peak: NaN };
  }
}

/** The figures of one corpus. */
export async function lspFigures(root, { runs = 5, log = () => {} } = {}) {
  const check = warmCheck(root, runs);
  log(`  warm check ${check.toFixed(0)} ms`);
  const server = await startServer(root);
  // Answered once the server holds the model; its first run follows at once.
  await server.connection.sendRequest('workspace/symbol', { query: HEADING });
  await server.quiet(performance.now(), 3000);
  const citing = readFileSync(path.join(root, CITING), 'utf8');
  const document = readFileSync(path.join(root, DOCUMENT), 'utf8');
  let version = 1;
  for (const [file, text] of [[CITING, citing], [DOCUMENT, document]]) {
    await server.connection.sendNotification('textDocument/didOpen', { textDocument: { uri: server.uri(file), languageId: 'markdown', version: version, text } });
  }
  await server.quiet(performance.now(), 500);
  const change = (file, range, text) => server.connection.sendNotification('textDocument/didChange', { textDocument: { uri: server.uri(file), version: ++version }, contentChanges: [{ range, text }] });

  // The edited file: a broken citation typed at its end, then removed.
  const end = citing.split('\n').length - 1;
  const edited = [];
  for (let i = 0; i < runs; i++) {
    const typed = `See connection-packs.md §"No such heading ${i}".\n`;
    const since = performance.now();
    await change(CITING, { start: { line: end, character: 0 }, end: { line: end, character: 0 } }, typed);
    edited.push((await server.publishedFor(CITING, since)) - since);
    await server.quiet(since, 300, true);
    const undone = performance.now();
    await change(CITING, { start: { line: end, character: 0 }, end: { line: end + 1, character: 0 } }, '');
    await server.quiet(undone, 300, true);
  }

  // Every affected file: the heading renamed (its citations in other files break), then restored.
  const heading = positionOf(document, `## ${HEADING}`, 3);
  const affected = [];
  let files = 0;
  for (let i = 0; i < runs; i++) {
    const renamed = `${HEADING} renamed ${i}`;
    let since = performance.now();
    await change(DOCUMENT, { start: heading, end: { line: heading.line, character: heading.character + HEADING.length } }, renamed);
    const last = await server.quiet(since, 800, true);
    affected.push(last - since);
    files = new Set(server.publications.filter((p) => p.at >= since).map((p) => p.uri)).size;
    since = performance.now();
    await change(DOCUMENT, { start: heading, end: { line: heading.line, character: heading.character + renamed.length } }, HEADING);
    await server.quiet(since, 300, true);
  }

  // Navigation at the citation of the heading in the citing document.
  const at = positionOf(citing, `§"${HEADING}"`, 4);
  const textDocument = { uri: server.uri(CITING) };
  const requests = {
    definition: ['textDocument/definition', { textDocument, position: at }],
    hover: ['textDocument/hover', { textDocument, position: at }],
    references: ['textDocument/references', { textDocument, position: at, context: { includeDeclaration: true } }],
    completion: ['textDocument/completion', { textDocument, position: { line: at.line, character: at.character + 2 } }],
  };
  const navigation = {};
  for (const [name, [method, params]] of Object.entries(requests)) {
    const times = [];
    for (let i = 0; i < runs; i++) {
      const since = performance.now();
      const result = await server.connection.sendRequest(method, params);
      times.push(performance.now() - since);
      if (result === null || (Array.isArray(result) && result.length === 0)) throw new Error(`${method} found nothing at the citation`);
    }
    navigation[name] = median(times);
  }
  const memory = residentMiB(server.child.pid);
  await server.connection.sendRequest('shutdown');
  await server.connection.sendNotification('exit');
  server.connection.dispose();
  return { check, edited: median(edited), affected: median(affected), affectedFiles: files, navigation, memory };
}

export function lspTable(results) {
  const ms = (value) => `${value.toFixed(0)} ms`;
  const ratio = (value, check, target) => {
    const r = value / check;
    return `${r.toFixed(3)}× ${r <= target ? '(within' : '(over'} ${target}×)`;
  };
  const rows = ['| Scale | Warm check | Edited file | Every affected file | Definition | Hover | References | Completion | Server memory (peak RSS) |', '| --- | --- | --- | --- | --- | --- | --- | --- | --- |'];
  for (const [scale, f] of results) {
    const nav = (name) => `${ms(f.navigation[name])}, ${ratio(f.navigation[name], f.check, TARGETS.navigation)}`;
    rows.push(`| ×${scale} | ${ms(f.check)} | ${ms(f.edited)}, ${ratio(f.edited, f.check, TARGETS.edited)} | ${ms(f.affected)} (${f.affectedFiles} files), ${ratio(f.affected, f.check, TARGETS.affected)} | ${nav('definition')} | ${nav('hover')} | ${nav('references')} | ${nav('completion')} | ${f.memory.peak.toFixed(0)} MiB |`);
  }
  return rows.join('\n');
}

export const LSP_METHOD = `The language server (\`openwop-spec lsp\`, \`bench/lsp.mjs\`): each latency is the median of the
measured edits or requests on one server process, as a ratio against the warm \`check\` of the same
corpus measured just before it (whole process, parse cache warm). An edit re-parses the edited file
alone and reuses every other file's parse; the run (core/run's runCorpus, handed the last result)
re-runs only the gates and generators whose recorded reads the edit touches and keeps the others'
findings, then the later stages (cascade, relocation, fingerprints, suppressions, severities) over
all of them, once per change, and publishes every file whose findings changed.
"Edited file" is from the didChange that types a broken citation to the edited file's publication;
"every affected file" from the didChange that renames a heading cited from other files (markdown,
JSON and YAML strings) to the last publication it causes, which is the same run. Navigation is
timed with the sites of every file read (after an edit only the edited file's are read again).
Memory is the server's peak resident set after all of it.`;

async function main() {
  const argv = process.argv.slice(2);
  const option = (name, fallback) => {
    const at = argv.indexOf(name);
    return at === -1 ? fallback : argv[at + 1];
  };
  const scales = String(option('--scales', '1,10')).split(',').map(Number);
  const runs = Number(option('--runs', '5'));
  const seed = Number(option('--seed', '1'));
  const log = (line) => console.error(line);
  if (!existsSync(CLI)) throw new Error('dist/scripts/cli.js is missing: run `npm run build` first');
  const results = new Map();
  for (const scale of scales) {
    const root = scale === 1 ? REPO : makeCorpus({ scale, seed, out: path.join(REPO, '.bench', `x${scale}`), verify: false, log }).out;
    log(`×${scale}: ${root}`);
    results.set(scale, await lspFigures(root, { runs, log }));
  }
  const table = lspTable(results);
  console.log(table);
  if (!argv.includes('--no-write')) {
    const file = path.join(REPO, 'BENCHMARKS.md');
    const text = readFileSync(file, 'utf8');
    const section = `<!-- lsp -->\n## The language server\n\n${LSP_METHOD}\n\nMeasured by \`node bench/lsp.mjs --scales ${scales.join(',')} --runs ${runs}\` on ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC.\n\n${table}\n<!-- /lsp -->`;
    const marked = /<!-- lsp -->[\s\S]*<!-- \/lsp -->/;
    writeFileSync(file, marked.test(text) ? text.replace(marked, section) : `${text.trimEnd()}\n\n${section}\n`);
    log('bench/lsp: wrote its section of BENCHMARKS.md');
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(`bench/lsp: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
