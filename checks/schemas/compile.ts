import { type Corpus, type DataFile, Location, nodeAt, type PathSegment, isObject } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { corpusSchemas, expectedSchemaId, isSchemaPath,refCycles,compileFailures,compileThreadAvailable,startCompiling,type CompileFailure,type CompileTarget,pointerSegments,schemaGraph,valueAt,walkSchema } from '../../core/schemas/index.js';
import { DECLARATION_PATH } from '../../core/registries/index.js';

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';
const FACET = /^spec\/v2\/facets\/[^/]+\.schema\.json$/;

export default defineCheck({
  id: 'schemas/compile',
  summary: 'Every corpus schema is JSON Schema 2020-12 that compiles in strict mode, with a unique $id that is its path under the layout\'s $id base (https://openwop.dev/<path> by default), every $ref resolving, and no $ref cycle that consumes nothing; a facet fragment is checked as part of the schema it composes into',
  severity: 'error',
  fixable: true,
  messages: {
    'not-an-object': 'a *.schema.json file holds a JSON Schema object; this one is not an object',
    'cannot-register': 'the schema cannot be registered: {{problem}}',
    'ref-cycle': 'a $ref cycle that consumes no part of the instance: {{chain}}; validation would recurse forever',
    'no-dialect': 'the schema declares no $schema; corpus schemas are JSON Schema 2020-12',
    'other-dialect': 'the schema declares $schema {{dialect}}; corpus schemas are JSON Schema 2020-12',
    'no-id': 'the schema has no $id; it should be {{expected}}',
    'wrong-id': "$id is {{id}}, but a corpus schema's $id is {{expected}}, its path under {{base}}",
    'wrong-id-in-layout': "$id is {{id}}, but a corpus schema's $id is {{expected}}, its path under the $id base that layout.schemaIds gives its folder",
    'unresolved-ref': '{{keyword}} {{ref}} does not resolve: {{reason}}',
    'strict-mode': 'does not compile as JSON Schema 2020-12 in strict mode: {{problem}}',
  },
  run(corpus, report) {
    const files = corpus.dataFiles().filter((file) => isSchemaPath(file.path));
    if (files.length === 0) return;
    const schemas = corpusSchemas(corpus);
    const fragments = facetFragments(corpus);
    const schemaIds = corpus.config.layout.schemaIds;
    for (const file of files) {
      if (!isObject(file.value)) {
        report({ file: file.path, messageId: 'not-an-object', hint: 'write the schema as a JSON object, or rename the file if it holds no schema' });
        continue;
      }
      if (!fragments.has(file.path)) checkHeader(file, expectedSchemaId(file.path, schemaIds), report);
    }
    for (const problem of schemas.problems) {
      const file = corpus.data(problem.file);
      // A schema in another dialect cannot register; its $schema finding already says why.
      const dialect = isObject(file?.value) ? file.value.$schema : undefined;
      if (typeof dialect === 'string' && dialect !== DIALECT && problem.message.includes(dialect)) continue;
      report({ location: file ? Location.pointer(file, ['$id'], 'value') : Location.file(problem.file), messageId: 'cannot-register', data: { problem: problem.message }, hint: `its $id is ${expectedSchemaId(problem.file, schemaIds)}` });
    }

    const { unresolved, targets } = checkRefs(corpus, [...schemas.files.keys()], report);
    const cycles = refCycles(corpus, [...schemas.files.keys()]);
    for (const cycle of cycles) {
      const [first] = cycle.edges;
      if (!first) continue;
      const file = corpus.data(first.site.file);
      const chain = cycle.edges.map((edge) => describe(edge.site.file, edge.site.path, first.site.file));
      report({
        location: file ? Location.pointer(file, [...first.site.path, first.keyword], 'value') : Location.file(first.site.file),
        messageId: 'ref-cycle',
        data: { chain: [...chain, chain[0]].join(' -> ') },
        hint: 'recurse only under properties, items or the like, so that each level consumes part of the value',
      });
    }

    const reported = new Set<string>();
    for (const failure of compileFailures(corpus, compileTargets(corpus, targets, fragments))) compileFailure(corpus, failure, { unresolved, cyclic: cycles.length > 0 }, reported, report);
  },
  prepare(corpus) {
    // The thread is opt-in: without it, working out its targets here would only repeat run's work.
    if (!compileThreadAvailable()) return;
    const files = corpus.dataFiles().filter((file) => isSchemaPath(file.path));
    if (files.length === 0) return;
    const schemas = corpusSchemas(corpus);
    const { targets } = checkRefs(corpus, [...schemas.files.keys()], () => {});
    startCompiling(corpus, compileTargets(corpus, targets, facetFragments(corpus), schemas.declaredIdOf));
  },
});

