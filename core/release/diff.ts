/**
 * The semantic diff of two releases: each change classified `breaking`, `additive` or
 * `editorial`, with the rule that classified it, the file and (where the model knows it) the
 * line. Changes to generated files whose generator's inputs also changed are marked `derived`:
 * shown, but not counted again, since the change they follow from already is.
 */
import { type Corpus, Location, type PathSegment } from '../model/index.js';
import { compareStrings } from '../output/index.js';
import { ERRORS_PATH, CODEMAP_PATH, PAYLOADS_PATH } from '../registries/index.js';
import { firstDifferingLine } from '../run/index.js';
import { isSchemaPath } from '../schemas/index.js';
import { ASYNCAPI_PATH, OPENAPI_PATH } from '../api/index.js';
import {
  MODELLED_FILES,
  releaseModel,
  REQUIREMENTS_PATH,
  type OperationEntry,
  type ReleaseModel,
  type View,
} from './model.js';
import { API_DOCUMENTS } from './api-schemas.js';
import { lostCitedHeadings } from './heading-diff.js';
import { compareSchemaSets, SCHEMA_RULES, SchemaSet, type SchemaChange } from './schema-diff.js';
import type { Release } from './source.js';

export type Level = 'breaking' | 'additive' | 'editorial';
export const LEVELS: readonly Level[] = ['breaking', 'additive', 'editorial'];

/** Where a change is in one release: a file, and the line when the model knows it. */
interface Place {
  file: string;
  line: number | undefined;
}

export interface Change {
  rule: string;
  level: Level;
  /** The change's file and line: in the new release, or in the old for what was removed. */
  file: string;
  line: number | undefined;
  /** Its place in the old release and in the new (for something removed, where it would be). */
  before: Place | undefined;
  after: Place | undefined;
  message: string;
  /** The changed inputs of the generator that writes `file`, or the registry change it restates. */
  derivedFrom?: string[];
  /** For a schema change: whether clients or hosts write what it constrains (see schema-diff.ts). */
  direction?: SchemaChange['direction'];
  /** For an enum member added or removed: the member. */
  member?: unknown;
  /** For a `$defs` entry added or removed: its name. */
  definition?: string;
  /** Set when the config's `diff` section gave the change its level. */
  configured?: boolean;
  /** For a cited heading lost: every place (`file:line`) that cites it in the old release. */
  citedFrom?: string[];
}

