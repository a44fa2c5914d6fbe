/**
 * Writes that no reader sees half done. One file: a temporary file beside the target, then a
 * rename. A set of files (`generate`): every temporary written first, then the renames, with a
 * journal of the renames beside them, so that a run killed part-way is finished by the next one
 * and the set on disk is the old one or the new one, never a mix that goes unsaid.
 *
 * A rewritten text file keeps how it was written (CRLF line ends, a byte order mark) and its
 * file mode: a regenerated file differs from the one it replaces only in what the generator changed.
 */
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { directoryStaysInside, isInsideBySpelling, readRegularFile } from '../fs/index.js';

/** How a text file is written. */
export interface TextStyle {
  crlf: boolean;
  bom: boolean;
}

/** The style of a text (as decoded, a byte order mark still in it): CRLF when most of its line ends are. */
export function textStyleOf(text: string): TextStyle {
  const bom = text.charCodeAt(0) === 0xfeff;
  let crlf = 0;
  let lf = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
    if (at > 0 && text.charCodeAt(at - 1) === 13) crlf++;
    else lf++;
  }
  return { bom, crlf: crlf > lf };
}

/** `text` (LF line ends, no byte order mark) written in `style`. */
export function encodeText(text: string, style: TextStyle | undefined): Buffer {
  const lf = text.includes('\r\n') ? text.replace(/\r\n/g, '\n') : text;
  const ends = style?.crlf ? lf.replace(/\n/g, '\r\n') : lf;
  return Buffer.from(style?.bom ? `\uFEFF${ends}` : ends, 'utf8');
}

/** The style of the file at `target`, or undefined when there is none (or it cannot be read). */
function styleOfFile(target: string): TextStyle | undefined {
  try {
    return textStyleOf(readFileSync(target, 'utf8'));
  } catch {
    return undefined;
  }
}

/** A write that failed, worded for one line: the target (as the caller names it) and the cause. */
export class WriteError extends Error {
  constructor(
    readonly target: string,
    readonly code: string,
    /** What else the reader needs to know (which files of a set were replaced). */
    detail?: string,
  ) {
    super(`cannot write ${target}: ${describeCode(code)}${detail ? `; ${detail}` : ''}`);
    this.name = 'WriteError';
  }
}

const CAUSES: Record<string, string> = {
  EACCES: 'permission denied (EACCES)',
  EPERM: 'operation not permitted (EPERM)',
  ENOSPC: 'no space left on the device (ENOSPC)',
  EDQUOT: 'disk quota exceeded (EDQUOT)',
  EROFS: 'the file system is read-only (EROFS)',
  ENOTDIR: 'a parent of it is not a directory (ENOTDIR)',
  ELINK: 'its directory is reached through a symbolic link that leads out of the root',
  EOUTSIDE: 'the journal names it, or its temporary, outside the root; nothing was moved',
  EISDIR: 'it is a directory (EISDIR)',
  EIO: 'an input/output error (EIO)',
};

function describeCode(code: string): string {
  return CAUSES[code] ?? code;
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? (error instanceof Error ? error.message : String(error));
}

const TEMPORARY = /^\.(.+)\.(\d+)\.([0-9a-z]+)\.tmp$/;

