/**
 * Reuse between runs over successive models of one corpus (a language server's, one per edit):
 * each gate and generator is handed a view of the model that records what it reads (files by
 * path, and which kinds of file it iterates), and its findings are kept with that record. The next
 * run over a model that differs in some files runs again only the gates and generators whose record
 * names one of them, and takes the kept findings of the others. The record is complete because the
 * view is the only model the gate sees. A service (a document index, a registry read, the mention
 * index) is built once per run, through a recording view of its own, and what it read is linked into
 * the reads of every gate that asks for it: each gate is charged with the service's reads without
 * building the service again.
 */
import type { Corpus, CorpusFile, Service } from '../model/index.js';
import type { Diagnostic } from '../output/index.js';

/** What one gate or generator read of a model. */
export interface Reads {
  /** Root-relative paths looked up (present or not); a directory's path stands for what is under it. */
  paths: Set<string>;
  /** Every file's content (iterating the files, or every file of a kind). */
  all: boolean;
  /** Which kinds of file it iterated: their content, for files of that kind. */
  kinds: Set<'markdown' | 'data' | 'text'>;
  /** The list of paths (which files exist), without their content. */
  listing: boolean;
  /** The entries that are not regular files. */
  irregular: boolean;
  /**
   * The reads of the services it asked for (linked, not copied: a service that works out a part
   * on first use reads more later, and whoever asked for it depends on that too).
   */
  uses: Set<Reads>;
}

function noReads(): Reads {
  return { paths: new Set(), all: false, kinds: new Set(), listing: false, irregular: false, uses: new Set() };
}

/** What a service's view answers from: the model of the run it serves (a service kept for a later run is moved there). */
interface ViewTarget {
  corpus: Corpus;
  services: SharedServices | undefined;
}

/** A service as one run built it: its value, what building it (and working out its parts since) read, and the model its view reads. */
export interface BuiltService {
  value: unknown;
  reads: Reads;
  target: ViewTarget;
}

/**
 * The services of one run under reuse, shared by every recording view over its model: each built
 * once, through a view that records into its own reads, which every asker links into its reads.
 * A service the previous run built is kept when the changes miss what it read: its view is moved
 * to this run's model, so that a part it works out later reads this model (what it read before is
 * the same in both). A service that read nothing is state kept per model (a table its callers
 * fill, background work started), never kept.
 */
export class SharedServices {
  readonly built = new Map<Service<unknown>, BuiltService>();
  private readonly building = new Set<Service<unknown>>();

  constructor(
    private readonly corpus: Corpus,
    private readonly previous?: { built: ReadonlyMap<Service<unknown>, BuiltService>; changes: Changes },
  ) {}

  get<T>(service: Service<T>, asker: Reads): T {
    let entry = this.built.get(service) ?? this.keep(service);
    if (!entry) {
      if (this.building.has(service)) throw new Error(`the ${service.name} asks for itself while it is being built`);
      this.building.add(service);
      try {
        const reads = noReads();
        const target: ViewTarget = { corpus: this.corpus, services: this };
        entry = { value: service.build(targetedView(target, reads)), reads, target };
        this.built.set(service, entry);
      } finally {
        this.building.delete(service);
      }
    }
    asker.uses.add(entry.reads);
    return entry.value as T;
  }

  private keep(service: Service<unknown>): BuiltService | undefined {
    const last = this.previous?.built.get(service);
    if (!last || !readSomething(last.reads) || !unaffected(last.reads, this.previous!.changes)) return undefined;
    last.target.corpus = this.corpus;
    last.target.services = this;
    this.built.set(service, last);
    return last;
  }
}

function readSomething(reads: Reads): boolean {
  return (
    reads.paths.size > 0 || reads.all || reads.kinds.size > 0 || reads.listing || reads.irregular || reads.uses.size > 0
  );
}

/** The files of a model, handed out as the model's map is, with every access recorded. */
class RecordingFiles implements ReadonlyMap<string, CorpusFile> {
  constructor(
    private readonly target: ViewTarget,
    private readonly reads: Reads,
  ) {}
  private get inner(): ReadonlyMap<string, CorpusFile> {
    return this.target.corpus.files;
  }
  get size(): number {
    this.reads.listing = true;
    return this.inner.size;
  }
  get(key: string): CorpusFile | undefined {
    this.reads.paths.add(key);
    return this.inner.get(key);
  }
  has(key: string): boolean {
    this.reads.paths.add(key);
    return this.inner.has(key);
  }
  keys(): MapIterator<string> {
    this.reads.listing = true;
    return this.inner.keys();
  }
  values(): MapIterator<CorpusFile> {
    this.reads.all = true;
    return this.inner.values();
  }
  entries(): MapIterator<[string, CorpusFile]> {
    this.reads.all = true;
    return this.inner.entries();
  }
  forEach(
    callback: (value: CorpusFile, key: string, map: ReadonlyMap<string, CorpusFile>) => void,
    thisArg?: unknown,
  ): void {
    this.reads.all = true;
    this.inner.forEach((value, key) => callback.call(thisArg, value, key, this));
  }
  [Symbol.iterator](): MapIterator<[string, CorpusFile]> {
    return this.entries();
  }
}

