/**
 * TypeScript declarations for every JSON Schema of the corpus, through json-schema-to-typescript:
 * one `.d.ts` per schema, named after its path, plus an index. `$ref`s between files resolve
 * from the corpus model by `$id`; nothing is read from the disk or the network. Output is a
 * function of the schemas alone (no banner, no date; prettier with fixed options).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { isList, type Corpus, type DataFile, isObject } from '../model/index.js';
import { compareStrings } from '../output/index.js';
import { expectedSchemaId, isSchemaPath, type SchemaIds, resolveUri, walkSchema } from '../schemas/index.js';
import { reshapeForTypes } from './type-shapes.js';

export const TYPES_DIRECTORY = 'types';
export const TYPES_INDEX = `${TYPES_DIRECTORY}/index.d.ts`;

export interface TypeDeclarations {
  /** Package path -> content; the index last. */
  files: Map<string, string>;
  /** One per schema: its file, its declaration file, the name of its root type. */
  schemas: Array<{ schema: string; declaration: string; rootType: string; namespace: string }>;
  problems: Array<{ file: string; message: string }>;
}

/** `schemas/v2/ids.schema.json` -> `types/schemas/v2/ids.schema.d.ts`. */
function declarationPath(schemaPath: string): string {
  return `${TYPES_DIRECTORY}/${schemaPath.replace(/\.json$/, '')}.d.ts`;
}

