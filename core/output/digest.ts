/**
 * Hashes and the canonical form they are taken over. A digest names bytes: a file's hash is over
 * its raw bytes, a record's digest over the RFC 8785 (JCS) serialization of the record, so two
 * tools that agree on the record agree on the digest whatever key order or number spelling
 * their JSON writers use.
 */
import { createHash } from 'node:crypto';
import { closeSync, readSync } from 'node:fs';
import { openRegularFile } from '../fs/index.js';
import canonicalize from 'canonicalize';

export const CANONICALIZATION = 'RFC 8785';

/** Lower-case hex SHA-256 of the bytes (a string is hashed as its UTF-8 encoding). */
export function sha256Hex(content: string | Uint8Array): string {
  return createHash('sha256').update(content).digest('hex');
}

/** sha256Hex of a file's bytes, read a block at a time, so a large file never sits in memory whole. */
export function sha256FileHex(file: string): string {
  const hash = createHash('sha256');
  const block = Buffer.alloc(1 << 16);
  // A file the caller has judged: no link followed in its last component, a regular file.
  const { fd } = openRegularFile(file);
  try {
    for (let read = readSync(fd, block); read > 0; read = readSync(fd, block)) hash.update(block.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/**
 * The JCS form of a JSON value: keys sorted by UTF-16 code units, numbers in their shortest
 * ECMAScript form, strings escaped as JSON.stringify does. Throws on what JSON cannot carry
 * (NaN, Infinity, lone surrogates, cycles, undefined at the top).
 */
export function jcs(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('a value JSON cannot represent has no canonical form');
  return text;
}

/** `sha256:<hex>` over the JCS form of a value. */
export function jcsDigest(value: unknown): string {
  return `sha256:${sha256Hex(jcs(value))}`;
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
export const SHA256_DIGEST = /^sha256:[0-9a-f]{64}$/;
