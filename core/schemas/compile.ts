/**
 * Whether the corpus schemas compile, worked out batch by batch in throwaway ajv instances.
 *
 * One ajv holding every compiled schema grows with the corpus (a ×100 corpus held 3.5 GiB), and
 * nothing needs the compiled code once the answer is known. So the schemas are split into batches
 * that share what they reference, each batch is compiled in an ajv of its own holding just the
 * schemas it reaches, and that ajv is let go before the next: memory is bounded by the largest
 * batch, not by the corpus. A batch's answer depends only on the text of the schemas it reaches,
 * so it is kept across runs under a digest of them, and an unchanged batch is not compiled again.
 */
import { createHash } from 'node:crypto';
import type { Corpus } from '../model/index.js';
import { onFlush } from '../output/index.js';
import { AJV_FINGERPRINT, corpusSchemas, createAjv, type CorpusSchemas } from './json-schema.js';
import { ContentCache } from '../cache/index.js';
import { schemaGraph } from './walk.js';

/** A schema to compile: a file, or a subschema of it named by a JSON pointer. */
export interface CompileTarget {
  file: string;
  pointer: string;
}

export interface CompileFailure extends CompileTarget {
  /** ajv's message. */
  message: string;
  /** ajv could not resolve a `$ref`. */
  missingRef: boolean;
  /** The stack ran out: ajv followed a `$ref` cycle. */
  stackOverflow: boolean;
}

/**
 * A schema referenced from more files than this is shared by the whole corpus (the id kinds):
 * it does not bind its referrers into one batch, and each batch that needs it compiles its own copy.
 */
const HUB_REFERRERS = 8;
/** Schema text a batch may hold before the next batch starts, unless one group of schemas needs more. */
const BATCH_BYTES = 4 * 2 ** 20;

export interface BatchLimits {
  hubReferrers?: number;
  batchBytes?: number;
}

/** Compiles every target and returns those that fail, in the order of `targets`. */
export function compileFailures(corpus: Corpus, targets: readonly CompileTarget[], limits: BatchLimits = {}): CompileFailure[] {
  const schemas = corpusSchemas(corpus);
  const results = corpus.cacheDir ? ContentCache.open(corpus.cacheDir, 'schema-compile', AJV_FINGERPRINT) : undefined;
  if (results) onFlush(() => results.save());

  const failures = new Map<CompileTarget, CompileFailure>();
  const all = batches(corpus, schemas, targets, { hubReferrers: limits.hubReferrers ?? HUB_REFERRERS, batchBytes: limits.batchBytes ?? BATCH_BYTES });
  // A corpus that fits one batch is compiled in the corpus ajv itself, whose validators the other
  // gates (registries, examples) then use instead of compiling the same schemas a second time.
  const compile = all.length === 1 ? compileInCorpusAjv : compileBatch;
  for (const batch of all) {
    const key = results ? batchKey(schemas, batch) : '';
    let found = results?.get(key, isCompileFailures);
    if (!found) {
      found = compile(schemas, batch);
      results?.set(key, found);
    }
    for (const failure of found) {
      const target = batch.targets.find((candidate) => candidate.file === failure.file && candidate.pointer === failure.pointer);
      if (target) failures.set(target, failure);
    }
  }
  return targets.flatMap((target) => failures.get(target) ?? []);
}

interface Batch {
  targets: CompileTarget[];
  /** Every schema file the targets reach through `$ref`, themselves included, sorted. */
  reach: string[];
}

