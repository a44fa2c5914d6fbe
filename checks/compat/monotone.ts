import type { Corpus, DataFile, PathSegment } from '../../core/model/index.js';
import { corpusFromFiles, isObject, Location } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';
import {
  diffReleases,
  isShipped,
  loadReleaseFiles,
  releasedDigestsOf,
  whyUnreadable,
  type Change,
  type Release,
} from '../../core/release/index.js';
import { defineCheck } from '../../core/run/index.js';
import { pointerSegments, REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';

const RELEASE_PATH = 'spec/v2/release.json';
const CORRECTIONS_PATH = 'spec/v2/corrections.json';
const MIGRATIONS_PATH = 'spec/v2/migrations.json';

/** Removals a correction or migration row may license. */
const REMOVALS = new Set([
  'schema/property-removed',
  'schema/enum-removed',
  'schema/removed',
  'operation/removed',
  'channel/removed',
]);
/** Narrowings, which nothing licenses inside a major: a document valid yesterday would fail today. */
const NARROWINGS = new Set(['schema/required-added', 'schema/closed', 'schema/type-changed']);

export default defineCheck({
  id: 'compat/monotone',
  summary:
    'Against the previous release, the v2 surface only grows: a removed property, enum member, operation or channel needs a row of corrections.json or migrations.json; a new required, a newly closed object or a narrowed type fails',
  severity: 'error',
  messages: {
    'previous-unavailable': 'cannot compare with the previous release: {{reason}}',
    'previous-unreadable': 'the previous release {{release}} cannot be read: {{reason}}',
    removed:
      '{{change}} since {{release}} (line {{line}} there), and no row of {{corrections}} or {{migrations}} licenses it',
    'removed-unplaced': '{{change}} since {{release}}, and no row of {{corrections}} or {{migrations}} licenses it',
    narrowed:
      '{{change}} since {{release}}: a document the previous release accepted can now fail, which a v2 minor may not do',
    ...REGISTRY_MESSAGES,
  },
  run(corpus, report, { previousRelease }) {
    // The run resolves the previous release (--previous-release, spec/v2/release.json, the newest
    // version tag); a corpus with none has nothing yet to stay monotone against.
    if (!previousRelease) return;
    const unreadable = whyUnreadable(previousRelease);
    if (unreadable !== undefined) {
      report({
        location: Location.file('.'),
        messageId: 'previous-unavailable',
        data: { reason: unreadable },
        hint: 'install git, or name the previous release with --previous-release (a directory or a .tgz), or pass --previous-release none to compare with nothing on purpose',
      });
      return;
    }
    const previous = {
      ref: {
        spec: previousRelease,
        label: previousRelease.startsWith('git:') ? `git ref ${previousRelease.slice(4)}` : previousRelease,
        file: '.',
      },
    };
    let before: Release;
    try {
      const files = loadReleaseFiles(previous.ref.spec, corpus.root);
      before = { ...files, corpus: corpusFromFiles(files.root, Object.fromEntries(files.files)) };
    } catch (error) {
      report({
        location: Location.file(previous.ref.file),
        messageId: 'previous-unreadable',
        data: { release: previous.ref.label, reason: error instanceof Error ? error.message : String(error) },
        hint: 'name a release that exists: a directory, a .tgz or a git ref',
      });
      return;
    }
    const licences = readLicences(corpus, report);
    if (!licences) return;
    const diff = diffReleases(before, currentRelease(corpus));
    for (const change of diff.changes) {
      if (change.derivedFrom) continue;
      if (NARROWINGS.has(change.rule)) reportNarrowing(corpus, change, previous.ref.label, report);
      else if (REMOVALS.has(change.rule) && !licensed(before.corpus, corpus, change, licences))
        reportRemoval(corpus, change, previous.ref.label, report);
    }
  },
});

/** The corpus as it is now, as the newer side of the diff: its shipped files, parsed once already. */
function currentRelease(corpus: Corpus): Release {
  const files = new Map<string, Buffer>();
  for (const file of [...corpus.all()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    if (isShipped(file.path)) files.set(file.path, file.bytes);
  return {
    label: 'the corpus',
    version: undefined,
    digest: undefined,
    released: files.has(RELEASE_PATH) ? releasedDigestsOf(corpus.data(RELEASE_PATH)?.value) : new Map<string, string>(),
    files,
    root: corpus.root,
    corpus,
  };
}

interface Licence {
  /** `<file>#<pointer>` as the row writes it. */
  pointer: string;
  row: string;
  registry: string;
}

function readLicences(corpus: Corpus, report: Report): Licence[] | undefined {
  const licences: Licence[] = [];
  let valid = true;
  for (const registry of [CORRECTIONS_PATH, MIGRATIONS_PATH]) {
    const file = corpus.data(registry);
    if (!file) continue;
    const schema = registry.replace(/\.json$/, '.schema.json');
    if (corpus.data(schema)) {
      const invalid = validateRegistry(corpus, registry, schema);
      for (const finding of invalid)
        report({
          ...unworded(finding),
          hint: 'fix the register so that it matches its schema; removals are not judged until it does',
        });
      if (invalid.length > 0) valid = false;
    }
    const rows = isObject(file.value) && Array.isArray(file.value.rows) ? file.value.rows : [];
    for (const row of rows) {
      if (!isObject(row) || !Array.isArray(row.pointers)) continue;
      for (const pointer of row.pointers)
        if (typeof pointer === 'string')
          licences.push({
            pointer,
            row: typeof row.id === 'string' || typeof row.id === 'number' ? String(row.id) : '?',
            registry,
          });
    }
  }
  return valid ? licences : undefined;
}

/**
 * A removal is licensed when a row's pointer names, in the previous release, the place the change
 * is at or a place around it: the property whose enum lost a member, the operation, the channel,
 * or the whole file. Pointers name instance locations (`#/signing`, `#/chains/[]/config`), or an
 * operation as `METHOD /path` and a channel by its name.
 */
function licensed(previous: Corpus, current: Corpus, change: Change, licences: readonly Licence[]): boolean {
  const places = [
    { corpus: previous, line: lineIn(change, 'before') },
    { corpus: current, line: lineIn(change, 'after') },
  ];
  return licences.some((licence) => {
    const [file, fragment] = splitPointer(licence.pointer);
    if (file !== change.file) return false;
    if (fragment === '' || fragment === '/') return true;
    return places.some(({ corpus, line }) => {
      const data = corpus.data(file);
      if (!data || line === undefined) return false;
      return placesOf(data, fragment).some((path) => {
        const key = Location.pointer(data, path, 'key').resolve();
        const value = Location.pointer(data, path, 'value').resolve();
        return line >= key.line && line <= (value.endLine ?? value.line);
      });
    });
  });
}

/** The change's line in one release, as the diff places it there (for something removed, where it would be). */
function lineIn(change: Change, side: 'before' | 'after'): number | undefined {
  return change[side]?.line;
}

function splitPointer(pointer: string): [string, string] {
  const hash = pointer.indexOf('#');
  return hash === -1 ? [pointer, ''] : [pointer.slice(0, hash), pointer.slice(hash + 1)];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Where a pointer's subject is written in one document: the schema locations of an instance pointer, an operation, a channel. */
function placesOf(data: DataFile, fragment: string): PathSegment[][] {
  const root = data.value;
  const operation = /^([A-Za-z]+) (\/\S*)$/.exec(fragment);
  if (operation && METHODS.includes((operation[1] ?? '').toLowerCase()))
    return [['paths', operation[2] ?? '', (operation[1] ?? '').toLowerCase()]];
  if (!fragment.startsWith('/'))
    return isObject(root) && isObject(root.channels) && fragment in root.channels ? [['channels', fragment]] : [];
  const segments = pointerSegments(fragment);
  if (!segments) return [];
  // A pointer into an API document that is a plain JSON pointer (`/paths/~1runs/get`) names that node.
  if (segments[0] === 'paths' || segments[0] === 'channels' || segments[0] === 'components') return [segments];
  return instancePlaces(root, [], segments);
}

/**
 * The schema paths an instance location is described at: `name` through `properties`, `[]`
 * through `items`, following local `$ref`s and the branches of allOf/anyOf/oneOf.
 */
function instancePlaces(
  root: unknown,
  at: PathSegment[],
  rest: readonly string[],
  seen = new Set<string>(),
): PathSegment[][] {
  const key = JSON.stringify([at, rest]);
  if (seen.has(key)) return [];
  seen.add(key);
  const node = valueAtPath(root, at);
  if (!isObject(node)) return [];
  const found: PathSegment[][] = [];
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#')) {
    const target = pointerSegments(node.$ref.slice(1));
    if (target) found.push(...instancePlaces(root, target, rest, seen));
  }
  for (const keyword of ['allOf', 'anyOf', 'oneOf']) {
    const list = node[keyword];
    if (Array.isArray(list))
      list.forEach((_, index) => found.push(...instancePlaces(root, [...at, keyword, index], rest, seen)));
  }
  const [head, ...tail] = rest;
  if (head === undefined) return [at, ...found];
  if (head === '[]' && node.items !== undefined) found.push(...instancePlaces(root, [...at, 'items'], tail, seen));
  if (isObject(node.properties) && head in node.properties)
    found.push(...instancePlaces(root, [...at, 'properties', head], tail, seen));
  return found;
}

function valueAtPath(root: unknown, path: readonly PathSegment[]): unknown {
  let node = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node)) node = node[String(segment)];
    else return undefined;
  }
  return node;
}

