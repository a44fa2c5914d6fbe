/**
 * The command line as one script, compiled from the V8 code cache the build made beside it.
 *
 * A short run spends a large share of its time compiling the tool's own code (a warm check of this
 * repository compiles some three megabytes of JavaScript, most of it once per process). The build
 * (build/code-cache.mjs) runs a check with the script once and keeps what V8 compiled, so that a
 * later run on the same Node.js deserialises that code instead of compiling it again.
 *
 * What it trusts: the cache is part of the tool, like the script itself. It is read from the tool's
 * own directory and is never written while the tool runs (so no corpus, and nothing a corpus can
 * plant, is ever run as compiled code). It is used only for the exact bytes it was made from: its
 * header is their SHA-256, so a script rebuilt without its cache compiles as usual. V8 rejects a
 * cache made by another Node.js or under other flags, and the script then compiles as usual too.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';

/** The script esbuild writes (build/bundle.mjs): the command line wrapped as one CommonJS function. */
const SCRIPT_FILE = 'main-script.cjs';
/**
 * The code cache build/code-cache.mjs writes beside it: a header of two lines, the script's
 * SHA-256 in hex and the Node.js version that made the cache, then V8's data.
 */
export const CODE_CACHE_FILE = 'main-script.cache';

/**
 * V8's flags for a run of the command line, set before any of its code is compiled. The build sets
 * the same ones before it makes the code cache: V8 takes a cache only under the flags it was made with.
 */
export function setRunFlags(): void {
  // The run holds the whole corpus model for its length, and little else lives long; by default V8
  // lets the heap grow to four times what survives a collection before it collects again, which on
  // a large corpus is gigabytes of garbage. Half again as much keeps the peak near the model's size
  // (a x100 corpus: 2.5 GiB down to about 1) for a few per cent more time collecting.
  v8.setFlagsFromString('--heap-growing-percent=50');
}

type Main = (args: string[]) => Promise<void>;
type ModuleWrapper = (
  exports: object,
  require: NodeJS.Require,
  module: { exports: object },
  filename: string,
  dirname: string,
) => void;

export interface ScriptBundle {
  readonly main: Main;
  /** Whether V8 took the code cache (false: none, another script's, or rejected). */
  readonly cacheUsed: boolean;
  /** The code cache of everything compiled so far, headed by the script's digest (for the build). */
  codeCache(): Buffer;
}

/**
 * The command line bundled in `directory`, or undefined when there is none there (the sources or
 * tsc's output run unbundled) or it is not a script of the command line: the ES modules then serve.
 * `useCache: false` compiles from the script alone, as the build does.
 */
export function loadScriptBundle(directory: string, { useCache = true } = {}): ScriptBundle | undefined {
  const file = path.join(directory, SCRIPT_FILE);
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return undefined;
  }
  const digest = createHash('sha256').update(bytes).digest('hex');
  const cachedData = useCache ? cacheFor(digest, path.join(directory, CODE_CACHE_FILE)) : undefined;
  // The script holds no import(): its external packages are required (build/bundle.mjs).
  let script: vm.Script;
  let wrapper: unknown;
  try {
    script = new vm.Script(bytes.toString('utf8'), { filename: file, cachedData });
    wrapper = script.runInThisContext();
  } catch {
    // A script that does not compile (a copy cut short) has run nothing: the ES modules serve.
    return undefined;
  }
  if (typeof wrapper !== 'function') return undefined;
  const module = { exports: {} as { main?: unknown } };
  (wrapper as ModuleWrapper)(module.exports, createRequire(file), module, file, directory);
  const main = module.exports.main;
  if (typeof main !== 'function') return undefined;
  return {
    main: main as Main,
    cacheUsed: cachedData !== undefined && !script.cachedDataRejected,
    codeCache: () => Buffer.concat([Buffer.from(cacheHeader(digest), 'latin1'), script.createCachedData()]),
  };
}

function cacheHeader(digest: string): string {
  return `${digest}\n${process.version}\n`;
}

/** V8's data from the cache file, when it was made from the script in hand by this Node.js. */
function cacheFor(digest: string, file: string): Buffer | undefined {
  let cache: Buffer;
  try {
    cache = readFileSync(file);
  } catch {
    return undefined;
  }
  const header = cacheHeader(digest);
  if (cache.length <= header.length || cache.toString('latin1', 0, header.length) !== header) return undefined;
  return cache.subarray(header.length);
}
