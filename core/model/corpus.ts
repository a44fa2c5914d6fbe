/**
 * The corpus model: every file of the corpus read once, parsed once, indexed once.
 * Gates and generators read this model; none of them touches the file system.
 */
import { existsSync, lstatSync, realpathSync, rmSync, statSync } from 'node:fs';
import { directoryStaysInside, existsInside, expandGlob, isInsideBySpelling, readRegularFile, ReadRefused } from '../fs/index.js';
import path from 'node:path';
import type { LineCounter, Document } from 'yaml';
import { globSync } from 'glob';
import { defaultConfig, type Config } from '../config/index.js';
import { findRegions, type GeneratedRegion, type RegionProblem } from './regions.js';
import type { Root } from 'mdast';
import { indexMarkdown, parseMarkdownTree, type MarkdownModel, type ParsedMarkdown } from '../markdown/index.js';
import { ContentCache } from '../cache/index.js';
import { LineIndex } from './positions.js';
import { textStyleOf, type TextStyle } from '../output/index.js';
import { MAX_NESTING, parseJsonText, parseJsonValue, parseYamlText, parseYamlValue, type ParsedData, type ParseProblem } from './structured.js';

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
  /** The text with CRLF line ends read as LF (so no gate sees a stray `\r`) and no byte order mark; `bytes` keeps the file as written. */
  text: string;
  lines: LineIndex;
  /** How the file is written, so that a rewrite keeps it so: CRLF line ends, a byte order mark. */
  style: TextStyle;
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
    // Through the root's guard: a path that leaves the root, or a link out, is not the corpus's.
    return existsInside(this.root, normal);
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
  const listed = listCorpusFiles(absolute, config);
  const irregular = [...listed.irregular];
  const irregularKinds = new Map<string, string>(irregular.map((entry) => [entry, irregularKind(absolute, entry)]));
  // A directory the globs entered through a symbolic link may lie outside the root: its files are not read.
  const outside = filesOutside(absolute, listed.paths);
  const paths = listed.paths.filter((file) => !outside.has(file));
  irregular.push(...outside.keys());

  const cacheDir = cacheDirectory(absolute);
  // --no-cache reads nothing from the cache and throws it away, so that a bad entry cannot outlive the run that was told to ignore it.
  if (options.cache === false && cacheDir) {
    try {
      rmSync(cacheDir, { recursive: true, force: true });
    } catch {
      // Another run on this root is writing into it (ENOTEMPTY); this run reads nothing from it, so that is no error.
    }
  }
  const usedCache = options.cache === false ? undefined : cacheDir;
  const cache = usedCache ? ContentCache.open(usedCache) : undefined;
  const files = new Map<string, CorpusFile>();
  for (const relative of paths) {
    const read = readCorpusFile(absolute, relative);
    if ('irregular' in read) {
      irregular.push(relative);
      irregularKinds.set(relative, read.irregular);
    } else files.set(relative, 'problem' in read ? { kind: 'binary', path: relative, bytes: Buffer.alloc(0), problems: [read.problem] } : parseFile(relative, read.bytes, cache));
  }
  for (const [relative, kind] of outside) irregularKinds.set(relative, kind);
  cache?.save();
  irregular.sort(byCodeUnit);
  return new Corpus(absolute, files, usedCache, config, [...new Set(irregular)], irregularKinds);
}

/** What an entry that is not a regular file is, in words. */
function irregularKind(root: string, relative: string): string {
  try {
    const stat = lstatSync(path.join(root, relative));
    if (stat.isSymbolicLink()) return 'a symbolic link';
    if (stat.isFIFO()) return 'a named pipe';
    if (stat.isSocket()) return 'a socket';
    if (stat.isBlockDevice() || stat.isCharacterDevice()) return 'a device';
  } catch {
    // Gone since it was listed.
  }
  return 'not a regular file';
}

/** A corpus file may be this large; past it, the file is one finding and is not read. */
export const MAX_FILE_BYTES = 32 * 2 ** 20;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One file's bytes, opened without following a symbolic link (one swapped in after the listing is
 * refused, not read) and held to the size bound before it is read.
 */
function readCorpusFile(root: string, relative: string): { bytes: Buffer } | { problem: ParseProblem } | { irregular: string } {
  try {
    return { bytes: readRegularFile(path.join(root, relative), MAX_FILE_BYTES) };
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    if (error.code === 'ELINK') return { irregular: 'a symbolic link' };
    if (error.code === 'EIRREGULAR') return { irregular: 'not a regular file' };
    if (error.code === 'ETOOBIG') {
      const size = statSync(path.join(root, relative)).size;
      return { problem: { message: `is ${(size / 2 ** 20).toFixed(1)} MiB, past the ${MAX_FILE_BYTES / 2 ** 20} MiB a corpus file may be; it is not read`, line: 1, column: 1 } };
    }
    return { problem: { message: `cannot be read (${error.code}); it is left out of every other gate`, line: 1, column: 1 } };
  }
}