export const DIFF_RULES: Record<string, { level: Level; summary: string }> = {
  'error/added': { level: 'additive', summary: 'an error code was registered' },
  'error/removed': { level: 'breaking', summary: 'an error code was removed' },
  'error/status-changed': { level: 'breaking', summary: "an error code's HTTP status changed" },
  'error/retriable-changed': { level: 'breaking', summary: "an error code's retriability changed" },
  'error/deprecated': { level: 'additive', summary: 'an error code was deprecated' },
  'event/added': { level: 'additive', summary: 'an event type was added' },
  'event/removed': { level: 'breaking', summary: 'an event type was removed' },
  'event/renamed': { level: 'breaking', summary: 'the v2 type of a v1 event changed' },
  'operation/added': { level: 'additive', summary: 'an operation was added' },
  'operation/removed': { level: 'breaking', summary: 'an operation was removed' },
  'header/added': {
    level: 'additive',
    summary: 'an optional request header or a response header was added to operations',
  },
  'header/required-added': {
    level: 'breaking',
    summary: 'operations now require a request header (a new one, or one that was optional)',
  },
  'header/removed': { level: 'breaking', summary: 'a header was removed from operations' },
  'parameter/added': {
    level: 'additive',
    summary: 'an optional query, path or cookie parameter was added to an operation',
  },
  'parameter/required-added': {
    level: 'breaking',
    summary: 'an operation now requires a query, path or cookie parameter (a new one, or one that was optional)',
  },
  'parameter/removed': {
    level: 'breaking',
    summary: 'a query, path or cookie parameter was removed from an operation',
  },
  'body/required-added': {
    level: 'breaking',
    summary: 'an operation now requires a request body (a new one, or one that was optional)',
  },
  'channel/added': { level: 'additive', summary: 'an event channel was added' },
  'channel/removed': { level: 'breaking', summary: 'an event channel was removed' },
  'schema/added': { level: 'additive', summary: 'a schema was added' },
  'schema/extracted': {
    level: 'editorial',
    summary:
      'a schema was added that schemas of both releases now reference: constraints moved into it, compared through the references',
  },
  'schema/removed': { level: 'breaking', summary: 'a schema was removed' },
  ...SCHEMA_RULES,
  'requirement/added': { level: 'additive', summary: 'a requirement id was added' },
  'requirement/removed': { level: 'breaking', summary: 'a requirement id was removed with no alias' },
  'requirement/aliased': {
    level: 'editorial',
    summary: 'a requirement id was replaced, and an alias maps the old id to the new',
  },
  'heading/removed': {
    level: 'breaking',
    summary: 'a heading other documents cite was renamed or removed: deep links and section citations into it break',
  },
  'document/added': { level: 'additive', summary: 'a document was added' },
  'document/removed': { level: 'breaking', summary: 'a document was removed' },
  'document/changed': { level: 'editorial', summary: 'a document changed' },
  'file/added': { level: 'additive', summary: 'a file was added' },
  'file/removed': { level: 'breaking', summary: 'a file was removed' },
  'file/changed': { level: 'editorial', summary: 'a file changed without a change the model classifies' },
};

export type Bump = 'major' | 'minor' | 'patch' | 'none';

export interface ReleaseDiff {
  from: { label: string; version: string | undefined; digest?: string | undefined };
  to: { label: string; version: string | undefined; digest?: string | undefined };
  /** Version -> published digest, from both releases' spec/v2/release.json (the newer wins). */
  released?: Map<string, string>;
  changes: Change[];
  /** Counted changes (not derived) by level. */
  counts: Record<Level, number>;
  /** The smallest version bump the counted changes require. */
  required: Bump;
  /** Files whose bytes differ, added or removed, for the patch format. */
  changedFiles: string[];
}

/** Which files a set of generators writes, each with the inputs it is generated from. */
export type GeneratedFiles = (corpus: Corpus) => Map<string, string[]>;

