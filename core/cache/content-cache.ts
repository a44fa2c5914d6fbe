/**
 * A content-addressed cache of results worked out from file text: parse results (markdown trees,
 * JSON/YAML values), so an author's second run skips the parsers for every file that did not
 * change, and whether a batch of schemas compiles. It lives under the corpus root's
 * node_modules/.cache, is keyed by the SHA-1 of the content and by a stamp of what produced the
 * results (the parsers' versions, ajv's), and never changes what a run reports: a miss just works
 * the result out again.
 *
 * Each entry is a file of its own, read when it is asked for: a large corpus's cache is hundreds of
 * megabytes, and one file holding it all would be read, and held, whole by every run.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MARKDOWN_TREE_VERSION } from '../markdown/index.js';
import { writeFileAtomic } from '../output/index.js';

const FORMAT = 2;

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

  static key(kind: string, text: string): string {
    return `${kind}-${createHash('sha1').update(text).digest('hex')}`;
  }

  get<T>(key: string): T | undefined {
    const added = this.added.get(key);
    if (added !== undefined) return added as T;
    try {
      const value = JSON.parse(readFileSync(this.file(key), 'utf8')) as T;
      this.used.add(key);
      return value;
    } catch {
      // Absent, or unreadable: a miss.
      return undefined;
    }
  }

  set(key: string, value: unknown): void {
    this.added.set(key, value);
    this.used.add(key);
  }

  /** Writes what this run added and removes what it did not use, so the cache never outgrows the corpus. */
  save(): void {
    try {
      for (const [key, value] of this.added) writeFileAtomic(this.file(key), JSON.stringify(value));
      this.added.clear();
      for (const entry of readdirSync(this.directory)) {
        if (entry.endsWith('.json') && !this.used.has(entry.slice(0, -'.json'.length))) rmSync(path.join(this.directory, entry), { force: true });
      }
      // Entries of another stamp (an older parser), or in the one-file layout of earlier versions, are never read again.
      for (const entry of readdirSync(this.parent)) {
        const stale = (entry.startsWith(`${this.name}-`) && path.join(this.parent, entry) !== this.directory) || entry === `${this.name}.json`;
        if (stale) rmSync(path.join(this.parent, entry), { recursive: true, force: true });
      }
    } catch {
      // A read-only checkout runs uncached; that is not an error.
    }
  }

  private file(key: string): string {
    return path.join(this.directory, `${key}.json`);
  }
}

function parserStamp(): string {
  // The parsers' manifests are not exported, so resolve each package's entry and read the manifest beside it.
  const versions = ['yaml', '@lezer/markdown', '@lezer/common'].map((name) => {
    try {
      const entry = fileURLToPath(import.meta.resolve(name));
      const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}node_modules${path.sep}${name}${path.sep}`)), 'node_modules', name, 'package.json');
      return `${name}@${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
    } catch {
      return `${name}@?`;
    }
  });
  return `node ${process.versions.node}; ${versions.join(', ')}; ${MARKDOWN_TREE_VERSION}`;
}