/**
 * The files the config's globs select, sorted by code unit so that every platform and locale
 * lists them alike. Dotfiles and node_modules are never the corpus; symbolic links are not
 * followed, and entries that are not regular files are returned apart.
 */
function filesOutside(root: string, paths: readonly string[]): Map<string, string> {
  const outside = new Map<string, string>();
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    return outside;
  }
  const verdict = new Map<string, boolean>();
  for (const file of paths) {
    const directory = path.posix.dirname(file);
    if (directory === '.') continue;
    let inside = verdict.get(directory);
    if (inside === undefined) {
      try {
        const real = realpathSync(path.join(root, directory));
        inside = real === realRoot || real.startsWith(realRoot + path.sep);
      } catch {
        inside = false;
      }
      verdict.set(directory, inside);
    }
    if (!inside) outside.set(file, 'reached through a symbolic link that leads out of the root');
  }
  return outside;
}

export function listCorpusFiles(root: string, config: Config): { paths: string[]; irregular: string[] } {
  let found;
  try {
    // Braces are expanded before the root test: `{..,docs}/**` is `../**` and `docs/**`, and only
    // patterns inside the root are walked (the config loader refuses the others with one line).
    const patterns = config.include.flatMap(expandGlob).filter(isInsideBySpelling);
    found = globSync(patterns, {
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
    if (!isInsideBySpelling(relative)) continue;
    (entry.isFile() ? paths : irregular).push(relative);
  }
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
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const problems = TEXT_EXTENSIONS.test(relative)
      ? [{ message: utf16 ? `a ${extension} file in UTF-16 (its byte order mark says so); save it as UTF-8` : `binary content in a ${extension} file (a NUL byte); it cannot be read as text`, line: 1, column: 1 }]
      : [];
    return { kind: 'binary', path: relative, bytes, problems };
  }
  let text: string;
  try {
    // ignoreBOM keeps a byte order mark in the text, so that what is removed below is known exactly.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'binary', path: relative, bytes, problems: [{ message: 'not valid UTF-8 text: the byte here cannot start or continue a UTF-8 character; save the file as UTF-8', ...invalidUtf8At(bytes), kind: 'encoding' }] };
  }
  const style = textStyleOf(text);
  if (style.bom) text = text.slice(1);
  const crlf = text.includes('\r\n');
  if (crlf) text = text.replace(/\r\n/g, '\n');
  const lines = new LineIndex(text);
  // A text file's bytes are its text encoded again (valid UTF-8 round-trips exactly), so the model
  // keeps one copy of the content, not two; a file whose line ends the model rewrote keeps its bytes.
  const kept = crlf ? bytes : undefined;
  const base: TextBase = {
    path: relative,
    text,
    lines,
    style,
    problems: [],
    get bytes(): Buffer {
      return kept ?? Buffer.from(style.bom ? `\uFEFF${text}` : text, 'utf8');
    },
  };

  if (extension === '.md') {
    try {
      const model = indexMarkdown(cachedTree(text, cache));
      const { regions, problems: regionProblems } = findRegions(text, model.htmlNodes);
      return withText(base, { kind: 'markdown', ...model, regions, regionProblems });
    } catch (error) {
      // A document the markdown layer cannot take (nesting that exhausts its stack) is a finding at
      // that file; read as plain text, it stays out of every markdown gate and the run goes on.
      const message = error instanceof RangeError ? 'nested too deeply to be parsed as markdown (block quotes or lists thousands of levels deep)' : `cannot be parsed as markdown: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      return withText({ ...base, problems: [{ message, line: 1, column: 1 }] }, { kind: 'text' as const });
    }
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

/**
 * Caches live under the root's node_modules/.cache, as other tools' do; a root without node_modules
 * runs uncached. A cache whose directory (node_modules, .cache or its own) is a link that leads out
 * of the root is not used: a run writes there and removes what it does not use.
 */
function cacheDirectory(root: string): string | undefined {
  if (!existsSync(path.join(root, 'node_modules'))) return undefined;
  const relative = path.join('node_modules', '.cache', 'openwop-spec');
  return directoryStaysInside(root, relative) ? path.join(root, relative) : undefined;
}

function cachedTree(text: string, cache: ContentCache | undefined): ParsedMarkdown {
  if (!cache) return parseMarkdownTree(text);
  const key = ContentCache.key('md', text);
  const hit = cache.get(key, isParsedMarkdown);
  if (hit) return hit;
  const tree = parseMarkdownTree(text);
  cache.set(key, tree);
  return tree;
}

/**
 * A JSON or YAML file. A JSON file's value comes from JSON.parse, which is native and as fast as
 * reading a cached copy, so JSON is never cached; a YAML file's value and problems come from the
 * parse cache, or on a miss from parseYamlValue (js-yaml for a plain document, else yaml's own
 * parse). The positioned document is parsed only if a gate asks where something is (usually: never).
 */
function dataFile(kind: 'json' | 'yaml', text: string, cache: ContentCache | undefined): Omit<DataFile, keyof TextBase> & { problems: ParseProblem[] } {
  // `yaml2`: entries whose problems carry their kind (ParseProblem.kind); older ones are not read.
  const key = cache && kind === 'yaml' ? ContentCache.key('yaml2', text) : '';
  let found = key ? cache?.get(key, isParseEntry) : undefined;
  if (!found) {
    found = kind === 'json' ? parseJsonValue(text) : parseYamlValue(text);
    if (key && isPlainJson(found.value)) cache?.set(key, found);
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

/** A parse entry as the loader writes it: a value no deeper than the loader admits, and located problems (then no value). */
function isParseEntry(entry: unknown): entry is { value: unknown; problems: ParseProblem[] } {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return false;
  const { value, problems } = entry as { value?: unknown; problems?: unknown };
  if (!Array.isArray(problems) || !problems.every(isProblem)) return false;
  if (problems.length > 0) return value === undefined;
  return 'value' in entry && isPlainJson(value);
}

function isProblem(problem: unknown): problem is ParseProblem {
  if (typeof problem !== 'object' || problem === null) return false;
  const { message, line, column } = problem as Record<string, unknown>;
  return typeof message === 'string' && Number.isInteger(line) && (line as number) >= 1 && Number.isInteger(column) && (column as number) >= 1;
}

/** A parse result as the markdown layer returns it: a tree and located problems. */
function isParsedMarkdown(value: unknown): value is ParsedMarkdown {
  if (typeof value !== 'object' || value === null) return false;
  const { tree, problems } = value as { tree?: unknown; problems?: unknown };
  return Array.isArray(problems) && problems.every(isProblem) && isMarkdownTree(tree);
}

/** An mdast root as the markdown parser builds it: typed nodes with positions, all the way down (checked without recursion). */
function isMarkdownTree(tree: unknown): tree is Root {
  if (typeof tree !== 'object' || tree === null || (tree as { type?: unknown }).type !== 'root') return false;
  const stack: unknown[] = [tree];
  while (stack.length > 0) {
    const node = stack.pop() as Record<string, unknown>;
    if (typeof node !== 'object' || node === null || Array.isArray(node) || typeof node.type !== 'string') return false;
    const position = node.position as { start?: Record<string, unknown>; end?: Record<string, unknown> } | undefined;
    if (position !== undefined && !(isPoint(position?.start) && isPoint(position?.end))) return false;
    if ('value' in node && typeof node.value !== 'string') return false;
    if ('children' in node) {
      if (!Array.isArray(node.children)) return false;
      for (const child of node.children) stack.push(child);
    }
  }
  return true;
}

function isPoint(point: Record<string, unknown> | undefined): boolean {
  return point !== undefined && Number.isInteger(point.line) && Number.isInteger(point.column) && Number.isInteger(point.offset);
}

/** Whether a value survives a JSON round trip unchanged (YAML can hold .inf, dates, and the like) and nests no deeper than the loader admits; iterative. */
function isPlainJson(value: unknown): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (node === null || typeof node === 'string' || typeof node === 'boolean') continue;
    if (typeof node === 'number') {
      if (!Number.isFinite(node)) return false;
      continue;
    }
    if (typeof node !== 'object' || depth >= MAX_NESTING) return false;
    if (Array.isArray(node)) {
      for (const item of node) stack.push([item, depth + 1]);
    } else {
      if (Object.getPrototypeOf(node) !== Object.prototype) return false;
      for (const item of Object.values(node)) stack.push([item, depth + 1]);
    }
  }
  return true;
}

/** The line and column (in characters of the valid text before it) of the first byte that is not UTF-8. */
function invalidUtf8At(bytes: Buffer): { line: number; column: number } {
  let line = 1;
  let column = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const length = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) break;
    let valid = true;
    for (let k = 1; k < length; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) valid = false;
    const second = bytes[i + 1] as number;
    if (length === 3 && ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f))) valid = false;
    if (length === 4 && ((b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f))) valid = false;
    if (!valid) break;
    if (b === 10) {
      line++;
      column = 1;
    } else column += length === 4 ? 2 : 1;
    i += length;
  }
  return { line, column };
}

function looksBinary(bytes: Buffer): boolean {
  const limit = Math.min(bytes.length, 8000);
  for (let i = 0; i < limit; i++) if (bytes[i] === 0) return true;
  return false;
}
