#!/usr/bin/env node
/**
 * The scale corpus of `npm run bench`: this repository's corpus grown ×N, coherent, so that
 * `openwop-spec generate --check` and `openwop-spec check` both pass on it and the benchmark
 * measures a full run, never an early exit on findings.
 *
 * Copy k (1 ≤ k < N, tag `x00k`) of each part of the corpus is a real member of the corpus, held to
 * the same gates as the original:
 *   - every core document, as spec/v2/core/<name>-x00k.md: a core document (docs/structure), its
 *     title marked as a copy, every mention of a core document (links, section citations,
 *     backticked paths) pointing into its own copy set, its Normative home naming the copied
 *     families; its count regions stay generated, every other generated region becomes plain text
 *     (a copy of a registry-sized table in every copy would grow the corpus as N², not N);
 *   - every schema of schemas/v2 except the kinds (ids.schema.json), as <name>-x00k.schema.json
 *     with its own $id, `$ref`s to a copied schema pointing at the copy, id properties unchanged
 *     (so id-field-bindings.json, which binds by property name, already classifies them);
 *   - every operation of api/v2/openapi.yaml under /x00k/… with its operationId suffixed, and every
 *     channel and operation of api/v2/asyncapi.yaml likewise;
 *   - every row of the registries: error codes (<code>_x00k), codemap rows (<type>-x00k, with a copy
 *     of the payload definition), declaration families and metadata keys (<key>X00k, their sections
 *     in the copied documents), requirements and invariants (<id>-x00k, citing the copies).
 * Copies never add to the witness ratchet: a seam-gated entry is copied as witnessable-gated, and an
 * unwitnessable one is not copied. Then `openwop-spec generate` brings every derived file and region
 * up to date (the type enum, the payload index, the envelope, the header and code tables, the
 * counts, the path manifest, the stamp), and the corpus is verified: both verbs must exit 0.
 *
 * The result is a pure function of the source corpus, N and the seed (the seed orders the synthetic
 * registry rows), so two builds are byte-identical. A fingerprint of the inputs (this file, the
 * source corpus, the built tool) is stored beside the corpus, so an unchanged corpus is reused.
 *
 * Usage: node bench/make-corpus.mjs --scale N [--seed S] [--out DIR] [--source DIR] [--force] [--no-verify]
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDocument } from 'yaml';
// The built tool (npm run bench builds it first): the scale corpus is read as its loader reads a corpus.
import { CORPUS_DIRECTORIES, CORPUS_ROOT_FILES } from '../dist/core/model/corpus.js';
import { walkFiles } from '../dist/core/model/file-walk.js';
import { aliasMembers } from '../dist/core/config/aliases.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..');
const MARKER_FILE = '.scale-corpus.json';

const CORE_DOCUMENT = /^spec\/v2\/core\/[^/]+\.md$/;
const SCHEMA_BASE = 'https://openwop.dev/';
const IDS_SCHEMA = 'schemas/v2/ids.schema.json';
const OPENAPI = 'api/v2/openapi.yaml';
const ASYNCAPI = 'api/v2/asyncapi.yaml';
const ERRORS = 'spec/v2/errors.json';
const CODEMAP = 'spec/v2/event-codemap.json';
const PAYLOADS = 'schemas/v2/run-event-payloads.schema.json';
const DECLARATION = 'spec/v2/declaration.json';
const REQUIREMENTS = 'conformance/requirements.json';
const INVARIANTS = 'SECURITY/invariants.yaml';
/** The witness classes the ratchet of docs/witness-baseline.json counts; a copy never adds to them. */
const SEAM_GATED = 'seam-gated';
const UNWITNESSABLE = 'unwitnessable';
const REGION_MARKER = /<!--\s*(\/?)generated:\s*([A-Za-z0-9][\w./-]*)((?:(?!-->)[\s\S])*)-->/g;

/** The spellings of copy k's tag: paths and kebab ids, camelCase keys, snake_case codes. */
export function tags(k) {
  const digits = String(k).padStart(3, '0');
  return { kebab: `x${digits}`, camel: `X${digits}`, snake: `x${digits}` };
}