/**
 * A view of `corpus` that records into `reads`: the same model (an instance of its class, its
 * methods answering from the same files), a distinct object, so that what is cached per model is
 * computed through it.
 */
export function recordingView(corpus: Corpus, reads: Reads, services?: SharedServices): Corpus {
  return targetedView({ corpus, services }, reads);
}

/** A recording view of whichever model `target` names when it is asked. */
function targetedView(target: ViewTarget, reads: Reads): Corpus {
  const view = Object.create(target.corpus) as Corpus;
  const files = new RecordingFiles(target, reads);
  Object.defineProperties(view, {
    files: { value: files },
    // Without a run's shared services, the view builds its own through itself (Corpus.service keys by the object asked).
    ...(target.services
      ? { service: { value: <T>(service: Service<T>): T => (target.services as SharedServices).get(service, reads) } }
      : {}),
    irregular: {
      get: () => {
        reads.irregular = true;
        return target.corpus.irregular;
      },
    },
    irregularKinds: {
      get: () => {
        reads.irregular = true;
        return target.corpus.irregularKinds;
      },
    },
    // Iterating one kind of file depends on the files of that kind only.
    markdownFiles: { value: () => (reads.kinds.add('markdown'), target.corpus.markdownFiles()) },
    dataFiles: { value: () => (reads.kinds.add('data'), target.corpus.dataFiles()) },
    textFiles: { value: () => (reads.kinds.add('text'), target.corpus.textFiles()) },
    all: { value: () => ((reads.all = true), target.corpus.all()) },
    exists: {
      value: (relative: string) => (reads.paths.add(relative.replace(/\/+$/, '')), target.corpus.exists(relative)),
    },
  });
  return view;
}

/** What differs between two models of one corpus, and paths the caller knows changed outside them (on disk). */
export interface Changes {
  paths: ReadonlySet<string>;
  /** Which kinds of file changed (a file's kind before and after). */
  kinds: ReadonlySet<'markdown' | 'data' | 'text'>;
  /** Files were added or removed. */
  listing: boolean;
  irregular: boolean;
}

function kindsOf(file: CorpusFile | undefined): Array<'markdown' | 'data' | 'text'> {
  if (!file || file.kind === 'binary') return [];
  const kinds: Array<'markdown' | 'data' | 'text'> = ['text'];
  if (file.kind === 'markdown') kinds.push('markdown');
  // A data file that does not parse is no data file; one that stops or starts parsing changes the data files.
  if (file.kind === 'json' || file.kind === 'yaml') kinds.push('data');
  return kinds;
}

function sameFile(a: CorpusFile, b: CorpusFile): boolean {
  return a === b || (a.kind === b.kind && a.bytes.equals(b.bytes));
}

function changesBetween(before: Corpus, after: Corpus, outside: Iterable<string> = []): Changes {
  const paths = new Set<string>(outside);
  const kinds = new Set<'markdown' | 'data' | 'text'>();
  let listing = false;
  for (const [path, file] of after.files) {
    const old = before.files.get(path);
    if (old && sameFile(old, file)) continue;
    if (!old) listing = true;
    paths.add(path);
    for (const kind of [...kindsOf(old), ...kindsOf(file)]) kinds.add(kind);
  }
  for (const [path, old] of before.files) {
    if (after.files.has(path)) continue;
    listing = true;
    paths.add(path);
    for (const kind of kindsOf(old)) kinds.add(kind);
  }
  for (const path of outside) if (!before.files.has(path) && !after.files.has(path)) listing = true;
  const irregular =
    before.irregular.join('\n') !== after.irregular.join('\n') ||
    [...after.irregularKinds].some(([k, v]) => before.irregularKinds.get(k) !== v);
  return { paths, kinds, listing, irregular };
}

/** Whether what was read (directly or through the services asked for) is untouched by the changes. */
function unaffected(reads: Reads, changes: Changes, seen = new Set<Reads>()): boolean {
  if (seen.has(reads)) return true;
  seen.add(reads);
  if (!ownReadsUnaffected(reads, changes)) return false;
  for (const used of reads.uses) if (!unaffected(used, changes, seen)) return false;
  return true;
}

function ownReadsUnaffected(reads: Reads, changes: Changes): boolean {
  if (changes.irregular && reads.irregular) return false;
  if (changes.paths.size === 0) return true;
  if (reads.all) return false;
  if (reads.listing && changes.listing) return false;
  for (const kind of reads.kinds) if (changes.kinds.has(kind)) return false;
  for (const path of changes.paths) {
    if (reads.paths.has(path)) return false;
    // A directory looked up stands for the files under it.
    for (let at = path.lastIndexOf('/'); at > 0; at = path.lastIndexOf('/', at - 1))
      if (reads.paths.has(path.slice(0, at))) return false;
  }
  return true;
}