function batches(corpus: Corpus, schemas: CorpusSchemas, targets: readonly CompileTarget[], limits: Required<BatchLimits>): Batch[] {
  const graph = schemaGraph(corpus);
  const files = [...schemas.files.keys()].filter((file) => schemas.idOf(file) !== undefined).sort();
  const references = new Map<string, string[]>();
  const referrers = new Map<string, number>();
  for (const file of files) {
    const to = new Set<string>();
    for (const { resolved } of graph.refs(file)) {
      if (resolved.ok && resolved.target.file !== file && schemas.idOf(resolved.target.file) !== undefined) to.add(resolved.target.file);
    }
    references.set(file, [...to]);
    for (const target of to) referrers.set(target, (referrers.get(target) ?? 0) + 1);
  }

  // Files joined by a reference that is not to a hub form one group (union-find).
  const parent = new Map(files.map((file) => [file, file]));
  const root = (file: string): string => {
    let at = file;
    while (parent.get(at) !== at) at = parent.get(at) ?? at;
    parent.set(file, at);
    return at;
  };
  for (const file of files) {
    for (const target of references.get(file) ?? []) {
      if ((referrers.get(target) ?? 0) > limits.hubReferrers) continue;
      const [a, b] = [root(file), root(target)].sort();
      if (a !== undefined && b !== undefined && a !== b) parent.set(b, a);
    }
  }
  const groups = new Map<string, string[]>();
  for (const file of files) {
    const group = groups.get(root(file));
    if (group) group.push(file);
    else groups.set(root(file), [file]);
  }

  const targetsOf = new Map<string, CompileTarget[]>();
  for (const target of targets) {
    const list = targetsOf.get(target.file);
    if (list) list.push(target);
    else targetsOf.set(target.file, [target]);
  }

  // Groups in order of their first file, packed into batches of about BATCH_BYTES.
  const result: Batch[] = [];
  let members: string[] = [];
  let bytes = 0;
  const close = (): void => {
    const batchTargets = members.flatMap((file) => targetsOf.get(file) ?? []);
    if (batchTargets.length > 0) result.push({ targets: batchTargets, reach: reach(members, references) });
    members = [];
    bytes = 0;
  };
  for (const group of groups.values()) {
    const size = group.reduce((sum, file) => sum + (schemas.files.get(file)?.text.length ?? 0), 0);
    if (members.length > 0 && bytes + size > limits.batchBytes) close();
    members.push(...group);
    bytes += size;
  }
  close();
  return result;
}

function reach(from: readonly string[], references: ReadonlyMap<string, readonly string[]>): string[] {
  const seen = new Set(from);
  const queue = [...from];
  while (queue.length > 0) {
    for (const next of references.get(queue.pop() ?? '') ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      queue.push(next);
    }
  }
  return [...seen].sort();
}

function batchKey(schemas: CorpusSchemas, batch: Batch): string {
  const hash = createHash('sha1');
  hash.update(`${schemas.keywords.join(',')}\n`);
  for (const file of batch.reach) hash.update(`${file}:${schemas.digest(file)}\n`);
  for (const target of batch.targets) hash.update(`${target.file}#${target.pointer}\n`);
  return hash.digest('hex');
}

function compileBatch(schemas: CorpusSchemas, batch: Batch): CompileFailure[] {
  // The corpus ajv has already held every schema to the meta-schema, so this one need not.
  const ajv = createAjv(schemas.keywords, { validateSchema: false });
  for (const file of batch.reach) {
    const id = schemas.idOf(file);
    try {
      if (id) ajv.addSchema(schemas.files.get(file)?.value as object, id);
    } catch {
      // Registering it failed in the corpus ajv as well, where it is reported.
    }
  }
  return failuresOf(batch, (target) => {
    const id = schemas.idOf(target.file);
    if (!ajv.getSchema(target.pointer ? `${id}#${target.pointer}` : `${id}`)) throw new Error(`cannot compile ${id}#${target.pointer}`);
  });
}

function compileInCorpusAjv(schemas: CorpusSchemas, batch: Batch): CompileFailure[] {
  return failuresOf(batch, (target) => schemas.validator(target.file, target.pointer));
}

/** A cached batch answer as compileFailures writes it; anything else is a miss. */
function isCompileFailures(value: unknown): value is CompileFailure[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && typeof item.file === 'string' && typeof item.pointer === 'string' && typeof item.message === 'string' && typeof item.missingRef === 'boolean' && typeof item.stackOverflow === 'boolean');
}

function failuresOf(batch: Batch, compile: (target: CompileTarget) => void): CompileFailure[] {
  const failures: CompileFailure[] = [];
  for (const target of batch.targets) {
    try {
      compile(target);
    } catch (error) {
      failures.push({
        ...target,
        message: error instanceof Error ? error.message : String(error),
        missingRef: error instanceof Error && 'missingRef' in error,
        stackOverflow: error instanceof RangeError,
      });
    }
  }
  return failures;
}
