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
import { defineService, isObject, type Corpus } from '../model/index.js';
import { onFlush } from '../output/index.js';
import { AJV_FINGERPRINT, corpusSchemas, type CorpusSchemas } from './json-schema.js';
import { ContentCache } from '../cache/index.js';
import { schemaGraph } from './walk.js';
import { compileJob, type CompileJob } from './compile-job.js';
import { CompileThread } from './compile-thread.js';

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
  const results = resultsCache(corpus);
  const thread = corpus.service(CompileThreadService).thread;

  const failures = new Map<CompileTarget, CompileFailure>();
  const all = batches(corpus, schemas, targets, batchLimits(limits));
  // A corpus that fits one batch, with no thread compiling it, is compiled in the corpus ajv itself,
  // whose validators the other gates (registries, examples) then use instead of compiling the same
  // schemas a second time.
  const compile = all.length === 1 && !thread ? compileInCorpusAjv : compileBatch;
  for (const batch of all) {
    const key = results || thread ? batchKey(schemas, batch) : '';
    let found = results?.get(key, isCompileFailures);
    if (!found) {
      const answered = thread?.failuresOf(key);
      found = answered ? withUnregistered(schemas, batch, answered) : compile(schemas, batch);
      results?.set(key, found);
    }
    for (const failure of found) {
      const target = batch.targets.find((candidate) => candidate.file === failure.file && candidate.pointer === failure.pointer);
      if (target) failures.set(target, failure);
    }
  }
  return targets.flatMap((target) => failures.get(target) ?? []);
}

/** The second thread compiling this corpus's schemas, once startCompiling has started one (its slot is empty until then). */
const CompileThreadService = defineService('schema compile thread', (): { thread?: CompileThread } => ({}));

/** Whether startCompiling can start anything; when not, the targets it would take need not be worked out. */
export function compileThreadAvailable(): boolean {
  return CompileThread.available();
}
/** The compile verdicts remembered on disk for this corpus's cache directory (none when it runs uncached), saved when the run flushes. */
const CompileResultsService = defineService('schema compile results', (corpus: Corpus): ContentCache | undefined => {
  const results = corpus.cacheDir ? ContentCache.open(corpus.cacheDir, 'schema-compile', AJV_FINGERPRINT) : undefined;
  if (results) onFlush(() => results.save());
  return results;
});

function resultsCache(corpus: Corpus): ContentCache | undefined {
  return corpus.service(CompileResultsService);
}

function batchLimits(limits: BatchLimits): Required<BatchLimits> {
  return { hubReferrers: limits.hubReferrers ?? HUB_REFERRERS, batchBytes: limits.batchBytes ?? BATCH_BYTES };
}

/**
 * Starts compiling, on a second thread, the batches of `targets` that the cache does not answer,
 * so that compileFailures later finds them done (compile-thread.ts). Called early in a run, with
 * the targets compileFailures will be asked for; a batch asked for that was not started here is
 * compiled on the main thread, so a difference in targets costs time, never a wrong answer.
 */
export function startCompiling(corpus: Corpus, targets: readonly CompileTarget[], limits: BatchLimits = {}): void {
  const slot = corpus.service(CompileThreadService);
  if (slot.thread || !compileThreadAvailable()) return;
  // The declared $ids, so that the thread starts before the main one has built its ajv: a schema
  // ajv refuses to register changes its batch's key, and that batch is then compiled on the main thread.
  const corpusWide = corpusSchemas(corpus);
  const schemas = Object.create(corpusWide, { idOf: { value: corpusWide.declaredIdOf } }) as CorpusSchemas;
  const results = resultsCache(corpus);
  const jobs: CompileJob[] = [];
  // The thread gets a copy of what it compiles, so it takes about one batch's worth: its memory
  // stays that of one batch, and on a large corpus the main thread compiles the rest as before.
  let bytes = 0;
  const { batchBytes } = batchLimits(limits);
  for (const batch of batches(corpus, schemas, targets, batchLimits(limits))) {
    const key = batchKey(schemas, batch);
    if (results?.get(key, isCompileFailures)) continue;
    const size = batch.reach.reduce((sum, file) => sum + (schemas.files.get(file)?.text.length ?? 0), 0);
    if (jobs.length > 0 && bytes + size > batchBytes) break;
    jobs.push(jobOf(schemas, batch, key));
    bytes += size;
  }
  const thread = CompileThread.start(jobs);
  if (thread) slot.thread = thread;
}

function jobOf(schemas: CorpusSchemas, batch: Batch, key: string): CompileJob {
  return {
    key,
    keywords: schemas.keywords,
    schemas: batch.reach.flatMap((file) => {
      const id = schemas.idOf(file);
      return id ? [{ id, value: schemas.files.get(file)?.value as object }] : [];
    }),
    targets: batch.targets.flatMap((target) => {
      const id = schemas.idOf(target.file);
      return id ? [{ ...target, id }] : [];
    }),
  };
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
  return withUnregistered(schemas, batch, compileJob(jobOf(schemas, batch, '')));
}

/** A job leaves out targets whose file registered no `$id`: those cannot compile at all, as in the corpus ajv. */
function withUnregistered(schemas: CorpusSchemas, batch: Batch, failures: readonly CompileFailure[]): CompileFailure[] {
  const unregistered = batch.targets.filter((target) => !schemas.idOf(target.file)).map((target) => ({ ...target, message: `cannot compile undefined#${target.pointer}`, missingRef: false, stackOverflow: false }));
  return [...failures, ...unregistered];
}

function compileInCorpusAjv(schemas: CorpusSchemas, batch: Batch): CompileFailure[] {
  return failuresOf(batch, (target) => schemas.validator(target.file, target.pointer));
}

/** A cached batch answer as compileFailures writes it; anything else is a miss. */
function isCompileFailures(value: unknown): value is CompileFailure[] {
  return Array.isArray(value) && value.every((item: unknown) => isObject(item) && typeof item.file === 'string' && typeof item.pointer === 'string' && typeof item.message === 'string' && typeof item.missingRef === 'boolean' && typeof item.stackOverflow === 'boolean');
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
