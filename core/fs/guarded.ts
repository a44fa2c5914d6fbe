/**
 * The root is a boundary. Every path the tool reads, writes, renames or deletes on behalf of a
 * corpus (its files, config, suppressions, baseline, cache, journal) is named relative to the root
 * and must stay inside it: lexically (no absolute path, no `..`, globs judged after their braces
 * are expanded) and physically (no directory on the way is a link that leads out, and the last
 * component is opened without following a link). A pull request controls every byte of the
 * checkout, links included; CI runs the tool on it.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { braceExpand } from 'minimatch';

/** A path that would leave the root; `code` is ELINK (through a link) or EOUTSIDE (by its spelling). */
export class OutsideRootError extends Error {
  constructor(
    readonly relative: string,
    readonly code: 'ELINK' | 'EOUTSIDE',
  ) {
    super(
      code === 'ELINK'
        ? `${relative} is reached through a symbolic link that leads out of the root`
        : `${relative} is outside the root`,
    );
    this.name = 'OutsideRootError';
  }
}

/** Whether a root-relative path (either separator) stays inside the root by its spelling alone. */
export function isInsideBySpelling(relative: string): boolean {
  if (relative === '' || path.posix.isAbsolute(relative) || path.win32.isAbsolute(relative)) return false;
  return !relative.split(/[\\/]/).includes('..');
}

/** Whether the real path `real` is `realRoot` or below it. */
export function isBelow(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
}

/**
 * Every pattern a glob stands for once its braces are expanded (`{..,docs}/**` is `../**` and
 * `docs/**`), which is what the root test must judge: the spelling with braces hides `..` and `/`.
 */
export function expandGlob(glob: string): string[] {
  return braceExpand(glob);
}

/** The first expansion of `glob` that leaves the root (absolute, or with a `..` segment), if any. */
export function globEscape(glob: string): string | undefined {
  return expandGlob(glob).find((pattern) => !isInsideBySpelling(pattern));
}

/**
 * Whether the directory `relative` (root-relative, it or its deepest existing ancestor) lies
 * inside the root once every link on the way is followed. A directory not there yet is judged by
 * the ancestor it would be made in.
 */
