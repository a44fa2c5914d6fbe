/**
 * JSON Schema as a structure: which keywords hold subschemas, where a schema's `$ref`s point, and
 * which schemas live inside an OpenAPI document. Shared by the gates that reason about schemas
 * statically (id bindings, `$ref` resolution, cycles), so that none of them re-learns the keywords.
 */
import { type Corpus, type DataFile, defineService, isObject, type PathSegment } from '../model/index.js';
import { expectedSchemaId, isSchemaPath, SCHEMA_BASE } from './json-schema.js';

/** Keywords whose value is a map of name -> subschema. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const;
/** Keywords whose value is one subschema. */
const SCHEMA_SINGLES = ['additionalProperties', 'unevaluatedProperties', 'items', 'additionalItems', 'unevaluatedItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'contentSchema'] as const;
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;

/**
 * Keywords that apply their subschema to the very instance the schema applies to. A `$ref` chain
 * that loops through these alone never consumes any of the instance, so validation never ends.
 */
export const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
export const IN_PLACE_SINGLES = ['not', 'if', 'then', 'else'] as const;

export interface SchemaVisit {
  value: Record<string, unknown>;
  path: PathSegment[];
  /** The base URI in force at this subschema (the document's, or a nested `$id`'s). */
  base: string;
  /** Reached through `if`, `then`, `else` or `not`: it refines the schema around it and declares nothing of its own. */
  conditional: boolean;
}

const CONDITIONAL = new Set(['if', 'then', 'else', 'not']);

type SchemaKeywordKind = 'map' | 'single' | 'list';
/** Each subschema keyword with the place it takes in a walk (maps, then singles, then lists, each in the order above) and its kind. */
interface SchemaKeyword {
  keyword: string;
  rank: number;
  kind: SchemaKeywordKind;
}
const SCHEMA_KEYWORDS = new Map<string, SchemaKeyword>(
  [
    ...SCHEMA_MAPS.map((keyword) => ({ keyword, kind: 'map' as const })),
    ...SCHEMA_SINGLES.map((keyword) => ({ keyword, kind: 'single' as const })),
    ...SCHEMA_LISTS.map((keyword) => ({ keyword, kind: 'list' as const })),
  ].map((entry, rank) => [entry.keyword, { ...entry, rank }]),
);

/**
 * Visits every subschema of `root` (itself included), depth first, with its path and base URI.
 * A subschema's own members are read once and looked up among the keywords, rather than each of
 * the twenty-one keywords being asked of every subschema: most have three or four members, and on
 * a large corpus the walk (which several gates make) ran four times slower the other way.
 */
export function walkSchema(root: unknown, rootPath: PathSegment[], rootBase: string, visit: (schema: SchemaVisit) => void): void {
  const step = (value: unknown, path: PathSegment[], inherited: string, conditional: boolean): void => {
    if (!isObject(value)) return;
    const base = typeof value.$id === 'string' ? resolveUri(value.$id, inherited) : inherited;
    visit({ value, path, base, conditional });
    let present: SchemaKeyword[] | undefined;
    for (const member in value) {
      const known = SCHEMA_KEYWORDS.get(member);
      if (known) (present ??= []).push(known);
    }
    if (!present) return;
    if (present.length > 1) present.sort((a, b) => a.rank - b.rank);
    for (const { kind, keyword } of present) {
      const child = value[keyword];
      if (kind === 'map') {
        if (isObject(child)) for (const [name, member] of Object.entries(child)) step(member, [...path, keyword, name], base, conditional);
      } else if (kind === 'single') {
        const within = conditional || CONDITIONAL.has(keyword);
        if (Array.isArray(child)) child.forEach((item, index) => step(item, [...path, keyword, index], base, within));
        else step(child, [...path, keyword], base, within);
      } else if (Array.isArray(child)) {
        child.forEach((item, index) => step(item, [...path, keyword, index], base, conditional));
      }
    }
  };
  step(root, rootPath, rootBase, false);
}

export function resolveUri(reference: string, base: string): string {
  try {
    return new URL(reference, base).href;
  } catch {
    return reference;
  }
}

/** The value at `path` inside `root`, or undefined. */
export function valueAt(root: unknown, path: readonly PathSegment[]): unknown {
  let node: unknown = root;
  for (const segment of path) {
    if (Array.isArray(node) && typeof segment === 'number') node = node[segment];
    else if (isObject(node) && typeof segment === 'string') node = node[segment];
    else return undefined;
  }
  return node;
}

/** `/a/b~1c/0` as segments (numbers for array indexes resolved against the value, later). */
export function pointerSegments(pointer: string): string[] | undefined {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) return undefined;
  return pointer
    .slice(1)
    .split('/')
    .map((raw) => safeDecode(raw).replace(/~1/g, '/').replace(/~0/g, '~'));
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** A schema location: a file of the corpus and the path of a subschema inside it. */
export interface SchemaLocation {
  file: string;
  path: PathSegment[];
}

type RefResolution = { ok: true; target: SchemaLocation; value: unknown } | { ok: false; reason: string };

export interface SchemaGraph {
  /** Every document that holds schemas: corpus schema files, and the OpenAPI documents. */
  documents: ReadonlyMap<string, DataFile>;
  /** The base URI of a document: its declared `$id`, else `https://openwop.dev/<path>`. */
  baseOf(file: string): string;
  /** The base URI in force at `path` inside `file` (nested `$id`s applied). */
  baseAt(file: string, path: readonly PathSegment[]): string;
  /** Where `ref`, written at `path` of `file`, points. */
  resolve(file: string, path: readonly PathSegment[], ref: string): RefResolution;
  /** Every subschema root of a document: the document itself for a schema file, the schemas inside an OpenAPI document. */
  roots(file: string): SchemaLocation[];
  /** Every `$ref` and `$dynamicRef` written in a document's schemas, resolved; worked out once per document. */
  refs(file: string): readonly SchemaRef[];
}

interface SchemaRef {
  /** Where the reference is written: the path of the subschema holding it. */
  path: PathSegment[];
  keyword: '$ref' | '$dynamicRef';
  ref: string;
  resolved: RefResolution;
}

/** The schema documents of the corpus, their `$id`s, anchors and `$ref`s, resolved. */
const SchemaGraphService = defineService('schema graph', buildSchemaGraph);

/** API documents (OpenAPI) whose embedded schemas take part in `$ref` resolution and id bindings. */
export const isApiDocument = (file: string): boolean => /^api\/.*\.ya?ml$/.test(file) || /^api\/.*openapi.*\.json$/.test(file);

export function schemaGraph(corpus: Corpus): SchemaGraph {
  return corpus.service(SchemaGraphService);
}

function buildSchemaGraph(corpus: Corpus): SchemaGraph {
  const documents = new Map<string, DataFile>();
  for (const file of corpus.dataFiles()) if (isSchemaPath(file.path) || isApiDocument(file.path)) documents.set(file.path, file);

  const byUri = new Map<string, SchemaLocation>();
  const schemaIds = corpus.config.layout.schemaIds;
  // Kept per file: every reference resolves from its document's base, and a URL costs a parse.
  const bases = new Map<string, string>();
  const baseOf = (file: string): string => {
    let base = bases.get(file);
    if (base === undefined) {
      const value = documents.get(file)?.value;
      const declared = isObject(value) && typeof value.$id === 'string' && isSchemaPath(file) ? value.$id : undefined;
      base = declared ? resolveUri(declared, expectedSchemaId(file, schemaIds)) : expectedSchemaId(file, schemaIds);
      bases.set(file, base);
    }
    return base;
  };
  // Declared ids win over paths, as they do for ajv; a path is the fallback a relative $ref relies on.
  // A document without an $id (an API document) is retrieved at its path under the default base,
  // and its relative $refs resolve from there: every file answers to that URI too.
  for (const file of documents.keys()) byUri.set(`${SCHEMA_BASE}${file}`, { file, path: [] });
  for (const file of documents.keys()) byUri.set(expectedSchemaId(file, schemaIds), { file, path: [] });
  for (const file of documents.keys()) byUri.set(baseOf(file), { file, path: [] });

  const anchors = new Map<string, SchemaLocation>();
  for (const file of documents.keys()) {
    for (const root of rootsOf(file)) {
      walkSchema(valueAt(documents.get(file)?.value, root.path), root.path, baseAtPath(file, root.path), ({ value, path, base }) => {
        if (typeof value.$anchor === 'string') anchors.set(`${base.split('#')[0]}#${value.$anchor}`, { file, path });
        if (typeof value.$id === 'string' && path.length > 0) byUri.set(base.split('#')[0] ?? base, { file, path });
      });
    }
  }

  function rootsOf(file: string): SchemaLocation[] {
    const doc = documents.get(file);
    if (!doc) return [];
    if (isSchemaPath(file)) return [{ file, path: [] }];
    return openApiSchemaRoots(doc.value).map((path) => ({ file, path }));
  }

  function baseAtPath(file: string, path: readonly PathSegment[]): string {
    let base = baseOf(file);
    let node: unknown = documents.get(file)?.value;
    for (const segment of path) {
      node = valueAt(node, [segment]);
      if (isObject(node) && typeof node.$id === 'string' && isSchemaPath(file)) base = resolveUri(node.$id, base);
    }
    return base;
  }

  const refsByFile = new Map<string, SchemaRef[]>();
  const graph: SchemaGraph = {
    documents,
    baseOf,
    baseAt: baseAtPath,
    roots: rootsOf,
    resolve: (file, path, ref) => resolveFrom(baseAtPath(file, path), ref),
    refs(file) {
      let found = refsByFile.get(file);
      if (found) return found;
      found = [];
      for (const root of rootsOf(file)) {
        walkSchema(valueAt(documents.get(file)?.value, root.path), root.path, baseAtPath(file, root.path), ({ value, path }) => {
          // Resolved as `resolve` does, so both answer alike for every reference.
          for (const { keyword, ref } of refsOf(value)) found?.push({ path, keyword, ref, resolved: graph.resolve(file, path, ref) });
        });
      }
      refsByFile.set(file, found);
      return found;
    },
  };

  function resolveFrom(base: string, ref: string): RefResolution {
    const absolute = resolveUri(ref, base);
    const hash = absolute.indexOf('#');
    const uri = hash === -1 ? absolute : absolute.slice(0, hash);
    const fragment = hash === -1 ? '' : absolute.slice(hash + 1);
    const resource = byUri.get(uri);
    if (!resource) return { ok: false, reason: `${uri} is not a schema of this corpus` };
    const targetFile = resource.file;
    if (fragment === '' || fragment.startsWith('/')) {
      const segments = pointerSegments(fragment);
      if (!segments) return { ok: false, reason: `#${fragment} is not a JSON pointer` };
      const targetPath: PathSegment[] = [...resource.path];
      let node: unknown = valueAt(documents.get(targetFile)?.value, resource.path);
      for (const segment of segments) {
        const key: PathSegment = Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
        node = valueAt(node, [key]);
        if (node === undefined) return { ok: false, reason: `${targetFile} has nothing at #${fragment}` };
        targetPath.push(key);
      }
      return { ok: true, target: { file: targetFile, path: targetPath }, value: node };
    }
    const anchored = anchors.get(`${uri}#${fragment}`);
    if (!anchored) return { ok: false, reason: `${targetFile} declares no $anchor "${fragment}"` };
    return { ok: true, target: anchored, value: valueAt(documents.get(anchored.file)?.value, anchored.path) };
  }
  return graph;
}

/**
 * The schema roots inside an API document: `components.schemas.*`, and every `schema` member
 * (OpenAPI parameters, media types, headers), wherever it sits; in an AsyncAPI document also each
 * message's `payload` and `headers`. Examples and extensions are data, not schemas.
 */
function openApiSchemaRoots(document: unknown): PathSegment[][] {
  const roots: PathSegment[][] = [];
  const schemaKeys = new Set(isObject(document) && typeof document.asyncapi === 'string' ? ['schema', 'payload', 'headers'] : ['schema']);
  const step = (value: unknown, path: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => step(item, [...path, index]));
      return;
    }
    if (!isObject(value)) return;
    for (const [key, child] of Object.entries(value)) {
      if (key === 'example' || key === 'examples' || key.startsWith('x-')) continue;
      if (schemaKeys.has(key) && isObject(child)) roots.push([...path, key]);
      else if (key === 'schemas' && path.length === 1 && path[0] === 'components' && isObject(child)) {
        for (const name of Object.keys(child)) roots.push([...path, key, name]);
      } else step(child, [...path, key]);
    }
  };
  step(document, []);
  return roots;
}

/** The `$ref` (and `$dynamicRef`) a subschema carries directly. */
export function refsOf(schema: Record<string, unknown>): Array<{ keyword: '$ref' | '$dynamicRef'; ref: string }> {
  const refs: Array<{ keyword: '$ref' | '$dynamicRef'; ref: string }> = [];
  if (typeof schema.$ref === 'string') refs.push({ keyword: '$ref', ref: schema.$ref });
  if (typeof schema.$dynamicRef === 'string') refs.push({ keyword: '$dynamicRef', ref: schema.$dynamicRef });
  return refs;
}
