/**
 * Identifier kinds and the fields that carry them (identity.md §5): the kinds of
 * schemas/v2/ids.schema.json, the map spec/v2/id-field-bindings.json, every `*Id` / `*Ids` field of
 * the corpus's schemas and API documents, and the kinds a field's schema reaches by `$ref`.
 */
import { type Corpus, type DataFile, type PathSegment, isObject } from '../model/index.js';
import {
  IN_PLACE_LISTS,
  isApiDocument,
  refsOf,
  schemaGraph,
  valueAt,
  walkSchema,
  type SchemaLocation,
} from '../schemas/index.js';

export const IDS_SCHEMA = 'schemas/v2/ids.schema.json';
export const ID_BINDINGS = 'spec/v2/id-field-bindings.json';
export const ID_BINDINGS_SCHEMA = 'spec/v2/id-field-bindings.schema.json';

/** A name that makes a field an id field: `runId`, or `runIds` for a list of them. */
const ID_FIELD_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*Ids?$/;
/** The name of one id field, which a kind is named for. */
const KIND_NAME = /^[A-Za-z_$][A-Za-z0-9_$-]*Id$/;

export interface IdKind {
  name: string;
  pattern: string | undefined;
  minted: string | undefined;
  tenantBound: boolean;
  /** Where the kind is defined in ids.schema.json. */
  path: PathSegment[];
}

/**
 * The kinds of ids.schema.json (`$defs` names), or undefined while the file is absent. The file says
 * what a kind is: the kind of an id field, which is a `*Id` name, and one that records who mints it.
 * A def that is neither (upstream's `opaque`, the grammar its host-minted kinds share) is a
 * building block of the file, not a kind, and is held to nothing a kind is.
 */
export function idKinds(corpus: Corpus): Map<string, IdKind> | undefined {
  const value = corpus.data(IDS_SCHEMA)?.value;
  if (!isObject(value) || !isObject(value.$defs)) return undefined;
  const kinds = new Map<string, IdKind>();
  for (const [name, def] of Object.entries(value.$defs)) {
    const entry = isObject(def) ? def : {};
    if (!KIND_NAME.test(name) && entry['x-openwop-minted'] === undefined) continue;
    kinds.set(name, {
      name,
      pattern: typeof entry.pattern === 'string' ? entry.pattern : undefined,
      minted: typeof entry['x-openwop-minted'] === 'string' ? entry['x-openwop-minted'] : undefined,
      tenantBound: entry['x-openwop-tenant-bound'] === true,
      path: ['$defs', name],
    });
  }
  return kinds;
}

interface MapEntry {
  name: string;
  /** The kind (bindings) or the reason (notAKind). */
  value: string;
  path: PathSegment[];
}

export interface IdBindingsRegistry {
  file: DataFile;
  bindings: Map<string, MapEntry>;
  notAKind: Map<string, MapEntry>;
  /** Names either map lists with a value that is not a string: named, but unreadable (its schema says so). */
  unreadable: Set<string>;
}

/** spec/v2/id-field-bindings.json as two maps, or undefined while it is absent. Validate it first. */
export function idBindingsRegistry(corpus: Corpus): IdBindingsRegistry | undefined {
  const file = corpus.data(ID_BINDINGS);
  if (!file || !isObject(file.value)) return undefined;
  const unreadable = new Set<string>();
  const read = (key: 'bindings' | 'notAKind'): Map<string, MapEntry> => {
    const map = new Map<string, MapEntry>();
    const raw = (file.value as Record<string, unknown>)[key];
    if (isObject(raw)) {
      for (const [name, value] of Object.entries(raw)) {
        if (typeof value === 'string') map.set(name, { name, value, path: [key, name] });
        else unreadable.add(name);
      }
    }
    return map;
  };
  return { file, bindings: read('bindings'), notAKind: read('notAKind'), unreadable };
}

export interface IdField {
  file: string;
  name: string;
  /** `*Ids`: the ids are the items of the field's array. */
  plural: boolean;
  kind: 'property' | 'parameter';
  /** Where the name is written: a property's key, or a parameter's `name` value. */
  at: PathSegment[];
  /** The field's schema, when it has one. */
  schema: SchemaLocation | undefined;
}

/**
 * Every id field of the corpus: `*Id` / `*Ids` properties of every schema (corpus schema files and
 * the schemas inside API documents), and `*Id` / `*Ids` parameters of the API documents.
 */