/**
 * What is compiled: every schema, and each `$defs` member no `$ref` reaches (ajv compiles only
 * what a schema reaches, and a definition nothing uses yet must still be valid strict 2020-12).
 */
function compileTargets(corpus: Corpus, reached: ReadonlySet<string>, fragments: ReadonlySet<string>, idOf?: (file: string) => string | undefined): CompileTarget[] {
  const schemas = corpusSchemas(corpus);
  const registered = idOf ?? schemas.idOf;
  const compileTargets: CompileTarget[] = [];
  for (const [path, file] of schemas.files) {
    if (!registered(path) || fragments.has(path)) continue;
    const defs = isObject(file.value) && isObject(file.value.$defs) ? Object.keys(file.value.$defs).filter((name) => !reached.has(`${path}#/$defs/${name}`)) : [];
    for (const pointer of ['', ...defs.map((name) => `/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)]) compileTargets.push({ file: path, pointer });
  }
  return compileTargets;
}

/**
 * Facet schemas composed into the capabilities schema (those in spec/v2/facets/, and any a
 * declaration family names as its `facetsFrom`) that declare neither `$schema` nor `$id`: fragments,
 * not schemas of their own. Their type and dialect come from the schema they are composed into, so
 * they are not held to a header or compiled alone; their `$ref`s are still resolved, and ajv has
 * held them to the 2020-12 meta-schema when it registered them.
 */
function facetFragments(corpus: Corpus): Set<string> {
  const declaration = corpus.data(DECLARATION_PATH)?.value;
  const families = isObject(declaration) && Array.isArray(declaration.families) ? declaration.families.filter(isObject) : [];
  const named = new Set(corpus.dataFiles().map((file) => file.path).filter((path) => FACET.test(path)));
  for (const family of families) if (typeof family.facetsFrom === 'string') named.add(family.facetsFrom);
  const fragments = new Set<string>();
  for (const path of named) {
    const value = corpus.data(path)?.value;
    if (isObject(value) && value.$schema === undefined && value.$id === undefined) fragments.add(path);
  }
  return fragments;
}

function checkHeader(file: DataFile, expected: string, report: Report): void {
  const value = file.value as Record<string, unknown>;
  if (value.$schema === undefined) {
    report({ location: Location.pointer(file), messageId: 'no-dialect', hint: `add "$schema": "${DIALECT}"` });
  } else if (value.$schema !== DIALECT) {
    report({ location: Location.pointer(file, ['$schema'], 'value'), messageId: 'other-dialect', data: { dialect: JSON.stringify(value.$schema) }, hint: `use "${DIALECT}"` });
  }
  if (value.$id === undefined) {
    report({ location: Location.pointer(file), messageId: 'no-id', data: { expected }, hint: `add "$id": "${expected}"` });
  } else if (value.$id !== expected) {
    const node = nodeAt(file.doc, ['$id']);
    const range = node?.range;
    report({
      location: Location.pointer(file, ['$id'], 'value'),
      ...(expected.endsWith(`/${file.path}`)
        ? { messageId: 'wrong-id', data: { id: JSON.stringify(value.$id), expected, base: expected.slice(0, -file.path.length) } }
        : { messageId: 'wrong-id-in-layout', data: { id: JSON.stringify(value.$id), expected } }),
      hint: 'run `openwop-spec check --fix` to correct it',
      ...(range && file.kind === 'json' ? { fix: { start: range[0], end: range[1], text: JSON.stringify(expected) } } : {}),
    });
  }
}

/** Reports every `$ref` that names nothing; returns whether there was one, and where the others point. */
function checkRefs(corpus: Corpus, files: readonly string[], report: Report): { unresolved: boolean; targets: Set<string> } {
  const graph = schemaGraph(corpus);
  let unresolved = false;
  const targets = new Set<string>();
  for (const path of files) {
    const file = corpus.data(path);
    if (!file) continue;
    for (const { path: at, keyword, ref, resolved } of graph.refs(path)) {
      if (resolved.ok) {
        targets.add(`${resolved.target.file}#/${resolved.target.path.join('/')}`);
        continue;
      }
      unresolved = true;
      report({ location: Location.pointer(file, [...at, keyword], 'value'), messageId: 'unresolved-ref', data: { keyword, ref: JSON.stringify(ref), reason: resolved.reason }, hint: 'a relative $ref resolves against this schema\'s $id; name a corpus schema and a pointer that exists in it' });
    }
  }
  return { unresolved, targets };
}

const AT = / at "([^"#]*)#([^"]*)"/;
const UNKNOWN_KEYWORD = /unknown keyword: "([^"]+)"/;

