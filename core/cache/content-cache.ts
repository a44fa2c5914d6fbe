/**
 * A content-addressed cache of results worked out from file text: parse results (markdown trees,
 * JSON/YAML values), so an author's second run skips the parsers for every file that did not
 * change, and whether a batch of schemas compiles. It lives under the corpus root's
 * node_modules/.cache, is keyed by the SHA-1 of the content and by a stamp of what produced the
 * results (the parsers' versions, ajv's), and never changes what a run reports: a miss just works
 * the result out again.
 *
 * What it trusts: nothing it reads is run as code, and an entry is used only when it says it is
 * the result for exactly the content in hand (it carries its own key, a SHA-256 of that content
 * and its length, compared before use: an entry copied under another file's key is a miss) and has
 * the shape its reader expects (each `get` brings a check). Anything else is a miss, and the
 * result worked out afresh replaces the entry. Someone who can write the cache directory can still
 * forge an entry; the directory is as trusted as the checkout it sits in.
 *
 * Each entry is a file of its own, read when it is asked for: a large corpus's cache is hundreds of
 * megabytes, and one file holding it all would be read, and held, whole by every run.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { directoryStaysInside, readRegularFile } from '../fs/index.js';
import { MARKDOWN_TREE_VERSION } from '../markdown/index.js';
import { isAbandonedTemporary, writeFileAtomic } from '../output/index.js';

const FORMAT = 3;
const MAX_ENTRY_BYTES = 512 * 2 ** 20;

export class ContentCache {
  private readonly used = new Set<string>();
  private readonly added = new Map<string, unknown>();

  private constructor(
    private readonly parent: string,
    private readonly name: string,
    /** The entries' directory: the name and a digest of the stamp, so a new parser starts afresh. */
    private readonly directory: string,
  ) {}

  /**
   * The parse cache kept in `directory`. Another kind of result keyed by content (whether a set of
   * schemas compiles, say) can be kept the same way under its own `name`, with a `stamp` naming
   * everything besides the content that the results depend on.
   */
  static open(directory: string, name = 'parse', stamp = parserStamp()): ContentCache {
    const digest = createHash('sha1').update(`format ${FORMAT}; ${stamp}`).digest('hex').slice(0, 16);
    return new ContentCache(directory, name, path.join(directory, `${name}-${digest}`));
  }

  /** The key of a result worked out from `text`: the kind, a SHA-256 of the text and its length. */
  static key(kind: string, text: string): string {
    return `${kind}-${createHash('sha256').update(text).digest('hex')}-${text.length}`;
  }

  /**
   * The entry under `key`, when it is one: written for this very key and of the shape `accept`
   * checks. An entry that is neither is a miss (and replaced when the caller sets the fresh result).
   */
  get<T>(key: string, accept: (value: unknown) => value is T): T | undefined {
    const added = this.added.get(key);
    if (added !== undefined) return added as T;
    let entry: unknown;
    try {
      if (!this.inside()) return undefined;
      // An entry far larger than any result the tool writes is not read into memory at all; an
      // entry that is a link is not followed.
      entry = JSON.parse(readRegularFile(this.file(key), MAX_ENTRY_BYTES).toString('utf8'));
    } catch {
      // Absent, unreadable or not JSON: a miss.
      return undefined;
    }
    if (typeof entry !== 'object' || entry === null || (entry as { for?: unknown }).for !== key || !('value' in entry))
      return undefined;
    const value = entry.value;
    if (!accept(value)) return undefined;
    this.used.add(this.entryName(key));
    return value;
  }

  set(key: string, value: unknown): void {
    this.added.set(key, value);
    this.used.add(this.entryName(key));
  }

  /** Writes what this run added and removes what it did not use, so the cache never outgrows the corpus. */
  save(): void {
    // Entries go nowhere when their directory is a link that leads out of the cache: a run would
    // write there and remove what it did not use.
    if (!this.inside()) return;
    try {
      for (const [key, value] of this.added) writeFileAtomic(this.file(key), JSON.stringify({ for: key, value }));
      this.added.clear();
      for (const entry of readdirSync(this.directory)) {
        const unused = entry.endsWith('.json') && !this.used.has(entry.slice(0, -'.json'.length));
        if (unused || isAbandonedTemporary(entry)) rmSync(path.join(this.directory, entry), { force: true });
      }
      // Entries of another stamp (an older parser), or in the one-file layout of earlier versions, are never read again.
      for (const entry of readdirSync(this.parent)) {
        const stale =
          (entry.startsWith(`${this.name}-`) && path.join(this.parent, entry) !== this.directory) ||
          entry === `${this.name}.json`;
        if (stale) rmSync(path.join(this.parent, entry), { recursive: true, force: true });
      }
    } catch {
      // A read-only checkout runs uncached; that is not an error.
    }
  }

  private insideAnswer: boolean | undefined;

  /** Whether the entries' directory (made or not yet) lies inside the cache directory through every link. */
  private inside(): boolean {
    this.insideAnswer ??= directoryStaysInside(this.parent, path.basename(this.directory));
    return this.insideAnswer;
  }

  /** A key is a kind and a digest; anything else (a caller's own key) is hashed, so it can never name a path. */
  private entryName(key: string): string {
    return /^[a-z0-9][a-z0-9-]*$/i.test(key) && key.length < 200 ? key : createHash('sha256').update(key).digest('hex');
  }

  private file(key: string): string {
    return path.join(this.directory, `${this.entryName(key)}.json`);
  }
}

// A resolver, not import.meta.resolve: the command line also runs as one CommonJS script (scripts/script-bundle.ts).
const requireHere = createRequire(import.meta.url);

function parserStamp(): string {
  // The parsers' manifests are not exported, so resolve each package's entry and read the manifest beside it.
  const versions = ['yaml', '@lezer/markdown', '@lezer/common'].map((name) => {
    try {
      const entry = requireHere.resolve(name);
      const manifest = path.join(
        entry.slice(0, entry.lastIndexOf(`${path.sep}node_modules${path.sep}${name}${path.sep}`)),
        'node_modules',
        name,
        'package.json',
      );
      return `${name}@${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
    } catch {
      return `${name}@?`;
    }
  });
  return `node ${process.versions.node}; ${versions.join(', ')}; ${MARKDOWN_TREE_VERSION}`;
}
