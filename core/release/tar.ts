/**
 * A reader for the tarballs `npm pack` and `git archive` write (ustar, with pax and GNU long
 * names), gzipped or not. Reads into memory; never extracts to disk, so a hostile entry name
 * cannot write outside anything.
 */
import { gunzipSync } from 'node:zlib';

export class TarError extends Error {}

export interface TarEntry {
  path: string;
  type: 'file' | 'directory' | 'link' | 'other';
  mode: number;
  data: Buffer;
}

const BLOCK = 512;

export function readTar(input: Buffer): TarEntry[] {
  const bytes = isGzip(input) ? gunzip(input) : input;
  if (bytes.length === 0 || bytes.length % BLOCK !== 0) throw new TarError('not a tar archive (its length is not a whole number of 512-byte blocks)');
  const entries: TarEntry[] = [];
  let offset = 0;
  let longName: string | undefined;
  let paxPath: string | undefined;
  while (offset + BLOCK <= bytes.length) {
    const header = bytes.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    if (!checksumMatches(header)) throw new TarError(`corrupt tar header at byte ${offset}`);
    const size = readSize(header);
    const type = String.fromCharCode(header[156] ?? 0);
    const start = offset + BLOCK;
    if (start + size > bytes.length) throw new TarError(`truncated tar entry at byte ${offset}`);
    const data = bytes.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;

    if (type === 'L') {
      longName = cString(data);
      continue;
    }
    if (type === 'x') {
      paxPath = paxRecords(data).get('path') ?? paxPath;
      continue;
    }
    if (type === 'g') continue;
    const prefix = cString(header.subarray(345, 500));
    const name = cString(header.subarray(0, 100));
    const path = paxPath ?? longName ?? (prefix && isUstar(header) ? `${prefix}/${name}` : name);
    longName = undefined;
    paxPath = undefined;
    entries.push({
      path,
      type: type === '0' || type === '\0' || type === '7' ? 'file' : type === '5' ? 'directory' : type === '1' || type === '2' ? 'link' : 'other',
      mode: parseInt(cString(header.subarray(100, 108)).trim() || '0', 8),
      data: Buffer.from(data),
    });
  }
  return entries;
}

function isGzip(bytes: Buffer): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

function gunzip(bytes: Buffer): Buffer {
  try {
    return gunzipSync(bytes);
  } catch (error) {
    throw new TarError(`not a readable gzip stream: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isUstar(header: Buffer): boolean {
  return header.subarray(257, 262).toString('latin1') === 'ustar';
}

function cString(bytes: Buffer): string {
  const end = bytes.indexOf(0);
  return bytes.subarray(0, end === -1 ? bytes.length : end).toString('utf8');
}

function readSize(header: Buffer): number {
  const field = header.subarray(124, 136);
  if ((field[0] ?? 0) & 0x80) {
    // base-256 (GNU) for sizes past 8 GiB octal: not something a spec package carries.
    throw new TarError('tar entry too large');
  }
  const text = cString(field).trim();
  const size = text === '' ? 0 : parseInt(text, 8);
  if (!Number.isFinite(size) || size < 0) throw new TarError(`bad tar entry size "${text}"`);
  return size;
}

function checksumMatches(header: Buffer): boolean {
  const recorded = parseInt(cString(header.subarray(148, 156)).trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
  return sum === recorded;
}

/** pax extended header records: `<length> <key>=<value>\n`. */
function paxRecords(data: Buffer): Map<string, string> {
  const records = new Map<string, string>();
  let offset = 0;
  while (offset < data.length) {
    const space = data.indexOf(0x20, offset);
    if (space === -1) break;
    const length = parseInt(data.subarray(offset, space).toString('latin1'), 10);
    if (!Number.isFinite(length) || length <= 0) break;
    const record = data.subarray(space + 1, offset + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records.set(record.slice(0, equals), record.slice(equals + 1));
    offset += length;
  }
  return records;
}