export function directoryStaysInside(root: string, relative: string): boolean {
  if (relative !== '' && relative !== '.' && !isInsideBySpelling(relative)) return false;
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch (error) {
    // No root, no link under it: what its spelling keeps inside stays inside (a read finds nothing there).
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
  let current = path.resolve(root, relative);
  const top = path.resolve(root);
  for (;;) {
    try {
      return isBelow(realRoot, realpathSync(current));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') return false;
      // A dangling link is not a directory to make things in.
      try {
        if (lstatSync(current).isSymbolicLink()) return false;
      } catch {
        // Not there at all: judge its parent.
      }
    }
    if (current === top) return false;
    current = path.dirname(current);
  }
}

/**
 * The absolute path of `relative` under `root`, for a write, rename or delete: refused when its
 * spelling leaves the root or when its directory is reached through a link that leads out. The
 * last component is not followed by rename or unlink; a reader opens it with `readInside`.
 */
export function guardedPath(root: string, relative: string): string {
  if (!isInsideBySpelling(relative)) throw new OutsideRootError(relative, 'EOUTSIDE');
  if (!directoryStaysInside(root, path.dirname(relative))) throw new OutsideRootError(relative, 'ELINK');
  return path.join(root, relative);
}

/** Why a file could not be read inside the root. */
export class ReadRefused extends Error {
  constructor(
    readonly file: string,
    /** ELINK: a symbolic link; EIRREGULAR: not a regular file; ETOOBIG: past the size bound; else the errno code. */
    readonly code: string,
    readonly what: string,
  ) {
    super(`${file} ${what}`);
    this.name = 'ReadRefused';
  }
}

/**
 * A file's bytes, opened without following a link in its last component (unless `links` is
 * 'follow', for a file the user named who may keep it behind a link, such as a mounted key) (a link is refused, its
 * target never read), checked to be a regular file and held to `maxBytes` before it is read.
 * `file` is absolute (a path the caller has already guarded or was given on the command line).
 */
export function readRegularFile(file: string, maxBytes = Infinity, links: 'refuse' | 'follow' = 'refuse'): Buffer {
  const { fd, size } = openRegularFile(file, maxBytes, links);
  try {
    const stat = { size };
    const bytes = Buffer.allocUnsafe(stat.size);
    let length = 0;
    while (length < bytes.length) {
      const n = readSync(fd, bytes, length, bytes.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return length === bytes.length ? bytes : bytes.subarray(0, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens a regular file for reading as readRegularFile reads it (no link followed in its last
 * component, a regular file, at most `maxBytes`), for a caller that reads it a block at a time (a
 * tarball named on the command line). The caller closes the descriptor; reading stops at `size`.
 */
export function openRegularFile(
  file: string,
  maxBytes = Infinity,
  links: 'refuse' | 'follow' = 'refuse',
): { fd: number; size: number } {
  let fd: number;
  try {
    const nofollow = links === 'refuse' ? (constants.O_NOFOLLOW ?? 0) : 0;
    // O_NONBLOCK: a FIFO in a file's place opens at once (and is then refused), never waits for a writer.
    fd = openSync(file, constants.O_RDONLY | nofollow | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    if (code === 'ELOOP') throw new ReadRefused(file, 'ELINK', 'is a symbolic link; it is not followed');
    throw new ReadRefused(file, code, `cannot be read (${code})`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new ReadRefused(file, 'EIRREGULAR', 'is not a regular file');
    if (stat.size > maxBytes)
      throw new ReadRefused(file, 'ETOOBIG', `is ${stat.size} bytes, more than the ${maxBytes} it may be`);
    return { fd, size: stat.size };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** `relative`'s bytes under `root`: inside by spelling and by every directory on the way, the file itself no link. */
export function readInside(root: string, relative: string, maxBytes = Infinity): Buffer {
  return readRegularFile(guardedPath(root, relative), maxBytes);
}

/**
 * Whether `relative` names a file or directory under `root`: answered without following a link out
 * (a path that leaves the root by its spelling or through a linked directory is not there, and a
 * link in its last component is there as the link, its target never looked at).
 */
export function existsInside(root: string, relative: string): boolean {
  if (!isInsideBySpelling(relative) || !directoryStaysInside(root, path.dirname(relative))) return false;
  try {
    lstatSync(path.join(root, relative));
    return true;
  } catch {
    return false;
  }
}

/**
 * A path the user named on the command line for the tool to write (a report's `--output`, pack's
 * `--out`): outside the root if the user says so, since the flag means it, but never through a
 * link in its last component (the tool would write or rename over what the link points at).
 * Returns the absolute path; throws LinkRefused for a link.
 */
export function givenTarget(file: string): string {
  const absolute = path.resolve(file);
  let link = false;
  try {
    link = lstatSync(absolute).isSymbolicLink();
  } catch {
    // Not there yet: it is made by the write.
  }
  if (link) throw new LinkRefused(file);
  return absolute;
}

/** A path given to write that is a symbolic link: refused, its target left alone. */
export class LinkRefused extends Error {
  readonly code = 'ELINK';
  constructor(readonly file: string) {
    super(`${file} is a symbolic link; nothing is written through it`);
    this.name = 'LinkRefused';
  }
}

/** What is at a path: judged by lstat (a link is a link) or, with 'follow', by what the link leads to. */
export type PathKind = 'file' | 'directory' | 'link' | 'other' | 'missing';

/**
 * What `file` is, for a caller deciding how to read it (a release given as a directory or a
 * tarball, a directory of a release): a link is reported as one unless `links` is 'follow'.
 */
export function pathKind(file: string, links: 'refuse' | 'follow' = 'refuse'): PathKind {
  try {
    const stat = links === 'follow' ? statSync(file) : lstatSync(file);
    if (stat.isSymbolicLink()) return 'link';
    if (stat.isFile()) return 'file';
    if (stat.isDirectory()) return 'directory';
    return 'other';
  } catch {
    return 'missing';
  }
}
