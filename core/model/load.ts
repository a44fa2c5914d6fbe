/**
 * Reading a corpus root: the files the config's globs select, each opened without following a
 * link and held to the size bound, parsed once (parse-file.ts), with the parse cache of the root.
 */
import { existsSync, lstatSync, realpathSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { globSync } from 'glob';
import { directoryStaysInside, expandGlob, isInsideBySpelling, readRegularFile, ReadRefused } from '../fs/index.js';
import { defaultConfig, type Config } from '../config/index.js';
import { ContentCache } from '../cache/index.js';
import { Corpus, CorpusError, type CorpusFile } from './corpus.js';
import { parseFile } from './parse-file.js';
import type { ParseProblem } from './structured.js';

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
    } else
      files.set(
        relative,
        'problem' in read
          ? { kind: 'binary', path: relative, bytes: Buffer.alloc(0), problems: [read.problem] }
          : parseFile(relative, read.bytes, cache),
      );
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
const MAX_FILE_BYTES = 32 * 2 ** 20;

const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * One file's bytes, opened without following a symbolic link (one swapped in after the listing is
 * refused, not read) and held to the size bound before it is read.
 */
function readCorpusFile(
  root: string,
  relative: string,
): { bytes: Buffer } | { problem: ParseProblem } | { irregular: string } {
  try {
    return { bytes: readRegularFile(path.join(root, relative), MAX_FILE_BYTES) };
  } catch (error) {
    if (!(error instanceof ReadRefused)) throw error;
    if (error.code === 'ELINK') return { irregular: 'a symbolic link' };
    if (error.code === 'EIRREGULAR') return { irregular: 'not a regular file' };
    if (error.code === 'ETOOBIG') {
      const size = statSync(path.join(root, relative)).size;
      return {
        problem: {
          message: `is ${(size / 2 ** 20).toFixed(1)} MiB, past the ${MAX_FILE_BYTES / 2 ** 20} MiB a corpus file may be; it is not read`,
          line: 1,
          column: 1,
        },
      };
    }
    return {
      problem: { message: `cannot be read (${error.code}); it is left out of every other gate`, line: 1, column: 1 },
    };
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
    throw new CorpusError(
      `cannot list the corpus under ${root}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
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