export function diffReleases(before: Release, after: Release, generated?: GeneratedFiles): ReleaseDiff {
  const changes: Change[] = [];
  const oldModel = releaseModel(before.corpus);
  const newModel = releaseModel(after.corpus);
  const at = (release: Release, file: string, segments: PathSegment[] | undefined) =>
    lineOf(release.corpus, file, segments);
  const add = (
    rule: string,
    file: string,
    line: number | undefined,
    message: string,
    places?: { before: Place | undefined; after: Place | undefined },
    schema?: SchemaChange,
    more: Pick<Change, 'citedFrom'> = {},
  ) => {
    const meta = DIFF_RULES[rule];
    if (!meta) throw new Error(`unknown diff rule ${rule}`);
    const extra = schema
      ? {
          direction: schema.direction,
          ...(schema.member !== undefined ? { member: schema.member } : {}),
          ...(schema.definition !== undefined ? { definition: schema.definition } : {}),
        }
      : {};
    // Without places of its own, a change is at `file:line` in the release that has it, and at the file in the other.
    const inOld = !after.files.has(file) || rule.endsWith('removed');
    const here = { file, line };
    const there = before.files.has(file) && after.files.has(file) ? { file, line: undefined } : undefined;
    const { before: was, after: is } =
      places ?? (inOld ? { before: here, after: there } : { before: there, after: here });
    changes.push({
      rule,
      level: schema?.level ?? meta.level,
      file,
      line,
      before: was,
      after: is,
      message,
      ...extra,
      ...more,
    });
  };

  const changedFiles = [...new Set([...before.files.keys(), ...after.files.keys()])]
    .filter((file) => !sameBytes(before.files.get(file), after.files.get(file)))
    .sort(compareStrings);
  const changed = new Set(changedFiles);

  // Error codes.
  compareView(oldModel.errors, newModel.errors, ERRORS_PATH, changed, (was, is) => {
    for (const [code, entry] of was)
      if (!is.has(code))
        add(
          'error/removed',
          ERRORS_PATH,
          at(before, ERRORS_PATH, entry.at),
          `error code \`${code}\` (${entry.httpStatus}) was removed`,
        );
    for (const [code, entry] of is) {
      const old = was.get(code);
      const line = at(after, ERRORS_PATH, entry.at);
      if (!old) add('error/added', ERRORS_PATH, line, `error code \`${code}\` (${entry.httpStatus}) was added`);
      else {
        if (old.httpStatus !== entry.httpStatus)
          add(
            'error/status-changed',
            ERRORS_PATH,
            line,
            `error code \`${code}\` changed status ${old.httpStatus} → ${entry.httpStatus}`,
          );
        if (old.retriable !== entry.retriable)
          add(
            'error/retriable-changed',
            ERRORS_PATH,
            line,
            `error code \`${code}\` is ${entry.retriable ? 'now' : 'no longer'} retriable`,
          );
        if (!old.deprecated && entry.deprecated)
          add('error/deprecated', ERRORS_PATH, line, `error code \`${code}\` was deprecated`);
      }
    }
  });

  // Event types: a v1 name whose v2 type changed is a rename, not a removal and an addition.
  compareView(oldModel.events, newModel.events, CODEMAP_PATH, changed, (was, is) => {
    const newByV1 = new Map([...is.values()].map((entry) => [entry.v1, entry]));
    const renamedTo = new Set<string>();
    for (const [type, entry] of was) {
      if (is.has(type)) continue;
      const successor = newByV1.get(entry.v1);
      if (successor && !was.has(successor.type)) {
        renamedTo.add(successor.type);
        add(
          'event/renamed',
          CODEMAP_PATH,
          at(after, CODEMAP_PATH, successor.at),
          `event type \`${type}\` was renamed \`${successor.type}\` (v1 \`${entry.v1}\`)`,
        );
      } else {
        add('event/removed', CODEMAP_PATH, at(before, CODEMAP_PATH, entry.at), `event type \`${type}\` was removed`);
      }
    }
    for (const [type, entry] of is)
      if (!was.has(type) && !renamedTo.has(type))
        add('event/added', CODEMAP_PATH, at(after, CODEMAP_PATH, entry.at), `event type \`${type}\` was added`);
  });

  // Operations, and the headers of the operations both releases have.
  compareView(oldModel.operations, newModel.operations, OPENAPI_PATH, changed, (was, is) => {
    for (const [key, entry] of was)
      if (!is.has(key))
        add(
          'operation/removed',
          OPENAPI_PATH,
          at(before, OPENAPI_PATH, entry.at),
          `operation ${entry.label} was removed`,
        );
    for (const [key, entry] of is)
      if (!was.has(key))
        add('operation/added', OPENAPI_PATH, at(after, OPENAPI_PATH, entry.at), `operation ${entry.label} was added`);
    compareHeaders(was, is, (rule, message) => add(rule, OPENAPI_PATH, undefined, message));
    compareParameters(was, is, (rule, key, message) =>
      add(rule, OPENAPI_PATH, at(after, OPENAPI_PATH, is.get(key)?.at), message),
    );
  });

  compareView(oldModel.channels, newModel.channels, ASYNCAPI_PATH, changed, (was, is) => {
    for (const [name, entry] of was)
      if (!is.has(name))
        add(
          'channel/removed',
          ASYNCAPI_PATH,
          at(before, ASYNCAPI_PATH, entry.at),
          `channel ${name}${entry.address ? ` (${entry.address})` : ''} was removed`,
        );
    for (const [name, entry] of is)
      if (!was.has(name))
        add(
          'channel/added',
          ASYNCAPI_PATH,
          at(after, ASYNCAPI_PATH, entry.at),
          `channel ${name}${entry.address ? ` (${entry.address})` : ''} was added`,
        );
  });

  compareView(oldModel.requirements, newModel.requirements, REQUIREMENTS_PATH, changed, (was, is) => {
    for (const [id, entry] of was) {
      if (is.has(id)) continue;
      const alias = newModel.requirementAliases.get(id);
      if (alias !== undefined && is.has(alias))
        add(
          'requirement/aliased',
          REQUIREMENTS_PATH,
          at(before, REQUIREMENTS_PATH, entry.at),
          `requirement \`${id}\` is now \`${alias}\` (aliased)`,
        );
      else
        add(
          'requirement/removed',
          REQUIREMENTS_PATH,
          at(before, REQUIREMENTS_PATH, entry.at),
          `requirement \`${id}\` was removed${alias !== undefined ? ` (its alias names \`${alias}\`, which does not exist)` : ' without an alias'}`,
        );
    }
    for (const [id, entry] of is)
      if (!was.has(id))
        add(
          'requirement/added',
          REQUIREMENTS_PATH,
          at(after, REQUIREMENTS_PATH, entry.at),
          `requirement \`${id}\` was added`,
        );
  });

  compareSchemaFiles(oldModel, newModel, changed, before, after, add);

  for (const lost of lostCitedHeadings(
    before.corpus,
    after.corpus,
    changedFiles.filter((file) => file.endsWith('.md')),
  )) {
    const shown =
      lost.citedFrom.length <= 3
        ? lost.citedFrom.join(', ')
        : `${lost.citedFrom.slice(0, 3).join(', ')} and ${lost.citedFrom.length - 3} more`;
    const fate = lost.renamedTo
      ? `was renamed "${lost.renamedTo.text}" (#${lost.renamedTo.slug})`
      : 'was removed (or renamed)';
    add(
      'heading/removed',
      lost.file,
      lost.heading.line,
      `heading "${lost.heading.text}" (#${lost.heading.slug}) ${fate}; deep links and citations into it break: cited from ${shown}`,
      {
        before: { file: lost.file, line: lost.heading.line },
        after: { file: lost.file, line: lost.renamedTo?.line },
      },
      undefined,
      { citedFrom: lost.citedFrom },
    );
  }

  // A changed file the model found no change in (prose, an unmodelled registry, a description)
  // is reported as a changed document or file.
  const explained = new Set(changes.map((change) => change.file));
  for (const file of changedFiles) {
    if (explained.has(file)) continue;
    const kind = file.endsWith('.md') ? 'document' : 'file';
    const was = before.files.has(file);
    const is = after.files.has(file);
    const state = !was ? 'added' : !is ? 'removed' : 'changed';
    const line = was && is ? firstChangedLine(before.files.get(file), after.files.get(file)) : undefined;
    const modelled = (MODELLED_FILES as readonly string[]).includes(file) || isSchemaPath(file);
    add(
      `${kind}/${state}`,
      file,
      line,
      `${file} was ${state}${modelled && was && is ? ' (no change the model classifies: wording, annotations or layout)' : ''}`,
    );
  }

  foldRestatements(changes, oldModel, newModel);
  if (generated)
    markDerived(
      changes,
      [before, after].map((release) => generated(release.corpus)),
    );
  changes.sort(
    (a, b) =>
      LEVELS.indexOf(a.level) - LEVELS.indexOf(b.level) ||
      compareStrings(a.file, b.file) ||
      (a.line ?? 0) - (b.line ?? 0) ||
      compareStrings(a.message, b.message),
  );

  const { counts, required } = summarizeChanges(changes);
  const released = new Map([...(before.released ?? []), ...(after.released ?? [])]);
  return {
    from: { label: before.label, version: before.version, digest: before.digest },
    to: { label: after.label, version: after.version, digest: after.digest },
    released,
    changes,
    counts,
    required,
    changedFiles,
  };
}

/** Counted changes (not derived) by level, and the smallest bump they require. */
export function summarizeChanges(changes: readonly Change[]): { counts: Record<Level, number>; required: Bump } {
  const counts: Record<Level, number> = { breaking: 0, additive: 0, editorial: 0 };
  for (const change of changes) if (!change.derivedFrom) counts[change.level]++;
  const required: Bump =
    counts.breaking > 0 ? 'major' : counts.additive > 0 ? 'minor' : counts.editorial > 0 ? 'patch' : 'none';
  return { counts, required };
}

/**
 * Runs `compare` when the file changed and both releases read it (or one lacks it entirely); a
 * file the model cannot read on either side is left to the file-level comparison.
 */
function compareView<T>(
  was: View<T>,
  is: View<T>,
  file: string,
  changed: ReadonlySet<string>,
  compare: (was: Map<string, T>, is: Map<string, T>) => void,
): void {
  if (!changed.has(file) || was.state === 'unreadable' || is.state === 'unreadable') return;
  compare(
    was.state === 'read' ? was.entries : new Map<string, T>(),
    is.state === 'read' ? is.entries : new Map<string, T>(),
  );
}

function compareHeaders(
  was: Map<
    string,
    {
      label: string;
      requestHeaders: Map<string, { name: string; required: boolean }>;
      responseHeaders: Map<string, { name: string }>;
    }
  >,
  is: typeof was,
  add: (rule: string, message: string) => void,
): void {
  // Per header and direction: the operations (present in both releases) that gained or lost it.
  type Group = { name: string; operations: string[] };
  const removed = new Map<string, Group>();
  const addedOptional = new Map<string, Group>();
  const addedRequired = new Map<string, Group>();
  const nowRequired = new Map<string, Group>();
  const note = (groups: Map<string, Group>, key: string, name: string, operation: string) => {
    const group = groups.get(key) ?? { name, operations: [] };
    group.operations.push(operation);
    groups.set(key, group);
  };
  for (const [key, old] of was) {
    const current = is.get(key);
    if (!current) continue;
    for (const direction of ['request', 'response'] as const) {
      const oldHeaders = direction === 'request' ? old.requestHeaders : old.responseHeaders;
      const newHeaders = direction === 'request' ? current.requestHeaders : current.responseHeaders;
      for (const [name, header] of oldHeaders)
        if (!newHeaders.has(name)) note(removed, `${direction} ${name}`, header.name, current.label);
      for (const [name, header] of newHeaders) {
        const required = 'required' in header && header.required === true;
        const previous = oldHeaders.get(name);
        if (!previous)
          note(required ? addedRequired : addedOptional, `${direction} ${name}`, header.name, current.label);
        else if (required && !('required' in previous && previous.required === true))
          note(nowRequired, `${direction} ${name}`, header.name, current.label);
      }
    }
  }
  const list = (group: Group) =>
    group.operations.length <= 3
      ? group.operations.join(', ')
      : `${group.operations.slice(0, 3).join(', ')} and ${group.operations.length - 3} more`;
  for (const [key, group] of removed)
    add('header/removed', `${key.split(' ')[0]} header \`${group.name}\` was removed from ${list(group)}`);
  for (const group of addedRequired.values())
    add('header/required-added', `required request header \`${group.name}\` was added to ${list(group)}`);
  for (const group of nowRequired.values())
    add('header/required-added', `request header \`${group.name}\` is now required by ${list(group)}`);
  for (const [key, group] of addedOptional)
    add('header/added', `${key.split(' ')[0]} header \`${group.name}\` was added to ${list(group)}`);
}

/** Parameters other than headers, and the request body's being required, of the operations both releases have. */
function compareParameters(
  was: Map<string, OperationEntry>,
  is: Map<string, OperationEntry>,
  add: (rule: string, operation: string, message: string) => void,
): void {
  for (const [key, old] of was) {
    const current = is.get(key);
    if (!current) continue;
    for (const [id, parameter] of old.parameters)
      if (!current.parameters.has(id))
        add(
          'parameter/removed',
          key,
          `${parameter.in} parameter \`${parameter.name}\` was removed from ${current.label}`,
        );
    for (const [id, parameter] of current.parameters) {
      const previous = old.parameters.get(id);
      if (!previous)
        add(
          parameter.required ? 'parameter/required-added' : 'parameter/added',
          key,
          `${parameter.required ? 'required' : 'optional'} ${parameter.in} parameter \`${parameter.name}\` was added to ${current.label}`,
        );
      else if (parameter.required && !previous.required)
        add(
          'parameter/required-added',
          key,
          `${parameter.in} parameter \`${parameter.name}\` is now required by ${current.label}`,
        );
    }
    if (current.bodyRequired === true && old.bodyRequired !== true)
      add(
        'body/required-added',
        key,
        `${current.label} now requires a request body${old.bodyRequired === undefined ? ' (it took none)' : ''}`,
      );
  }
}

function compareSchemaFiles(
  oldModel: ReleaseModel,
  newModel: ReleaseModel,
  changed: ReadonlySet<string>,
  before: Release,
  after: Release,
  add: (
    rule: string,
    file: string,
    line: number | undefined,
    message: string,
    places: { before: Place | undefined; after: Place | undefined } | undefined,
    schema?: SchemaChange,
  ) => void,
): void {
  // A new file that schemas the old release already had now reference is where their constraints moved.
  const oldApi = apiDocuments(before.corpus);
  const newApi = apiDocuments(after.corpus);
  const kept = [...newModel.schemas.keys(), ...newApi.keys()].filter(
    (file) => oldModel.schemas.has(file) || oldApi.has(file),
  );
  const extracted = new SchemaSet(new Map([...newModel.schemas, ...newApi])).referencedFrom(kept);
  for (const file of [...changed].filter(isSchemaPath)) {
    const was = oldModel.schemas.get(file);
    const is = newModel.schemas.get(file);
    if (before.files.has(file) && was === undefined) continue; // unparsable: compared as a file
    if (after.files.has(file) && is === undefined) continue;
    if (was === undefined && extracted.has(file))
      add(
        'schema/extracted',
        file,
        undefined,
        `schema ${file} was added, and existing schemas now reference it (what they constrain is compared through the references)`,
        undefined,
      );
    else if (was === undefined) add('schema/added', file, undefined, `schema ${file} was added`, undefined);
    else if (is === undefined) add('schema/removed', file, undefined, `schema ${file} was removed`, undefined);
    else continue;
  }
  const both = [...changed].filter(
    (file) =>
      isSchemaPath(file) && oldModel.schemas.get(file) !== undefined && newModel.schemas.get(file) !== undefined,
  );
  const located = (release: Release, at: { file: string; at: PathSegment[] } | undefined): Place | undefined =>
    at ? { file: at.file, line: lineOf(release.corpus, at.file, at.at) } : undefined;
  const apiChanged = API_DOCUMENTS.filter((file) => changed.has(file));
  const schemaChanges = compareSchemaSets(
    { schemas: oldModel.schemas, api: oldApi },
    { schemas: newModel.schemas, api: newApi },
    both,
    apiChanged,
  );
  for (const change of schemaChanges) {
    const was = located(before, change.before);
    const is = located(after, change.after);
    // Something gone from the new release is shown where it was; anything else where it is now.
    const gone = ['schema/property-removed', 'schema/variant-removed', 'schema/definition-removed'].includes(
      change.rule,
    );
    const primary = (gone ? was : is) ?? is ?? was;
    add(change.rule, primary?.file ?? '', primary?.line, change.message, { before: was, after: is }, change);
  }
}

/** The API documents of a release, parsed, for the schemas they use. */
function apiDocuments(corpus: Corpus): Map<string, unknown> {
  const documents = new Map<string, unknown>();
  for (const file of API_DOCUMENTS) {
    const value = corpus.data(file)?.value;
    if (value !== undefined) documents.set(file, value);
  }
  return documents;
}

/**
 * A registry member added or removed is written again wherever the corpus generates from it: an
 * enum member of the event `type` or of the error `code`, the payload definition of a new event
 * type. Those schema changes restate the registry change, which is counted once, where the
 * registry row is; they are shown as derived from it.
 */
function foldRestatements(changes: Change[], oldModel: ReleaseModel, newModel: ReleaseModel): void {
  const members = (view: View<unknown>) => (view.state === 'read' ? new Set(view.entries.keys()) : new Set<string>());
  const oldEvents = members(oldModel.events);
  const newEvents = members(newModel.events);
  const oldErrors = members(oldModel.errors);
  const newErrors = members(newModel.errors);
  const registryOf = (member: unknown, added: boolean): string | undefined => {
    if (typeof member !== 'string') return undefined;
    const inEvents = added
      ? newEvents.has(member) && !oldEvents.has(member)
      : oldEvents.has(member) && !newEvents.has(member);
    const inErrors = added
      ? newErrors.has(member) && !oldErrors.has(member)
      : oldErrors.has(member) && !newErrors.has(member);
    return inEvents ? CODEMAP_PATH : inErrors ? ERRORS_PATH : undefined;
  };
  const addedPayloads = new Set(
    newModel.events.state === 'read'
      ? [...newModel.events.entries.values()]
          .filter((entry) => !oldEvents.has(entry.type))
          .map((entry) => entry.payloadDef)
      : [],
  );
  for (const change of changes) {
    if (change.derivedFrom) continue;
    let registry: string | undefined;
    if (change.rule === 'schema/enum-added' || change.rule === 'schema/enum-removed')
      registry = registryOf(change.member, change.rule === 'schema/enum-added');
    else if (
      change.rule === 'schema/definition-added' &&
      change.file === PAYLOADS_PATH &&
      addedPayloads.has(change.definition ?? '')
    )
      registry = CODEMAP_PATH;
    if (registry && changes.some((other) => other.file === registry && !other.file.startsWith('schemas/')))
      change.derivedFrom = [registry];
  }
}

function markDerived(changes: Change[], maps: Array<Map<string, string[]>>): void {
  const inputsOf = new Map<string, Set<string>>();
  for (const map of maps)
    for (const [output, inputs] of map) inputsOf.set(output, new Set([...(inputsOf.get(output) ?? []), ...inputs]));
  const changedFiles = new Set(changes.map((change) => change.file));
  for (const change of changes) {
    const inputs = inputsOf.get(change.file);
    // A file a generator also reads (a registry with generated counts) or writes regions into
    // (a document) is written by hand too: its changes stand on their own.
    if (!inputs || inputs.has(change.file) || change.file.endsWith('.md')) continue;
    const from = [...changedFiles].filter(
      (file) =>
        file !== change.file &&
        [...inputs].some((input) => file === input || (input.endsWith('/') && file.startsWith(input))),
    );
    // Only changes that are themselves primary explain another: a chain ends at a source.
    const primary = from.filter(
      (file) => !inputsOf.has(file) || ![...(inputsOf.get(file) ?? [])].some((input) => changedFiles.has(input)),
    );
    if (primary.length > 0) change.derivedFrom = primary.sort(compareStrings);
  }
}

function lineOf(corpus: Corpus, file: string, segments: PathSegment[] | undefined): number | undefined {
  const data = corpus.data(file);
  if (!data || !segments) return undefined;
  return Location.pointer(data, segments, 'key').resolve().line;
}

function sameBytes(a: Buffer | undefined, b: Buffer | undefined): boolean {
  return a !== undefined && b !== undefined && a.equals(b);
}

/** The first line where two versions of a file differ (both present). */
function firstChangedLine(a: Buffer | undefined, b: Buffer | undefined): number | undefined {
  return a && b ? firstDifferingLine(a.toString('utf8'), b.toString('utf8')) : undefined;
}

const RANK: Record<Bump, number> = { none: 0, patch: 1, minor: 2, major: 3 };

/** The bump from one version to another; `downgrade` when the new one is lower. */
export function versionBump(from: string, to: string): Bump | 'downgrade' | undefined {
  const parse = (version: string) => /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?/.exec(version);
  const a = parse(from);
  const b = parse(to);
  if (!a || !b) return undefined;
  const [, aMajor, aMinor, aPatch] = a.map(Number) as [number, number, number, number];
  const [, bMajor, bMinor, bPatch] = b.map(Number) as [number, number, number, number];
  const order = bMajor - aMajor || bMinor - aMinor || bPatch - aPatch;
  if (order < 0) return 'downgrade';
  if (bMajor !== aMajor) return 'major';
  if (bMinor !== aMinor) return 'minor';
  if (bPatch !== aPatch) return 'patch';
  // Same numbers: a pre-release to its release (2.1.0-rc.1 -> 2.1.0) is the release itself.
  return a[4] !== undefined && b[4] === undefined ? 'patch' : 'none';
}

/**
 * Whether the version bump is at least what the changes require. Below 1.0.0 semver allows
 * breaking changes in a minor bump, and additive ones in a patch.
 */
export function semverVerdict(diff: ReleaseDiff): {
  ok: boolean;
  bump: Bump | 'downgrade' | undefined;
  required: Bump;
  message: string;
} {
  const { from, to } = diff;
  if (!from.version || !to.version) {
    return {
      ok: false,
      bump: undefined,
      required: diff.required,
      message: `cannot check the version bump: no version for ${!from.version ? from.label : to.label}`,
    };
  }
  // A version names one release: the same version over other bytes is two packages under one name.
  if (from.digest && to.digest && from.digest !== to.digest && from.version === to.version) {
    return {
      ok: false,
      bump: 'none',
      required: diff.required,
      message: `${to.version} is the version of both releases, but they differ (${from.digest} and ${to.digest}): a version names one release; bump it`,
    };
  }
  const published = diff.released?.get(to.version);
  if (published && to.digest && published !== to.digest) {
    return {
      ok: false,
      bump: versionBump(from.version, to.version),
      required: diff.required,
      message: `${to.version} was released with digest ${published} (spec/v2/release.json), but this release digests to ${to.digest}: a version names one release; bump it`,
    };
  }
  const bump = versionBump(from.version, to.version);
  const zero = from.version.startsWith('0.');
  const required: Bump = zero
    ? ({ major: 'minor', minor: 'patch', patch: 'patch', none: 'none' } as const)[diff.required]
    : diff.required;
  if (bump === undefined)
    return { ok: false, bump, required, message: `cannot compare versions ${from.version} and ${to.version}` };
  if (bump === 'downgrade')
    return { ok: false, bump, required, message: `${from.version} → ${to.version} goes backwards` };
  const ok = RANK[bump] >= RANK[required];
  const counted = `${diff.counts.breaking} breaking, ${diff.counts.additive} additive, ${diff.counts.editorial} editorial`;
  return {
    ok,
    bump,
    required,
    message: ok
      ? `${from.version} → ${to.version} is a ${bump} bump; ${counted} change(s) require ${required === 'none' ? 'none' : `a ${required} bump`}`
      : `${from.version} → ${to.version} is ${bump === 'none' ? 'no bump' : `a ${bump} bump`}, but ${counted} change(s) require a ${required} bump`,
  };
}