/** Where to say it in the corpus as it is: the change's place there when the diff knows one, else the file. */
function placeNow(corpus: Corpus, change: Change): Location {
  const file = change.after?.file ?? change.file;
  if (!corpus.get(file)) return Location.file(CORRECTIONS_PATH);
  return Location.fixed(file, { line: change.after?.line ?? 1, column: 1 });
}

function reportRemoval(corpus: Corpus, change: Change, label: string, report: Report): void {
  const line = lineIn(change, 'before');
  const registers = { corrections: CORRECTIONS_PATH, migrations: MIGRATIONS_PATH };
  report({
    location: placeNow(corpus, change),
    ...(line !== undefined
      ? { messageId: 'removed', data: { change: change.message, release: label, line, ...registers } }
      : { messageId: 'removed-unplaced', data: { change: change.message, release: label, ...registers } }),
    hint: `restore it, or record why it may go: a migration row naming what replaces it, or a correction row, with the pointer \`${change.file}#…\``,
  });
}

function reportNarrowing(corpus: Corpus, change: Change, label: string, report: Report): void {
  report({
    location: placeNow(corpus, change),
    messageId: 'narrowed',
    data: { change: change.message, release: label },
    hint: 'keep the change additive (a new optional member, a wider type), or make it in the next major',
  });
}
