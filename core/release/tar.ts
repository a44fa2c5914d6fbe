/**
 * Reads the tarballs `npm pack` and `git archive` write, gzipped or not, into memory with
 * node-tar's parser. Nothing is extracted to disk, so a hostile entry name cannot write outside
 * anything; the parser runs synchronously when given the whole archive at once.
 */
import { Parser, type ReadEntry } from 'tar';

export class TarError extends Error {}

export interface TarEntry {
  path: string;
  type: 'file' | 'directory' | 'link' | 'other';
  mode: number;
  data: Buffer;
}

export function readTar(input: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let failure: string | undefined;
  const parser = new Parser({
    strict: true,
    onReadEntry(entry: ReadEntry) {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => entries.push({ path: entry.path, type: kind(entry.type), mode: entry.mode ?? 0, data: Buffer.concat(chunks) }));
    },
  });
  parser.on('error', (error: Error) => {
    failure ??= error.message;
  });
  parser.end(input);
  if (failure !== undefined) throw new TarError(`not a readable tar archive: ${failure}`);
  if (entries.length === 0 && input.length > 0) throw new TarError('not a readable tar archive: it holds no entries');
  return entries;
}

function kind(type: string): TarEntry['type'] {
  if (type === 'File' || type === 'OldFile' || type === 'ContiguousFile') return 'file';
  if (type === 'Directory') return 'directory';
  if (type === 'Link' || type === 'SymbolicLink') return 'link';
  return 'other';
}