function temporaryName(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${Date.now().toString(36)}.tmp`);
}

/** Whether a directory entry is a temporary file of a write whose process is gone. */
export function isAbandonedTemporary(entry: string): boolean {
  const match = TEMPORARY.exec(entry);
  if (!match) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Removes the temporaries abandoned in `directory` by killed runs; returns their names. */
function removeAbandonedTemporaries(directory: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(directory);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const entry of entries) {
    if (!isAbandonedTemporary(entry)) continue;
    try {
      rmSync(path.join(directory, entry), { force: true });
      removed.push(entry);
    } catch {
      // Left for a later run; it is never read.
    }
  }
  return removed;
}

/**
 * A hook for tests of interrupted writes: OPENWOP_SPEC_FAULT=kill-at-write:N kills the process
 * (SIGKILL, as an out-of-memory killer or a power cut would) just before the Nth file operation of
 * a set of writes (each temporary staged, then each rename), counting from 1;
 * OPENWOP_SPEC_FAULT=fail-at-write:N:ENOSPC makes that operation fail with that code instead
 * (a full disk or a read-only mount, which a test running as root cannot otherwise arrange).
 */
let operations = 0;
function beforeOperation(): void {
  const fault = process.env.OPENWOP_SPEC_FAULT;
  if (!fault) return;
  operations++;
  const match = /^(kill|fail)-at-write:(\d+)(?::([A-Z]+))?$/.exec(fault);
  if (!match || Number(match[2]) !== operations) return;
  if (match[1] === 'kill') process.kill(process.pid, 'SIGKILL');
  throw Object.assign(new Error(`injected ${match[3] ?? 'EIO'}`), { code: match[3] ?? 'EIO' });
}

/** A step of a multi-file operation elsewhere (pack's moves into --out), counted by the same fault hook. */
export function faultPoint(): void {
  beforeOperation();
}

/** The file mode of `target` when it exists, so a replacement keeps it. */
function modeOf(target: string): number | undefined {
  try {
    return statSync(target).mode & 0o7777;
  } catch {
    return undefined;
  }
}

/** `durable`: flushed to the disk before it is renamed (outputs, not caches), and counted by the fault hook. */
function writeTemporary(target: string, content: string | Buffer, durable: boolean): string {
  mkdirSync(path.dirname(target), { recursive: true });
  const temporary = temporaryName(target);
  if (durable) beforeOperation();
  const mode = modeOf(target);
  let fd: number | undefined;
  try {
    fd = openSync(temporary, 'wx', mode ?? 0o666);
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
    if (durable) fsyncSync(fd);
    closeSync(fd);
    fd = undefined;
    // The mode given to open is masked by the umask; the file replaced had the mode it had.
    if (mode !== undefined) chmodSync(temporary, mode);
    return temporary;
  } catch (error) {
    if (fd !== undefined) closeSync(fd);
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** One file, atomically; keeps the mode of the file it replaces. Throws a WriteError naming `target`. */
export function writeFileAtomic(target: string, content: string | Buffer, label = target): void {
  let temporary: string | undefined;
  try {
    temporary = writeTemporary(target, content, false);
    renameSync(temporary, target);
  } catch (error) {
    if (temporary) rmSync(temporary, { force: true });
    throw new WriteError(label, codeOf(error));
  }
}

/** A text file rewritten in the style (line ends, byte order mark) and mode of the file it replaces. */
function writeTextAtomic(target: string, text: string, label = target): void {
  writeFileAtomic(target, encodeText(text, styleOfFile(target)), label);
}

/**
 * A text file of the corpus (root-relative), rewritten as writeTextAtomic does, but only inside the
 * root: a path that leaves it, or whose directory is reached through a link that does, is refused.
 */
export function writeTextInside(root: string, relative: string, text: string): void {
  if (!isInsideBySpelling(relative) || !directoryStaysInside(root, path.dirname(relative)))
    throw new WriteError(relative, 'ELINK');
  writeTextAtomic(path.join(root, relative), text, relative);
}

/** The journal of a set of renames in progress, in the root of the set. */
export const JOURNAL = '.openwop-spec-writes.json';

interface JournalEntry {
  /** Relative to the root. */
  target: string;
  /** The temporary's name, in the target's directory. */
  temporary: string;
}

export interface AppliedSet {
  written: string[];
}

/**
 * Writes a set of files under `root` so that they change together: every file is staged as a
 * temporary (nothing visible changes; a failure removes them and names the target and cause);
 * the renames are journalled, then made. A run killed during the renames leaves the journal, and
 * the next `recoverWrites` makes the remaining renames, so the new set is completed, not mixed.
 */
export function writeSetAtomic(root: string, files: ReadonlyArray<{ path: string; content: Buffer }>): AppliedSet {
  // A run that changes nothing writes nothing, not even a journal (a read-only checkout stays fine).
  if (files.length === 0) return { written: [] };
  const staged: JournalEntry[] = [];
  try {
    for (const file of files) {
      // An output whose directory is reached through a link out of the root would be written out there.
      if (!isInsideBySpelling(file.path) || !directoryStaysInside(root, path.dirname(file.path)))
        throw new WriteError(file.path, 'ELINK');
      const directory = path.dirname(path.join(root, file.path));
      mkdirSync(directory, { recursive: true });
      if (!directoryStaysInside(root, path.dirname(file.path))) throw new WriteError(file.path, 'ELINK');
      let temporary: string;
      try {
        temporary = writeTemporary(path.join(root, file.path), file.content, true);
      } catch (error) {
        throw new WriteError(file.path, codeOf(error));
      }
      staged.push({ target: file.path, temporary: path.basename(temporary) });
    }
    writeFileAtomic(
      path.join(root, JOURNAL),
      `${JSON.stringify({ pid: process.pid, renames: staged }, null, 1)}\n`,
      JOURNAL,
    );
  } catch (error) {
    for (const entry of staged) rmSync(path.join(root, path.dirname(entry.target), entry.temporary), { force: true });
    throw error;
  }
  const written: string[] = [];
  for (const entry of staged) {
    try {
      beforeOperation();
      renameSync(path.join(root, path.dirname(entry.target), entry.temporary), path.join(root, entry.target));
      written.push(entry.target);
    } catch (error) {
      // The journal stays: the next run finishes what it can, and says so.
      throw new WriteError(
        entry.target,
        codeOf(error),
        `${written.length} of ${staged.length} files were replaced (${written.join(', ') || 'none'}); the next generate finishes the rest`,
      );
    }
  }
  rmSync(path.join(root, JOURNAL), { force: true });
  return { written };
}

/**
 * Finishes a set of writes a killed run left half applied (its journal under `root`), and removes
 * the temporaries killed runs abandoned in `directories`. Returns the files it completed and those
 * it could not (with the cause), and the temporaries it removed.
 */
export function recoverWrites(
  root: string,
  directories: Iterable<string> = [],
): { completed: string[]; failed: string[]; removed: string[] } {
  const completed: string[] = [];
  const failed: string[] = [];
  const journalPath = path.join(root, JOURNAL);
  // A directory reached through a link that leads out of the root is nobody's to clean.
  const dirs = new Set<string>(
    [...directories]
      .filter((directory) => directoryStaysInside(root, directory))
      .map((directory) => path.join(root, directory)),
  );
  if (existsSync(journalPath) || isLink(journalPath)) {
    let journal: { pid?: unknown; renames?: unknown } = {};
    try {
      // The journal is a file of the checkout like any other: a link in its place is not followed.
      journal = JSON.parse(readRegularFile(journalPath, 2 ** 20).toString('utf8')) as typeof journal;
    } catch {
      journal = {};
    }
    const alive = typeof journal.pid === 'number' && journal.pid !== process.pid && isAlive(journal.pid);
    if (!alive) {
      for (const entry of Array.isArray(journal.renames) ? (journal.renames as unknown[]) : []) {
        const { target, temporary } = (entry ?? {}) as Partial<JournalEntry>;
        if (typeof target !== 'string' || typeof temporary !== 'string') continue;
        // The journal names targets inside the root only (by their spelling, and through every
        // directory on the way), and each temporary by its bare name beside its own target: a
        // temporary spelt with a directory (`../../x/.a.md.1.k.tmp`) would pull a file in from
        // outside the root and delete it there.
        if (!isInsideBySpelling(target) || !isTemporaryOf(target, temporary)) {
          failed.push(`${target} (${describeCode('EOUTSIDE')})`);
          continue;
        }
        if (!directoryStaysInside(root, path.dirname(target))) {
          failed.push(`${target} (${describeCode('ELINK')})`);
          continue;
        }
        const from = path.join(root, path.dirname(target), temporary);
        dirs.add(path.dirname(from));
        // Only a regular file is moved into place: a link planted under a temporary's name is not.
        if (!isRegularFile(from)) continue;
        try {
          renameSync(from, path.join(root, target));
          completed.push(target);
        } catch (error) {
          // This run regenerates the file anyway, and says so in one line if it still cannot write it.
          failed.push(`${target} (${describeCode(codeOf(error))})`);
          rmSync(from, { force: true });
        }
      }
      rmSync(journalPath, { force: true });
    }
  }
  const removed: string[] = [];
  for (const directory of dirs) removed.push(...removeAbandonedTemporaries(directory));
  return { completed, failed, removed };
}

/** Whether `temporary` is a bare file name of the form a write of `target` gives its temporary. */
function isTemporaryOf(target: string, temporary: string): boolean {
  return (
    !/[\\/]/.test(temporary) &&
    TEMPORARY.test(temporary) &&
    temporary.startsWith(`.${path.posix.basename(target.replace(/\\/g, '/'))}.`)
  );
}

function isRegularFile(file: string): boolean {
  try {
    return lstatSync(file).isFile();
  } catch {
    return false;
  }
}

function isLink(file: string): boolean {
  try {
    return lstatSync(file).isSymbolicLink();
  } catch {
    return false;
  }
}

/** Whether a process of this id is running (or cannot be signalled by us, which says it is). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
