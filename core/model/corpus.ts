/**
 * The corpus model: every file of the corpus read once, parsed once, indexed once.
 * Gates and generators read this model; none of them touches the file system.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { LineCounter, Document } from 'yaml';
import { globSync } from 'glob';
import { defaultConfig, type Config } from '../config/index.js';
import { findRegions, type GeneratedRegion, type RegionProblem } from './regions.js';
import { indexMarkdown, parseMarkdownTree, type MarkdownModel, type ParsedMarkdown } from '../markdown/index.js';
import { ContentCache } from '../cache/index.js';
import { LineIndex } from './positions.js';
import { parseJsonText, parseJsonValue, parseYamlText, type ParsedData, type ParseProblem } from './structured.js';

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

interface TextBase extends FileBase {
  text: string;
  lines: LineIndex;
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

export interface TextFile extends TextBase {
  kind: 'text';
}

export interface BinaryFile extends FileBase {
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
    return this.all().filter((file): file is DataFile => (file.kind === 'json' || file.kind === 'yaml') && file.problems.length === 0);
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
    return existsSync(path.join(this.root, normal));
  }
}

export interface LoadOptions {
  /** Reuse parse results of unchanged files across runs (node_modules/.cache under the root). Default: on. */
  cache?: boolean;
  /** Which files make up the corpus (include, exclude) and the layout; default: this repository's. */
  config?: Config;
}

export function loadCorpus(root: string, options: LoadOptions = {}): Corpus {
  const absolute = path.resolve(root);
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new CorpusError(`corpus root ${root} does not exist`);
  }
  if (!stat.isDirectory()) throw new CorpusError(`corpus root ${root} is not a directory`);

  const config = options.config ?? defaultConfig();
  const { paths, irregular } = listCorpusFiles(absolute, config);

  const cacheDir = options.cache === false ? undefined : cacheDirectory(absolute);
  const cache = cacheDir ? ContentCache.open(cacheDir) : undefined;
  const files = new Map<string, CorpusFile>();
  for (const relative of paths) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.join(absolute, relative));
    } catch (error) {
      throw new CorpusError(`cannot read ${relative}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
    files.set(relative, parseFile(relative, bytes, cache));
  }
  cache?.save();
  return new Corpus(absolute, files, cacheDir, config, irregular);
}

/**
 * The files the config's globs select, sorted by code unit so that every platform and locale
 * lists them alike. Dotfiles and node_modules are never the corpus; symbolic links are not
 * followed, and entries that are not regular files are returned apart.
 */
export function listCorpusFiles(root: string, config: Config): { paths: string[]; irregular: string[] } {
  let found;
  try {
    found = globSync([...config.include], {
      cwd: root,
      dot: false,
      follow: false,
      withFileTypes: true,
      ignore: [...config.exclude, '**/node_modules/**'],
    });
  } catch (error) {
    throw new CorpusError(`cannot list the corpus under ${root}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const paths: string[] = [];
  const irregular: string[] = [];
  for (const entry of found) {
    if (entry.isDirectory()) continue;
    const relative = entry.relativePosix();
    (entry.isFile() ? paths : irregular).push(relative);
  }
  const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return { paths: [...new Set(paths)].sort(byCodeUnit), irregular: [...new Set(irregular)].sort(byCodeUnit) };
}

/** Builds a corpus from in-memory files (tests, and generators' previews); paths relative, `/`. */
export function corpusFromFiles(root: string, contents: Record<string, string | Buffer>, config?: Config): Corpus {
  const files = new Map<string, CorpusFile>();
  for (const relative of Object.keys(contents).sort()) {
    const content = contents[relative] ?? '';
    files.set(relative, parseFile(relative, typeof content === 'string' ? Buffer.from(content, 'utf8') : content));
  }
  return new Corpus(path.resolve(root), files, undefined, config);
}


const TEXT_EXTENSIONS = /\.(md|json|ya?ml|txt|csv|ts|js|mjs|html)$/i;

export function parseFile(relative: string, bytes: Buffer, cache?: ContentCache): CorpusFile {
  const extension = path.posix.extname(relative).toLowerCase();
  if (looksBinary(bytes)) {
    const problems = TEXT_EXTENSIONS.test(relative)
      ? [{ message: `binary content in a ${extension} file (a NUL byte); it cannot be read as text`, line: 1, column: 1 }]
      : [];
    return { kind: 'binary', path: relative, bytes, problems };
  }
  let text: string;
  try {
    // ignoreBOM keeps a byte order mark in the text, so that what is removed below is known exactly.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'binary', path: relative, bytes, problems: [{ message: 'not valid UTF-8 text', line: 1, column: 1 }] };
  }
  const bom = text.charCodeAt(0) === 0xfeff;
  if (bom) text = text.slice(1);
  const lines = new LineIndex(text);
  // A text file's bytes are its text encoded again (valid UTF-8 round-trips exactly), so the model
  // keeps one copy of the content, not two; the digest and the release read them when they need to.
  const base: TextBase = {
    path: relative,
    text,
    lines,
    problems: [],
    get bytes(): Buffer {
      return Buffer.from(bom ? `\uFEFF${text}` : text, 'utf8');
    },
  };

  if (extension === '.md') {
    const model = indexMarkdown(cachedTree(text, cache));
    const { regions, problems: regionProblems } = findRegions(text, model.htmlNodes);
    return withText(base, { kind: 'markdown', ...model, regions, regionProblems });
  }
  if (extension === '.json' || extension === '.yaml' || extension === '.yml') {
    return withText(base, dataFile(extension === '.json' ? 'json' : 'yaml', text, cache));
  }
  return withText(base, { kind: 'text' as const });
}

/** A file of the model: what every text file has, and what its kind adds (getters kept as getters). */
function withText<T extends object>(base: TextBase, own: T): TextBase & T {
  return Object.defineProperties(Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)), Object.getOwnPropertyDescriptors(own)) as TextBase & T;
}

