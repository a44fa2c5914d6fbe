/**
 * Reads the tarballs `npm pack` and `git archive` write, gzipped or not, with node-tar's parser.
 * Nothing is extracted to disk, so a hostile entry name cannot write outside anything. A file is
 * fed to the parser a block at a time and each entry is hashed as it streams past; only entries
 * no larger than `keepBytes` are kept in memory, so a small tarball that inflates to gigabytes
 * costs the time to read it, not the memory. node-tar's parser (with its zlib) runs synchronously
 * when written to synchronously, which keeps the callers synchronous.
 */
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { createRequire } from 'node:module';
import { openRegularFile } from '../fs/index.js';
import type { ReadEntry } from 'tar';

type Tar = typeof import('tar');
let loaded: Tar | undefined;
/**
 * node-tar, required when an archive is first read: every run reaches this module (the release
 * gates look for a previous release), and only one that reads an archive pays for loading tar.
 */
function tar(): Tar {
  return (loaded ??= createRequire(import.meta.url)('tar') as Tar);
}

export class TarError extends Error {}

export interface TarEntry {
  path: string;
  type: 'file' | 'directory' | 'link' | 'other';
  /** node-tar's name for the entry type (File, SymbolicLink, Link, CharacterDevice, ...). */
  tarType: string;
  mode: number;
  size: number;
  /** Lower-case hex SHA-256 of the content (of a file; of nothing for other entries). */
  sha256: string;
  /** The content, when it is no larger than `keepBytes`. */
  data: Buffer | undefined;
}

/** A read whole file entry: what small archives (tests, `git archive` of a corpus) are read as. */
export interface KeptTarEntry extends TarEntry {
  data: Buffer;
}

export interface TarReadOptions {
  /** Entries larger than this are hashed, not kept (default: all kept). */
  keepBytes?: number;
}

/** The entries of an archive held in memory, every one kept. */
export function readTar(input: Buffer): KeptTarEntry[] {
  return scanTar((write) => write(input), {}) as KeptTarEntry[];
}

/** The largest release tarball read (a release of the corpus is a few megabytes; this bounds a hostile one). */
const MAX_TARBALL_BYTES = 512 * 1024 * 1024;

/** The entries of an archive file, read a block at a time; the SHA-256 of the file's bytes too. */
export function readTarFile(
  file: string,
  options: TarReadOptions = {},
): { entries: TarEntry[]; sha256: string; bytes: number } {
  const whole = createHash('sha256');
  let bytes = 0;
  const entries = scanTar((write) => {
    const block = Buffer.alloc(1 << 16);
    // A tarball named on the command line: not followed through a link, a regular file, bounded.
    const { fd, size } = openRegularFile(file, MAX_TARBALL_BYTES);
    try {
      for (let read = readSync(fd, block); read > 0 && bytes < size; read = readSync(fd, block)) {
        const chunk = Buffer.from(block.subarray(0, read));
        whole.update(chunk);
        bytes += read;
        if (!write(chunk)) break;
      }
    } finally {
      closeSync(fd);
    }
  }, options);
  return { entries, sha256: whole.digest('hex'), bytes };
}

/**
 * The most a tarball may inflate to, counted by the sizes its headers declare (before a body is
 * inflated): a release is megabytes, and a small file that inflates without end must end the read
 * in seconds, not hours. Above the largest single entry a test or a corpus has (1 GiB).
 */
const MAX_INFLATED_BYTES = 2 * 2 ** 30;

/** The largest extended header (pax, GNU long name) node-tar reads; a larger one is refused, not skipped. */
const MAX_HEADER_BYTES = 2 ** 20;

function scanTar(feed: (write: (chunk: Buffer) => boolean) => void, options: TarReadOptions): TarEntry[] {
  const keep = options.keepBytes ?? Number.POSITIVE_INFINITY;
  const entries: TarEntry[] = [];
  let failure: string | undefined;
  let read = 0;
  let declared = 0;
  const count = (size: number): void => {
    declared += size;
    if (declared > MAX_INFLATED_BYTES)
      failure ??= `it inflates to more than ${MAX_INFLATED_BYTES / 2 ** 30} GiB, far more than a release holds`;
  };
  const parser = new (tar().Parser)({
    strict: true,
    maxMetaEntrySize: MAX_HEADER_BYTES,
    onReadEntry(entry: ReadEntry) {
      const hash = createHash('sha256');
      const size = entry.size ?? 0;
      count(size);
      const chunks: Buffer[] | undefined = size <= keep ? [] : undefined;
      entry.on('data', (chunk: Buffer) => {
        hash.update(chunk);
        chunks?.push(chunk);
      });
      entry.on('end', () =>
        entries.push({
          path: entry.path,
          type: kind(entry.type),
          tarType: entry.type,
          mode: entry.mode ?? 0,
          size,
          sha256: hash.digest('hex'),
          data: chunks ? Buffer.concat(chunks) : undefined,
        }),
      );
    },
  });
  parser.on('ignoredEntry', (entry: ReadEntry) => {
    const size = entry.size ?? 0;
    count(size);
    if (entry.meta && size > MAX_HEADER_BYTES)
      failure ??= `an extended header of ${size} bytes (${entry.type}), more than the ${MAX_HEADER_BYTES} a header may be`;
  });
  parser.on('error', (error: Error) => {
    failure ??= error.message;
  });
  feed((chunk) => {
    read += chunk.length;
    parser.write(chunk);
    return failure === undefined;
  });
  if (failure === undefined) parser.end();
  if (failure !== undefined) throw new TarError(`not a readable tar archive: ${failure}`);
  if (entries.length === 0 && read > 0) throw new TarError('not a readable tar archive: it holds no entries');
  return entries;
}

function kind(type: string): TarEntry['type'] {
  if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile') return 'file';
  if (type === 'Directory') return 'directory';
  if (type === 'Link' || type === 'SymbolicLink') return 'link';
  return 'other';
}