export function idFields(corpus: Corpus): IdField[] {
  const graph = schemaGraph(corpus);
  const fields: IdField[] = [];
  for (const [file, document] of [...graph.documents].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (!carriesProtocolIds(corpus, file)) continue;
    for (const root of graph.roots(file)) {
      walkSchema(
        valueAt(document.value, root.path),
        root.path,
        graph.baseAt(file, root.path),
        ({ value, path, conditional }) => {
          // A property under if/then/else/not constrains one declared elsewhere; it is not a field.
          if (conditional || !isObject(value.properties)) return;
          for (const name of Object.keys(value.properties)) {
            if (!ID_FIELD_NAME.test(name)) continue;
            const at = [...path, 'properties', name];
            fields.push({ file, name, plural: name.endsWith('Ids'), kind: 'property', at, schema: { file, path: at } });
          }
        },
      );
    }
    if (isApiDocument(file)) {
      for (const parameter of parametersOf(document.value)) {
        const name = valueAt(document.value, [...parameter, 'name']) as string;
        if (!ID_FIELD_NAME.test(name)) continue;
        const schema = isObject(valueAt(document.value, [...parameter, 'schema']))
          ? { file, path: [...parameter, 'schema'] }
          : undefined;
        fields.push({
          file,
          name,
          plural: name.endsWith('Ids'),
          kind: 'parameter',
          at: [...parameter, 'name'],
          schema,
        });
      }
    }
  }
  return fields;
}

/**
 * identity.md §5 binds the ids of the protocol: its schemas and the canonical API documents. The
 * schema of a registry (spec/v2/<name>.schema.json beside spec/v2/<name>.json) describes the
 * toolchain's own records, and a seam document (api/seams-*.yaml) is kept out of the protocol.
 */
function carriesProtocolIds(corpus: Corpus, file: string): boolean {
  if (/^api\/seams[^/]*\.ya?ml$/.test(file)) return false;
  const registry = /^(spec\/v2\/[^/]+)\.schema\.json$/.exec(file)?.[1];
  return registry === undefined || !corpus.exists(`${registry}.json`);
}

const PARAMETER_LOCATIONS = new Set(['path', 'query', 'header', 'cookie']);

/** Paths of the OpenAPI parameter objects of a document (inline ones; a `$ref` parameter is found where it is defined). */
function parametersOf(document: unknown): PathSegment[][] {
  const found: PathSegment[][] = [];
  const step = (value: unknown, path: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => step(item, [...path, index]));
      return;
    }
    if (!isObject(value)) return;
    if (typeof value.name === 'string' && typeof value.in === 'string' && PARAMETER_LOCATIONS.has(value.in))
      found.push(path);
    for (const [key, child] of Object.entries(value)) {
      if (key === 'example' || key === 'examples' || key === 'schema' || key === 'schemas' || key.startsWith('x-'))
        continue;
      step(child, [...path, key]);
    }
  };
  step(document, []);
  return found;
}

/**
 * The kinds a schema is bound to: the `ids.schema.json#/$defs/<kind>` it `$ref`s directly, through
 * `allOf` / `anyOf` / `oneOf`, or through a `$ref` to another schema that does. For a plural field,
 * the kinds its items reach.
 */
export function kindsReached(corpus: Corpus, location: SchemaLocation, plural: boolean): Set<string> {
  const graph = schemaGraph(corpus);
  const kinds = new Set<string>();
  const key = (at: SchemaLocation): string => `${at.file}#${at.path.join('/')}`;

  // Follows $ref and the in-place combinators from `start`, handing each schema reached to
  // `visit`; with `collect`, a $ref into ids.schema.json records its kind.
  const spread = (
    start: SchemaLocation,
    collect: boolean,
    visit: (at: SchemaLocation, value: Record<string, unknown>) => void,
    visited: Set<string>,
  ): void => {
    if (visited.has(key(start))) return;
    visited.add(key(start));
    const value = valueAt(graph.documents.get(start.file)?.value, start.path);
    if (!isObject(value)) return;
    visit(start, value);
    for (const { ref } of refsOf(value)) {
      const resolved = graph.resolve(start.file, start.path, ref);
      if (!resolved.ok) continue;
      const { target } = resolved;
      if (target.file === IDS_SCHEMA && target.path.length === 2 && target.path[0] === '$defs') {
        if (collect) kinds.add(String(target.path[1]));
      } else spread(target, collect, visit, visited);
    }
    for (const keyword of IN_PLACE_LISTS) {
      const list = value[keyword];
      if (Array.isArray(list))
        list.forEach((_, index) =>
          spread({ file: start.file, path: [...start.path, keyword, index] }, collect, visit, visited),
        );
    }
  };

  const nothing = (): void => undefined;
  if (!plural) {
    spread(location, true, nothing, new Set());
    return kinds;
  }
  const itemSeen = new Set<string>();
  spread(
    location,
    false,
    (at, value) => {
      if (isObject(value.items)) spread({ file: at.file, path: [...at.path, 'items'] }, true, nothing, itemSeen);
    },
    new Set(),
  );
  return kinds;
}

/** `ids.schema.json#/$defs/<kind>` written from `file`: the `$ref` a fix or a hint proposes. */
export function kindRef(file: string, kind: string): string {
  const from = file.split('/').slice(0, -1);
  const to = IDS_SCHEMA.split('/');
  let common = 0;
  while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
  const up = from.slice(common).map(() => '..');
  return `${[...up, ...to.slice(common)].join('/')}#/$defs/${kind}`;
}