/** Caches live under the root's node_modules/.cache, as other tools' do; a root without node_modules runs uncached. */
function cacheDirectory(root: string): string | undefined {
  return existsSync(path.join(root, 'node_modules')) ? path.join(root, 'node_modules', '.cache', 'openwop-spec') : undefined;
}

function cachedTree(text: string, cache: ContentCache | undefined): ParsedMarkdown {
  if (!cache) return parseMarkdownTree(text);
  const key = ContentCache.key('md', text);
  const hit = cache.get<ParsedMarkdown>(key);
  if (hit) return hit;
  const tree = parseMarkdownTree(text);
  cache.set(key, tree);
  return tree;
}

/**
 * A JSON or YAML file. Its value and problems come from the parse cache or, for JSON, from
 * JSON.parse; the positioned document is parsed only if a gate asks where something is (usually:
 * never). A YAML file has no positionless parser, so a cache miss parses it with positions at once.
 */
function dataFile(kind: 'json' | 'yaml', text: string, cache: ContentCache | undefined): Omit<DataFile, keyof TextBase> & { problems: ParseProblem[] } {
  const key = cache ? ContentCache.key(kind, text) : '';
  let found = cache?.get<{ value: unknown; problems: ParseProblem[] }>(key);
  if (!found) {
    // A YAML file has no positionless parser; its positioned document is let go all the same, as
    // it takes several times the memory of the value and a clean run never asks for a position.
    found = kind === 'json' ? parseJsonValue(text) : valueOf(parseYamlText(text));
    if (cache && isPlainJson(found.value)) cache.set(key, found);
  }
  const { value, problems } = found;
  let parsed: ParsedData | undefined;
  const positioned = (): ParsedData => (parsed ??= kind === 'json' ? parseJsonText(text) : parseYamlText(text));
  return {
    kind,
    problems,
    value,
    get doc() {
      return problems.length > 0 ? undefined : positioned().doc;
    },
    get lineCounter() {
      return positioned().lineCounter;
    },
  };
}

function valueOf(parsed: ParsedData): { value: unknown; problems: ParseProblem[] } {
  return { value: parsed.value, problems: parsed.problems };
}

/** Whether a value survives a JSON round trip unchanged (YAML can hold .inf, dates, and the like). */
function isPlainJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isPlainJson);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return Object.values(value as object).every(isPlainJson);
  return false;
}

function looksBinary(bytes: Buffer): boolean {
  const limit = Math.min(bytes.length, 8000);
  for (let i = 0; i < limit; i++) if (bytes[i] === 0) return true;
  return false;
}