export async function schemaDeclarations(corpus: Corpus): Promise<TypeDeclarations> {
  // Loaded here, not at the top: it brings prettier, which no other verb should pay for. Required,
  // not imported: the command line also runs as one script compiled with vm.Script
  // (scripts/script-bundle.ts), where import() would need Node's experimental loader hook.
  const { compile } = createRequire(import.meta.url)(
    'json-schema-to-typescript',
  ) as typeof import('json-schema-to-typescript');
  const schemas = corpus
    .dataFiles()
    .filter((file) => isSchemaPath(file.path) && isObject(file.value))
    .sort((a, b) => compareStrings(a.path, b.path));
  const byId = new Map<string, DataFile>();
  const idOf = (file: DataFile): string => schemaIdOf(file, corpus.config.layout.schemaIds);
  for (const file of schemas) byId.set(idOf(file), file);

  const names = allocateNames(schemas.map((file) => file.path));
  const rootNameById = new Map(schemas.map((file) => [idOf(file), names.get(file.path)?.rootType ?? '']));
  const files = new Map<string, string>();
  const entries: TypeDeclarations['schemas'] = [];
  const problems: TypeDeclarations['problems'] = [];

  for (const file of schemas) {
    const { rootType, namespace } = names.get(file.path) as { rootType: string; namespace: string };
    let output: string;
    try {
      output = await compile(bundle(file, byId, rootNameById, idOf), rootType, {
        bannerComment: '',
        declareExternallyReferenced: true,
        format: true,
        unknownAny: true,
        unreachableDefinitions: true,
        // The root is named after its file (referenced schemas are named by the title the bundle gives them).
        customName: (schema) =>
          typeof schema.$id === 'string' && schema.$id.replace(/#$/, '') === idOf(file) ? rootType : undefined,
        // Every reference is inside the bundle; nothing may be fetched, from the disk or the network.
        $refOptions: { resolve: { file: false, http: false } },
      });
    } catch (error) {
      problems.push({ file: file.path, message: `no TypeScript declarations: ${describeError(error)}` });
      continue;
    }
    if (!new RegExp(`^export (?:interface|type) ${rootType}\\b`, 'm').test(output)) {
      problems.push({
        file: file.path,
        message: `json-schema-to-typescript did not declare the root type ${rootType}`,
      });
      continue;
    }
    const declaration = declarationPath(file.path);
    // json-schema-to-typescript names the schema a `$defs` entry belongs to in its comment, but
    // passes no name when the root is an intersection (a root `$ref` beside properties, as in
    // subject.schema.json) and writes "undefined"; every such entry is the root's own.
    const named = output.replaceAll('referenced by `undefined`', `referenced by \`${rootType}\``);
    files.set(
      declaration,
      `/** Types of ${file.path}, generated from the schema by json-schema-to-typescript; do not edit. */\n\n${named.trimEnd()}\n`,
    );
    entries.push({ schema: file.path, declaration, rootType, namespace });
  }
  files.set(TYPES_INDEX, renderIndex(entries));
  return { files, schemas: entries, problems };
}

/**
 * The schema with every corpus schema it references copied into it (as `x-openwop-bundle/__<Name>`),
 * and every `$ref` rewritten to point inside it. json-schema-to-typescript's
 * resolver mishandles a referenced file whose root is itself a `$ref` with siblings; inside one
 * document it does not, and no reference is left for it to fetch.
 */
function bundle(
  root: DataFile,
  byId: ReadonlyMap<string, DataFile>,
  names: ReadonlyMap<string, string>,
  idOf: (file: DataFile) => string,
): Record<string, unknown> {
  const rootId = idOf(root);
  const bundled = structuredClone(root.value) as Record<string, unknown>;
  const embedded = new Map<string, string>([[rootId, '#']]);
  const definitions: Record<string, unknown> = {};
  const pending: Array<{ schema: Record<string, unknown>; id: string }> = [{ schema: bundled, id: rootId }];
  const prefixOf = (id: string): string | undefined => {
    const known = embedded.get(id);
    if (known) return known;
    const target = byId.get(id);
    if (!target) return undefined;
    const name = names.get(id) ?? target.path;
    const key = `__${name}`;
    const copy = structuredClone(target.value) as Record<string, unknown>;
    delete copy.$id;
    delete copy.$schema;
    copy.title = name;
    definitions[key] = copy;
    embedded.set(id, `#/${BUNDLE}/${key}`);
    pending.push({ schema: copy, id });
    return `#/${BUNDLE}/${key}`;
  };
  for (let item = pending.shift(); item; item = pending.shift()) {
    // Collect first: the rewrite below adds subschemas the walk must not visit again.
    const references: Array<{ value: Record<string, unknown>; base: string }> = [];
    walkSchema(item.schema, [], item.id, ({ value, base }) => {
      if (typeof value.$ref === 'string') references.push({ value, base });
    });
    for (const { value, base } of references) {
      const target = resolveUri(value.$ref as string, base);
      const hash = target.indexOf('#');
      const document = hash === -1 ? target : target.slice(0, hash);
      const fragment = hash === -1 ? '' : target.slice(hash + 1);
      const prefix = prefixOf(document);
      if (prefix) value.$ref = `${prefix}${fragment}`;
      // 2020-12 applies a `$ref` beside its siblings; the resolver merges the two and loses
      // references inside the siblings. `allOf: [{$ref}]` means the same and survives.
      if (Object.keys(value).some((keyword) => !REF_COMPANIONS.has(keyword))) {
        value.allOf = [{ $ref: value.$ref }, ...(isList(value.allOf) ? value.allOf : [])];
        delete value.$ref;
      }
    }
  }
  if (Object.keys(definitions).length > 0) bundled[BUNDLE] = definitions;
  reshapeForTypes(bundled, BUNDLE);
  return bundled;
}

/**
 * Where the referenced documents go: not under `$defs`, so that only what the schema uses of
 * them is declared (its own `$defs` are all declared, used or not).
 */
const BUNDLE = 'x-openwop-bundle';

/** Keywords a `$ref` can sit beside without the resolver having to merge anything. */
const REF_COMPANIONS = new Set([
  '$ref',
  '$id',
  '$schema',
  '$comment',
  '$anchor',
  'title',
  'description',
  'deprecated',
  'readOnly',
  'writeOnly',
  'default',
  'examples',
]);

function schemaIdOf(file: DataFile, schemaIds: SchemaIds): string {
  const declared = (file.value as Record<string, unknown>).$id;
  return (typeof declared === 'string' ? declared : expectedSchemaId(file.path, schemaIds)).replace(/#$/, '');
}

function renderIndex(entries: TypeDeclarations['schemas']): string {
  const lines = [
    '/**',
    " * Types of every JSON Schema of @openwop/spec-artifacts. Each schema's root type is exported",
    ' * under the name of its file; `<Name>Schema` is a namespace holding every type that schema declares.',
    ' */',
    '',
  ];
  for (const entry of entries) {
    const specifier = `./${path.posix.relative(TYPES_DIRECTORY, entry.declaration).replace(/\.d\.ts$/, '.js')}`;
    lines.push(`/** ${entry.schema} */`);
    lines.push(`export type { ${entry.rootType} } from '${specifier}';`);
    lines.push(`export * as ${entry.namespace} from '${specifier}';`);
  }
  if (entries.length === 0) lines.push('export {};');
  return `${lines.join('\n')}\n`;
}

/**
 * `spec/v2/errors.schema.json` -> root type `Errors`, namespace `ErrorsSchema`. Files that would
 * share a name take directory segments in front until they differ (`SeamsRunEvent`).
 */
export function allocateNames(paths: readonly string[]): Map<string, { rootType: string; namespace: string }> {
  const segments = new Map(paths.map((file) => [file, file.replace(/\.schema\.json$/, '').split('/')]));
  const depth = new Map(paths.map((file) => [file, 1]));
  const nameOf = (file: string) => pascal((segments.get(file) ?? []).slice(-(depth.get(file) ?? 1)).join('-'));
  for (;;) {
    const groups = new Map<string, string[]>();
    for (const file of paths) groups.set(nameOf(file), [...(groups.get(nameOf(file)) ?? []), file]);
    const clashing = [...groups.values()].filter((group) => group.length > 1).flat();
    const growable = clashing.filter((file) => (depth.get(file) ?? 1) < (segments.get(file)?.length ?? 0));
    if (growable.length === 0) break;
    for (const file of growable) depth.set(file, (depth.get(file) ?? 1) + 1);
  }
  const used = new Set<string>();
  const unique = (name: string) => {
    let candidate = name;
    for (let n = 2; used.has(candidate); n++) candidate = `${name}${n}`;
    used.add(candidate);
    return candidate;
  };
  const names = new Map<string, { rootType: string; namespace: string }>();
  for (const file of [...paths].sort(compareStrings)) {
    const rootType = unique(nameOf(file));
    names.set(file, { rootType, namespace: unique(`${rootType}Schema`) });
  }
  return names;
}

function pascal(text: string): string {
  const name = text
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]?.toUpperCase() + word.slice(1))
    .join('');
  return /^[A-Za-z]/.test(name) ? name : `T${name}`;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