function compileFailure(corpus: Corpus, failure: CompileFailure, known: { unresolved: boolean; cyclic: boolean }, reported: Set<string>, report: Report): void {
  // Already said better: a missing $ref target, or the stack running out on a reported cycle.
  if (failure.missingRef && known.unresolved) return;
  if (failure.stackOverflow && known.cyclic) return;
  const { file: path, pointer } = failure;
  const raw = failure.message.split('\n')[0] ?? '';
  let target = path;
  let segments: PathSegment[] | undefined;
  const at = AT.exec(raw);
  if (at) {
    const resolved = at[1] ? schemaGraph(corpus).resolve(path, [], `${at[1]}#`) : undefined;
    if (resolved?.ok) target = resolved.target.file;
    // ajv (with inlineRefs off) names the resource it compiled, not the subschema inside it; the
    // subschema is the one this gate asked for when it is in the same file.
    segments = findPointer(corpus.data(target), at[2] || (target === path ? pointer : ''));
  } else {
    const keyword = UNKNOWN_KEYWORD.exec(raw)?.[1];
    if (keyword) segments = findKey(corpus.data(target)?.value, keyword);
  }
  const problem = raw.replace(AT, '').replace(/^strict mode: /, '');
  const file = corpus.data(target);
  const location = file && segments ? Location.pointer(file, segments) : Location.file(target);
  const { line, column } = location.resolve();
  const key = `${target}:${line}:${column}:${problem}`;
  if (reported.has(key)) return;
  reported.add(key);
  report({ location, messageId: 'strict-mode', data: { problem }, hint: 'corpus schemas compile under ajv strict mode: declare types for type-specific keywords, and list required members under properties' });
}

/**
 * ajv names a subschema by a pointer relative to the schema resource it compiled, which may be a
 * `$defs` member rather than the file; the first subschema whose path ends with the pointer is it.
 */
function findPointer(file: DataFile | undefined, pointer: string): PathSegment[] | undefined {
  const wanted = pointerSegments(pointer);
  if (!file || !wanted) return undefined;
  if (valueAt(file.value, wanted.map(toSegment)) !== undefined) return wanted.map(toSegment);
  let found: PathSegment[] | undefined;
  walkSchema(file.value, [], '', ({ path }) => {
    if (found || path.length < wanted.length) return;
    const tail = path.slice(path.length - wanted.length).map(String);
    if (tail.every((segment, index) => segment === wanted[index])) found = path;
  });
  return found;
}

function findKey(value: unknown, key: string): PathSegment[] | undefined {
  let found: PathSegment[] | undefined;
  walkSchema(value, [], '', ({ value: schema, path }) => {
    if (!found && Object.hasOwn(schema, key)) found = [...path, key];
  });
  return found;
}

function toSegment(segment: string): PathSegment {
  return /^(0|[1-9]\d*)$/.test(segment) ? Number(segment) : segment;
}

function describe(file: string, path: readonly PathSegment[], home: string): string {
  const pointer = `#/${path.map(String).join('/')}`;
  return file === home ? pointer : `${file}${pointer}`;
}
