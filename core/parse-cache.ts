/**
 * A content-addressed cache of parse results (markdown trees, JSON/YAML values), so an author's
 * second run skips the parsers for every file that did not change. It lives under the corpus
 * root's node_modules/.cache, is keyed by the SHA-1 of each file's text and by the versions of the
 * parsers that produced it, and never changes what a run reports: a miss just parses.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './write.js';

const FORMAT = 1;

export class ParseCache {
  private readonly used = new Map<string, unknown>();
  private changed = false;

  private constructor(
    private readonly file: string,
    private readonly stamp: string,
    private readonly entries: Record<string, unknown>,
  ) {}

  /**
   * The parse cache kept in `directory`. Another kind of result keyed by content (whether a set of
   * schemas compiles, say) can be kept the same way under its own `name`, with a `stamp` naming
   * everything besides the content that the results depend on.
   */
  static open(directory: string, name = 'parse', stamp = parserStamp()): ParseCache {
    const file = path.join(directory, `${name}.json`);
    let entries: Record<string, unknown> = {};
    try {
      const stored = JSON.parse(readFileSync(file, 'utf8')) as { stamp?: string; entries?: Record<string, unknown> };
      if (stored.stamp === stamp && stored.entries && typeof stored.entries === 'object') entries = stored.entries;
    } catch {
      // No cache yet, or an unreadable one: start empty.
    }
    return new ParseCache(file, stamp, entries);
  }

  static key(kind: string, text: string): string {
    return `${kind}:${createHash('sha1').update(text).digest('hex')}`;
  }

  get<T>(key: string): T | undefined {
    const value = this.entries[key];
    if (value === undefined) return undefined;
    this.used.set(key, value);
    return value as T;
  }

  set(key: string, value: unknown): void {
    this.used.set(key, value);
    this.changed = true;
  }

  /** Keeps exactly the entries this run used, so the cache never outgrows the corpus. */
  save(): void {
    if (!this.changed && this.used.size === Object.keys(this.entries).length) return;
    const entries = Object.fromEntries([...this.used].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    try {
      writeFileAtomic(this.file, JSON.stringify({ stamp: this.stamp, entries }));
    } catch {
      // A read-only checkout runs uncached; that is not an error.
    }
  }
}

function parserStamp(): string {
  // The parsers' manifests are not exported, so resolve each package's entry and read the manifest beside it.
  const versions = ['yaml', 'micromark', 'remark-parse', 'remark-gfm', 'mdast-util-from-markdown'].map((name) => {
    try {
      const entry = fileURLToPath(import.meta.resolve(name));
      const manifest = path.join(entry.slice(0, entry.lastIndexOf(`${path.sep}node_modules${path.sep}${name}${path.sep}`)), 'node_modules', name, 'package.json');
      return `${name}@${(JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version}`;
    } catch {
      return `${name}@?`;
    }
  });
  return `format ${FORMAT}; node ${process.versions.node}; ${versions.join(', ')}`;
}