// ---------------------------------------------------------------------------------------------
// The source corpus, read once

/**
 * Root-relative path -> bytes of every corpus file under `root`, in code-unit order: what the
 * corpus loader reads (the built tool's own walk and directory list), so a copy holds exactly that.
 */
export function readCorpusFiles(root) {
  const unreadable = (relative, code) => {
    throw new Error(`cannot read ${path.join(root, relative)}: ${code}`);
  };
  const paths = CORPUS_DIRECTORIES.flatMap((directory) => walkFiles(root, directory, { dotfiles: false, unreadable }));
  for (const file of CORPUS_ROOT_FILES) if (existsSync(path.join(root, file))) paths.push(file);
  return new Map(paths.sort(compare).map((file) => [file, readFileSync(path.join(root, file))]));
}

function compare(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Building

/**
 * Writes the ×`scale` corpus of `source` into `out` and brings its generated files up to date.
 * Returns { out, scale, seed, reused, files, bytes, counts }.
 */
export function makeCorpus({ scale, seed = 1, out, source = REPO, force = false, verify = true, cli = path.join(REPO, 'dist', 'scripts', 'cli.js'), log = () => {} }) {
  if (!Number.isInteger(scale) || scale < 1) throw new Error(`scale must be a positive integer, not ${scale}`);
  if (!Number.isInteger(seed)) throw new Error(`seed must be an integer, not ${seed}`);
  if (!existsSync(cli)) throw new Error(`${cli} does not exist: build the tool first (npx tsc -p .)`);
  const sourceFiles = readCorpusFiles(source);
  if (sourceFiles.size === 0) throw new Error(`${source} holds no corpus (none of ${CORPUS_DIRECTORIES.join(', ')})`);
  const fingerprint = fingerprintOf(sourceFiles, scale, seed, cli);
  const markerPath = path.join(out, MARKER_FILE);
  if (!force && existsSync(markerPath)) {
    try {
      const marker = JSON.parse(readFileSync(markerPath, 'utf8'));
      // Reused only while its inputs are unchanged and nothing has touched its files since.
      if (marker.fingerprint === fingerprint && marker.digest === digestOf(readCorpusFiles(out))) return { ...marker, out, reused: true };
    } catch {
      // an unreadable marker is a corpus to rebuild
    }
  }

  log(`building the ×${scale} corpus (seed ${seed}) in ${path.relative(process.cwd(), out) || '.'}`);
  const { files, counts } = scaleCorpus(sourceFiles, { scale, seed });
  rmSync(out, { recursive: true, force: true });
  for (const [file, content] of files) {
    mkdirSync(path.dirname(path.join(out, file)), { recursive: true });
    writeFileSync(path.join(out, file), content);
  }
  writeFileSync(path.join(out, 'package.json'), packageManifest(source));
  // ×scale core documents hold ×scale words, and the copies carry generated tables as plain text:
  // the budget grows with the corpus, and readability limits are warnings there.
  writeFileSync(path.join(out, 'openwop-spec.config.json'), `${JSON.stringify(scaledConfig(source, scale), null, 2)}\n`);
  // The parse cache lives in <root>/node_modules/.cache, and a root without node_modules runs
  // uncached: an empty one makes the warm-cache figures of the benchmark possible.
  mkdirSync(path.join(out, 'node_modules'), { recursive: true });

  // One generate brings every derived artifact up to date with the grown registries.
  const generated = runCli(cli, ['generate', '--root', out, '--no-cache']);
  if (generated.status !== 0) fail(`generate on the ×${scale} corpus exited ${generated.status}`, generated);
  if (verify) verifyCorpus(cli, out, scale);

  const written = readCorpusFiles(out);
  let bytes = 0;
  for (const content of written.values()) bytes += content.length;
  const marker = { scale, seed, fingerprint, digest: digestOf(written), files: written.size, bytes, counts };
  writeFileSync(markerPath, `${JSON.stringify(marker, null, 2)}\n`);
  return { ...marker, out, reused: false };
}

/** Both verbs of the main job exit 0 on the corpus (warnings allowed), or this throws with their output. */
export function verifyCorpus(cli, out, scale) {
  for (const args of [['generate', '--check'], ['check']]) {
    const result = runCli(cli, [...args, '--root', out, '--no-cache']);
    if (result.status !== 0) fail(`\`openwop-spec ${args.join(' ')}\` on the ×${scale} corpus exited ${result.status}; the scale corpus must pass`, result);
  }
}

function runCli(cli, args) {
  return spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
}

function fail(message, result) {
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n');
  const shown = output.length > 60 ? [...output.slice(0, 60), `… (${output.length - 60} more lines)`] : output;
  throw new Error(`${message}:\n${shown.join('\n')}`);
}

/**
 * The source's config, with what a grown corpus changes: the word budget grows with it, and
 * readability limits are warnings (the copies carry generated tables as plain text). Everything
 * else (the v1 documents cited as external, the counted v1 mentions) holds for the copies as it
 * holds for the original, so a scale run is not flooded with findings the source has settled.
 */
function scaledConfig(source, scale) {
  const file = path.join(source, 'openwop-spec.config.json');
  const config = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const rules = { ...config.rules };
  rules['docs/core-budget'] = ['error', { ...optionsOf(rules['docs/core-budget']), budget: 25000 * scale }];
  // docs/readability is the old id of the three prose rules; a setting of a new id wins over it, so
  // each is set where the source config sets it.
  for (const id of ['docs/readability', ...aliasMembers('docs/readability')]) {
    if (id !== 'docs/readability' && !(id in rules)) continue;
    rules[id] = ['warn', { ...optionsOf(rules[id]) }];
    // The recorded count of v1 mentions is the source's; copies repeat some of them, so the scale corpus is held to none.
    delete rules[id][1].v1Mentions;
  }
  return { ...config, rules };
}

function optionsOf(setting) {
  return Array.isArray(setting) && typeof setting[1] === 'object' && setting[1] !== null ? setting[1] : {};
}

/** The package.json the corpus stamp reads its version from, taken from the source's. */
function packageManifest(source) {
  const manifest = JSON.parse(readFileSync(path.join(source, 'package.json'), 'utf8'));
  return `${JSON.stringify({ name: manifest.name, version: manifest.version, private: true, description: 'A synthetic scale corpus for npm run bench; regenerated, never edited.' }, null, 2)}\n`;
}

/** The SHA-256 over the paths and bytes of a corpus. */
function digestOf(files) {
  const hash = createHash('sha256');
  for (const [file, content] of files) hash.update(`${file}\0`).update(content);
  return `sha256:${hash.digest('hex')}`;
}

/** What a built corpus depends on: this generator, the source corpus, N, the seed and the built tool. */
function fingerprintOf(sourceFiles, scale, seed, cli) {
  const hash = createHash('sha256');
  hash.update(`scale ${scale} seed ${seed}\n`);
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  for (const [file, content] of sourceFiles) hash.update(`${file}\0`).update(content);
  const dist = path.resolve(path.dirname(cli), '..');
  const walk = (directory) => {
    for (const entry of readdirSync(directory, { withFileTypes: true }).sort((a, b) => compare(a.name, b.name))) {
      const absolute = path.join(directory, entry.name);
      if (entry.isDirectory()) walk(absolute);
      else if (entry.name.endsWith('.js')) hash.update(`${path.relative(dist, absolute)}\0`).update(readFileSync(absolute));
    }
  };
  if (existsSync(dist) && statSync(dist).isDirectory()) walk(dist);
  return `sha256:${hash.digest('hex')}`;
}

// ---------------------------------------------------------------------------------------------
// The transformations (pure: source files in, scaled files out)

/**
 * The ×`scale` corpus as path -> content (Buffer or string), before generation, and what it added.
 */
export function scaleCorpus(sourceFiles, { scale, seed = 1 }) {
  const files = new Map(sourceFiles);
  const counts = { documents: 0, schemas: 0, operations: 0, channels: 0, errorCodes: 0, eventTypes: 0, families: 0, metadata: 0, requirements: 0, invariants: 0 };
  if (scale === 1) return { files, counts };
  const random = mulberry32(seed);
  const text = (file) => {
    const content = sourceFiles.get(file);
    if (content === undefined) throw new Error(`the source corpus has no ${file}, which the scale corpus grows`);
    return content.toString('utf8');
  };
  const json = (file) => JSON.parse(text(file));

  const documents = [...sourceFiles.keys()].filter((file) => CORE_DOCUMENT.test(file));
  const stems = documents.map((file) => path.posix.basename(file, '.md'));
  const schemas = [...sourceFiles.keys()].filter((file) => /^schemas\/v2\/.+\.schema\.json$/.test(file) && file !== IDS_SCHEMA);
  const declaration = json(DECLARATION);
  const liveFamilies = declaration.families.filter((family) => family.anchor !== 'deleted' && typeof family.section === 'string');

  const copies = [];
  for (let k = 1; k < scale; k++) copies.push(tags(k));

  for (const tag of copies) {
    const familyKeys = new Map(liveFamilies.filter((family) => stems.includes(sectionStem(family.section))).map((family) => [family.key, `${family.key}${tag.camel}`]));
    for (const file of documents) {
      files.set(copyPath(file, tag, '.md'), copyDocument(text(file), stems, tag, familyKeys));
      counts.documents++;
    }
    for (const file of schemas) {
      files.set(copyPath(file, tag, '.schema.json'), copySchema(file, json(file), schemas, tag));
      counts.schemas++;
    }
  }

  const openapi = copyOpenApi(text(OPENAPI), copies);
  files.set(OPENAPI, openapi.text);
  counts.operations = openapi.operations;
  const asyncapi = copyAsyncApi(text(ASYNCAPI), copies);
  files.set(ASYNCAPI, asyncapi.text);
  counts.channels = asyncapi.channels;

  const errors = json(ERRORS);
  const errorCopies = [];
  for (const tag of copies) for (const row of errors.rows) errorCopies.push({ ...clone(row), code: `${row.code}_${tag.snake}` });
  errors.rows = [...errors.rows, ...shuffle(errorCopies, random)];
  counts.errorCodes = errorCopies.length;
  files.set(ERRORS, formatJson(errors));

  const codemap = json(CODEMAP);
  const payloads = json(PAYLOADS);
  const rowCopies = [];
  for (const tag of copies) {
    for (const row of codemap.rows) {
      const copy = { ...clone(row), v1: `${row.v1}-${tag.kebab}`, v2: `${row.v2}-${tag.kebab}`, payloadDef: `${row.payloadDef}${tag.camel}` };
      if (row.v2Override !== undefined) copy.v2Override = `${row.v2Override}-${tag.kebab}`;
      rowCopies.push(copy);
      const payload = payloads.$defs?.[row.payloadDef];
      if (payload === undefined) throw new Error(`codemap row ${row.v2} names payloadDef ${row.payloadDef}, which ${PAYLOADS} does not define`);
      payloads.$defs[copy.payloadDef] = clone(payload);
    }
  }
  codemap.rows = [...codemap.rows, ...shuffle(rowCopies, random)];
  counts.eventTypes = rowCopies.length;
  files.set(CODEMAP, formatJson(codemap));
  files.set(PAYLOADS, formatJson(payloads));

  const familyCopies = [];
  const metadataCopies = [];
  for (const tag of copies) {
    for (const family of liveFamilies) {
      if (!stems.includes(sectionStem(family.section))) continue;
      // normativeText is left out: a copy's prose still names the original family, not the copy.
      const { normativeText: _normativeText, ...copied } = clone(family);
      familyCopies.push({ ...copied, key: `${family.key}${tag.camel}`, section: copySection(family.section, tag, family.key, `${family.key}${tag.camel}`), witness: family.witness === SEAM_GATED ? 'witnessable-gated' : family.witness });
    }
    for (const entry of declaration.metadata) {
      if (!stems.includes(sectionStem(entry.section))) continue;
      metadataCopies.push({ ...clone(entry), key: `${entry.key}${tag.camel}`, section: copySection(entry.section, tag) });
    }
  }
  declaration.families = [...declaration.families, ...familyCopies];
  declaration.metadata = [...declaration.metadata, ...metadataCopies];
  counts.families = familyCopies.length;
  counts.metadata = metadataCopies.length;
  files.set(DECLARATION, formatJson(declaration));

  const requirements = json(REQUIREMENTS);
  const recordCopies = [];
  for (const tag of copies) {
    for (const record of requirements.records) {
      if (record.witness === UNWITNESSABLE) continue;
      recordCopies.push({
        ...clone(record),
        id: `${record.id}-${tag.kebab}`,
        witness: record.witness === SEAM_GATED ? 'witnessable-gated' : record.witness,
        citations: record.citations.map((citation) => ({ ...citation, section: renameDocuments(citation.section, stems, tag) })),
      });
    }
  }
  requirements.records = [...requirements.records, ...shuffle(recordCopies, random)];
  counts.requirements = recordCopies.length;
  files.set(REQUIREMENTS, formatJson(requirements));

  const invariants = parseDocument(text(INVARIANTS));
  const list = invariants.get('invariants');
  const originals = list.toJSON();
  for (const tag of copies) {
    for (const invariant of originals) {
      if (invariant.witness === UNWITNESSABLE) continue;
      list.add(invariants.createNode({ ...invariant, id: `${invariant.id}-${tag.kebab}`, witness: invariant.witness === SEAM_GATED ? 'witnessable-gated' : invariant.witness }));
      counts.invariants++;
    }
  }
  files.set(INVARIANTS, invariants.toString({ lineWidth: 0 }));

  return { files, counts };
}

/** spec/v2/core/events.md -> spec/v2/core/events-x003.md; schemas/v2/a.schema.json -> schemas/v2/a-x003.schema.json. */
function copyPath(file, tag, extension) {
  return `${file.slice(0, -extension.length)}-${tag.kebab}${extension}`;
}

/** `core/idempotency.md#layer-2` -> `idempotency`. */
function sectionStem(section) {
  const match = /^core\/([^/#]+)\.md(?:#|$)/.exec(section ?? '');
  return match ? match[1] : undefined;
}

/**
 * `core/versioning.md#11-x` -> `core/versioning-x003.md#11-x`; a family's entry in the capability
 * record, `core/capabilities.md#forms`, leads to the copy's entry, `core/capabilities-x003.md#formsX003`.
 */
function copySection(section, tag, key, copiedKey) {
  const copied = section.replace(/^core\/([^/#]+)\.md/, `core/$1-${tag.kebab}.md`);
  return key !== undefined && copied.endsWith(`#${key}`) ? `${copied.slice(0, -key.length)}${copiedKey}` : copied;
}

/** Every mention of a core document (`packs.md`, `spec/v2/core/packs.md`) now names its copy. */
export function renameDocuments(text, stems, tag) {
  if (stems.length === 0) return text;
  const alternatives = [...stems].sort((a, b) => b.length - a.length || compare(a, b)).map(escapeRegExp).join('|');
  return text.replace(new RegExp(`(?<![\\w.-])(${alternatives})\\.md(?![\\w-])`, 'g'), `$1-${tag.kebab}.md`);
}

function copyDocument(source, stems, tag, familyKeys) {
  const k = Number(tag.kebab.slice(1));
  let text = renameDocuments(source, stems, tag);
  text = text.replace(/^# (.+)$/m, (_, title) => `# ${title} (scale copy ${k})`);
  // The Normative home names the copied families, whose sections point into this copy.
  text = text.replace(/^(\s*>\s?\*\*Normative home:\*\*)(.*)$/m, (_, head, names) => head + names.replace(/`([^`]+)`/g, (whole, key) => (familyKeys.has(key) ? `\`${familyKeys.get(key)}\`` : whole)));
  // So does the capability record: a `### § <key>` entry is the entry of the copied family.
  text = text.replace(/^(#{2,6} §\s*)(\S+)[ \t]*$/gm, (whole, head, key) => (familyKeys.has(key) ? `${head}${familyKeys.get(key)}` : whole));
  return stripRegions(text);
}

/**
 * Keeps the count regions (one number, filled in every document by its generator) and turns every
 * other generated region into plain text: its generator owns the region in the original document,
 * and a registry-sized table repeated in every copy would grow the corpus quadratically.
 */
function stripRegions(text) {
  return text.replace(REGION_MARKER, (marker, _closing, id, _rest, offset) => {
    if (id.startsWith('count/')) return marker;
    return `\u0000${offset}\u0000`;
  }).replace(/^[ \t]*\u0000\d+\u0000[ \t]*\n/gm, '').replace(/\u0000\d+\u0000/g, '');
}

function copySchema(file, schema, schemas, tag) {
  const copy = copyPath(file, tag, '.schema.json');
  const originalId = `${SCHEMA_BASE}${file}`;
  const copied = new Set(schemas);
  const retarget = (ref) => {
    if (ref.startsWith('#')) return ref;
    const hash = ref.indexOf('#');
    const target = hash === -1 ? ref : ref.slice(0, hash);
    const fragment = hash === -1 ? '' : ref.slice(hash);
    let resolved;
    try {
      resolved = new URL(target, originalId).href;
    } catch {
      return ref;
    }
    if (!resolved.startsWith(SCHEMA_BASE)) return ref;
    const targetPath = resolved.slice(SCHEMA_BASE.length);
    if (!copied.has(targetPath)) return ref;
    const copyTarget = copyPath(targetPath, tag, '.schema.json');
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return `${SCHEMA_BASE}${copyTarget}${fragment}`;
    let relative = path.posix.relative(path.posix.dirname(copy), copyTarget);
    if (target.startsWith('./') && !relative.startsWith('.')) relative = `./${relative}`;
    return `${relative}${fragment}`;
  };
  const walk = (value) => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const out = {};
    for (const [key, child] of Object.entries(value)) out[key] = (key === '$ref' || key === '$dynamicRef') && typeof child === 'string' ? retarget(child) : walk(child);
    return out;
  };
  const result = walk(schema);
  result.$id = `${SCHEMA_BASE}${copy}`;
  if (typeof result.title === 'string') result.title = `${result.title} (scale copy ${Number(tag.kebab.slice(1))})`;
  return formatJson(result);
}

/**
 * The `paths:` block of the OpenAPI document, copied once per tag under /x00k with every
 * operationId (and every link naming one) suffixed. Text, not a reparse, so every comment, flow
 * mapping and folded description is copied exactly as written.
 */
function copyOpenApi(source, copies) {
  const lines = source.split('\n');
  const start = lines.findIndex((line) => /^paths:\s*$/.test(line));
  const end = lines.findIndex((line, index) => index > start && /^[A-Za-z]/.test(line));
  if (start === -1 || end === -1) throw new Error(`${OPENAPI} has no top-level paths: block followed by another top-level key`);
  const block = lines.slice(start + 1, end);
  while (block.length > 0 && block[block.length - 1]?.trim() === '') block.pop();
  const operations = block.filter((line) => /^\s+operationId:\s*\S/.test(line)).length;
  const added = [];
  for (const tag of copies) {
    added.push('');
    for (const line of block) {
      added.push(
        line
          .replace(/^( {2})(\/\S*):(\s*)$/, (_, indent, route, rest) => `${indent}/${tag.kebab}${route === '/' ? '' : route}:${rest}`)
          .replace(/^(\s+operationId:\s*)(['"]?)([A-Za-z0-9_]+)\2(\s*)$/, (_, head, quote, id, rest) => `${head}${quote}${id}${tag.camel}${quote}${rest}`),
      );
    }
  }
  const text = [...lines.slice(0, start + 1), ...block, ...added, '', ...lines.slice(end)].join('\n');
  return { text, operations: operations * copies.length };
}

/**
 * Every channel and operation of the AsyncAPI document, copied once per tag: channel `runEvents`
 * becomes `runEventsX003` at /x003/runs/{runId}/events (the path of the copied OpenAPI operation),
 * and the copied operations send on the copied channels.
 */
function copyAsyncApi(source, copies) {
  const lines = source.split('\n');
  const section = (name) => {
    const start = lines.findIndex((line) => line === `${name}:`);
    const end = lines.findIndex((line, index) => index > start && /^[A-Za-z]/.test(line));
    if (start === -1 || end === -1) throw new Error(`${ASYNCAPI} has no top-level ${name}: block followed by another top-level key`);
    const block = lines.slice(start + 1, end);
    while (block.length > 0 && block[block.length - 1]?.trim() === '') block.pop();
    return { start, end, block };
  };
  const channels = section('channels');
  const operations = section('operations');
  if (operations.start < channels.end) throw new Error(`${ASYNCAPI}: expected operations: after channels:`);
  const channelCount = channels.block.filter((line) => /^ {2}[A-Za-z0-9_]+:\s*$/.test(line)).length;
  const rename = (block, tag) =>
    block.map((line) =>
      line
        .replace(/^( {2})([A-Za-z0-9_]+):(\s*)$/, (_, indent, name, rest) => `${indent}${name}${tag.camel}:${rest}`)
        .replace(/^(\s+address:\s*)(['"]?)\/(.*?)\2(\s*)$/, (_, head, quote, address, rest) => `${head}${quote}/${tag.kebab}/${address}${quote}${rest}`)
        .replace(/#\/channels\/([A-Za-z0-9_]+)/g, (_, name) => `#/channels/${name}${tag.camel}`),
    );
  const copiedChannels = copies.flatMap((tag) => ['', ...rename(channels.block, tag)]);
  const copiedOperations = copies.flatMap((tag) => ['', ...rename(operations.block, tag)]);
  const text = [
    ...lines.slice(0, channels.start + 1),
    ...channels.block,
    ...copiedChannels,
    '',
    ...lines.slice(channels.end, operations.start + 1),
    ...operations.block,
    ...copiedOperations,
    '',
    ...lines.slice(operations.end),
  ].join('\n');
  return { text, channels: channelCount * copies.length };
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function formatJson(value) {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function clone(value) {
  return structuredClone(value);
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A small seeded PRNG (mulberry32): the same seed, the same sequence, on every machine. */
export function mulberry32(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle(items, random) {
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [result[i], result[j]] = [result[j], result[i]];
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// Command line

function parseArguments(argv) {
  const options = { seed: 1, source: REPO, force: false, verify: true };
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${argument} needs a value`);
      return next;
    };
    if (argument === '--scale') options.scale = Number(value());
    else if (argument === '--seed') options.seed = Number(value());
    else if (argument === '--out') options.out = path.resolve(value());
    else if (argument === '--source') options.source = path.resolve(value());
    else if (argument === '--force') options.force = true;
    else if (argument === '--no-verify') options.verify = false;
    else if (argument === '--help' || argument === '-h') options.help = true;
    else throw new Error(`unknown argument ${argument}`);
  }
  return options;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const options = parseArguments(process.argv.slice(2));
    if (options.help || options.scale === undefined) {
      console.log('usage: node bench/make-corpus.mjs --scale N [--seed S] [--out DIR] [--source DIR] [--force] [--no-verify]');
      process.exit(options.help ? 0 : 2);
    }
    options.out ??= path.join(REPO, '.bench', `x${options.scale}`);
    const started = performance.now();
    const result = makeCorpus({ ...options, log: (line) => console.error(line) });
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${result.reused ? 'reused' : 'built'} ${path.relative(process.cwd(), result.out) || '.'}: ×${result.scale}, seed ${result.seed}, ${result.files} files, ${(result.bytes / 1048576).toFixed(1)} MiB${result.reused ? '' : `, ${seconds} s`}${options.verify && !result.reused ? ', generate --check and check pass' : ''}`);
    console.log(`added: ${Object.entries(result.counts).map(([name, count]) => `${count} ${name}`).join(', ')}`);
  } catch (error) {
    console.error(`make-corpus: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof Error && /^unknown argument|needs a value|must be/.test(error.message) ? 2 : 1);
  }
}
