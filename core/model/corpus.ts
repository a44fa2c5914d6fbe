/**
 * The corpus model: every file of the corpus read once, parsed once, indexed once, and the values
 * worked out once per model (services). Gates and generators read this model; none of them touches
 * the file system. Reading a root is load.ts, one file's parse parse-file.ts.
 */
import { existsInside } from '../fs/index.js';
import path from 'node:path';
import type { LineCounter, Document } from 'yaml';
import { defaultConfig, type Config } from '../config/index.js';
import type { GeneratedRegion, RegionProblem } from './regions.js';
import type { MarkdownModel } from '../markdown/index.js';
import type { LineIndex, TextStyle } from '../output/index.js';
import { ServiceTable, type Service } from './service.js';

/** The services built so far, per model object (a model and each view over it apart). */
const serviceTables = new WeakMap<object, ServiceTable>();
import type { ParseProblem } from './structured.js';

// Loading lived here once; what imports it from this module still finds it.
export { corpusFromFiles, listCorpusFiles, loadCorpus } from './load.js';
export { parseFile } from './parse-file.js';

/** The directories (and root files) that make up a corpus. */
export const CORPUS_DIRECTORIES = ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'evidence'] as const;
export const CORPUS_ROOT_FILES = ['CORPUS-STAMP.json'] as const;

interface FileBase {
  /** Relative to the corpus root, `/` separators. */
  path: string;
  bytes: Buffer;
  /** Problems that stop the file from being read as what its name says it is. */
  problems: ParseProblem[];
}

export interface TextBase extends FileBase {
  /** The text with CRLF line ends read as LF (so no gate sees a stray `\r`) and no byte order mark; `bytes` keeps the file as written. */
  text: string;
  lines: LineIndex;
  /** How the file is written, so that a rewrite keeps it so: CRLF line ends, a byte order mark. */
  style: TextStyle;
  /**
   * Whether `bytes` are exactly `text` in UTF-8 (no byte order mark, no CRLF line end): then a
   * digest of the text is the digest of the file, without a buffer made for it. Absent: unknown.
   */
  bytesAreText?: boolean;
}

export interface MarkdownFile extends TextBase, MarkdownModel {
  kind: 'markdown';
  regions: GeneratedRegion[];
  regionProblems: RegionProblem[];
}

export interface DataFile extends TextBase {
  kind: 'json' | 'yaml';
  /** undefined when the file does not parse (see `problems`). */
  doc: Document | undefined;
  value: unknown;
  lineCounter: LineCounter;
}

interface TextFile extends TextBase {
  kind: 'text';
}

interface BinaryFile extends FileBase {
  kind: 'binary';
}

export type CorpusFile = MarkdownFile | DataFile | TextFile | BinaryFile;
export type TextualFile = MarkdownFile | DataFile | TextFile;

export class CorpusError extends Error {}

export class Corpus {
  readonly files: ReadonlyMap<string, CorpusFile>;
  private readonly directories: ReadonlySet<string>;

  constructor(
    readonly root: string,
    files: Map<string, CorpusFile>,
    /** Where caches of this run live (parse results, compiled validators); undefined: no caching. */
    readonly cacheDir?: string,
    /** The repository's config (layout facts, rule settings); the defaults when it has none. */
    readonly config: Config = defaultConfig(),
    /** Entries the include globs matched that are not regular files (symbolic links, devices), root-relative. */
    readonly irregular: readonly string[] = [],
    /** What each irregular entry is, in words ("a symbolic link"). */
    readonly irregularKinds: ReadonlyMap<string, string> = new Map(),
  ) {
    this.files = files;
    const directories = new Set<string>(['']);
    for (const file of files.keys()) {
      let dir = path.posix.dirname(file);
      while (dir !== '.' && !directories.has(dir)) {
        directories.add(dir);
        dir = path.posix.dirname(dir);
      }
    }
    this.directories = directories;
  }

  get(file: string): CorpusFile | undefined {
    return this.files.get(file);
  }

  /** The value of a service (core/model/service.ts) for this model: built on the first call, the same one after. */
  service<T>(service: Service<T>): T {
    // Keyed by the object asked, not held in a field: a view made with Object.create over this model
    // (core/run/reuse.ts records a gate's reads through one) must build its own services through
    // itself, or the reads a service makes would be recorded for no gate.
    let table = serviceTables.get(this);
    if (!table) serviceTables.set(this, (table = new ServiceTable()));
    return table.get(this, service);
  }

  markdown(file: string): MarkdownFile | undefined {
    const found = this.files.get(file);
    return found?.kind === 'markdown' ? found : undefined;
  }

  /** A parsed JSON or YAML file, or undefined when it is absent or does not parse. */
  data(file: string): DataFile | undefined {
    const found = this.files.get(file);
    return (found?.kind === 'json' || found?.kind === 'yaml') && found.problems.length === 0 ? found : undefined;
  }

  all(): CorpusFile[] {
    return [...this.files.values()];
  }

  markdownFiles(): MarkdownFile[] {
    return this.all().filter((file): file is MarkdownFile => file.kind === 'markdown');
  }

  dataFiles(): DataFile[] {
    return this.all().filter(
      (file): file is DataFile => (file.kind === 'json' || file.kind === 'yaml') && file.problems.length === 0,
    );
  }

  textFiles(): TextualFile[] {
    return this.all().filter((file): file is TextualFile => file.kind !== 'binary');
  }

  /**
   * Whether a root-relative path names a file or directory. Corpus paths are answered from
   * the model; a path outside the corpus directories (a root README, say) costs one stat.
   */
  exists(relative: string): boolean {
    const normal = relative.replace(/\/+$/, '');
    if (this.files.has(normal) || this.directories.has(normal)) return true;
    // Through the root's guard: a path that leaves the root, or a link out, is not the corpus's.
    return existsInside(this.root, normal);
  }
}