/** One gate's or generator's last findings (and outputs), with what it read to make them. */
export interface Kept<T> {
  reads: Reads;
  value: T;
}

/**
 * What a run keeps for the next one over the same corpus: per gate (and the settings it ran with)
 * its findings, per generator its outputs and findings. Opaque to the caller, who hands back the
 * result that holds it.
 */
export class RunMemo {
  readonly checks = new Map<string, Kept<Diagnostic[]>>();
  readonly generators = new Map<string, Kept<unknown>>();
  /** The services the run built or kept (filled as the run asks for them). */
  services: ReadonlyMap<Service<unknown>, BuiltService> = new Map();
  constructor(
    /** The model the kept findings are of. */
    readonly corpus: Corpus,
    /** What the run was made with (compared part by part, by identity): a run with other settings reuses nothing. */
    readonly basis: readonly unknown[],
  ) {}
}

/**
 * Reuse for one run: the previous memo (when it applies), the changes since, and the memo this run
 * fills. Each gate and generator runs over a recording view of its own, so that its record is what
 * it read; the services they ask for are the run's, built once (SharedServices).
 */
export class Reuse {
  readonly next: RunMemo;
  private readonly changes: Changes | undefined;
  private readonly previous: RunMemo | undefined;
  private readonly services: SharedServices;
  private readonly views = new Map<string, { view: Corpus; reads: Reads }>();

  constructor(
    corpus: Corpus,
    basis: readonly unknown[],
    previous: RunMemo | undefined,
    outside: Iterable<string> = [],
  ) {
    this.next = new RunMemo(corpus, basis);
    const applies =
      previous !== undefined &&
      previous.basis.length === basis.length &&
      previous.basis.every((part, i) => part === basis[i]) &&
      previous.corpus.root === corpus.root &&
      previous.corpus.config === corpus.config &&
      previous.corpus.cacheDir === corpus.cacheDir;
    this.previous = applies ? previous : undefined;
    this.changes = applies ? changesBetween(previous.corpus, corpus, outside) : undefined;
    this.services = new SharedServices(
      corpus,
      this.previous && this.changes ? { built: this.previous.services, changes: this.changes } : undefined,
    );
    this.next.services = this.services.built;
  }

  /** The kept findings of a gate whose reads the changes miss (carried into this run's memo), else undefined. */
  keptCheck(key: string): Diagnostic[] | undefined {
    return this.kept(this.previous?.checks, this.next.checks, key);
  }

  /** Whether a gate's findings are kept (so that it need not prepare). */
  keeps(key: string): boolean {
    const found = this.previous?.checks.get(key);
    return found !== undefined && this.changes !== undefined && unaffected(found.reads, this.changes);
  }

  /** A gate's findings: kept when its reads are untouched, else from `run` over its recording view. */
  check(key: string, corpus: Corpus, run: (view: Corpus) => Diagnostic[]): Diagnostic[] {
    const kept = this.keptCheck(key);
    if (kept) return kept;
    const { view, reads } = this.viewOf(`check:${key}`, corpus);
    const value = run(view);
    this.next.checks.set(key, { reads, value });
    this.views.delete(`check:${key}`);
    return value;
  }

  /** The recording view a gate runs over in this run (so that what it prepared is what it runs over). */
  view(key: string, corpus: Corpus): Corpus {
    return this.viewOf(`check:${key}`, corpus).view;
  }

  /** A generator's outputs and findings, as `check` does for a gate; the run records what it reads outside the view (through the plan's context) into `reads`. */
  generator<T>(key: string, corpus: Corpus, run: (view: Corpus, reads: Reads) => T): T {
    const kept = this.kept(
      this.previous?.generators as Map<string, Kept<T>> | undefined,
      this.next.generators as Map<string, Kept<T>>,
      key,
    );
    if (kept !== undefined) return kept;
    const { view, reads } = this.viewOf(`generator:${key}`, corpus);
    const value = run(view, reads);
    this.next.generators.set(key, { reads, value });
    this.views.delete(`generator:${key}`);
    return value;
  }

  private kept<T>(from: Map<string, Kept<T>> | undefined, to: Map<string, Kept<T>>, key: string): T | undefined {
    const found = from?.get(key);
    if (!found || !this.changes || !unaffected(found.reads, this.changes)) return undefined;
    to.set(key, found);
    return found.value;
  }

  private viewOf(name: string, corpus: Corpus): { view: Corpus; reads: Reads } {
    let found = this.views.get(name);
    if (!found) {
      const reads = noReads();
      found = { view: recordingView(corpus, reads, this.services), reads };
      this.views.set(name, found);
    }
    return found;
  }
}
