/**
 * The files below a directory, for the corpus loader and for reading a release from a checkout or
 * an installed package: one walk, with the two places' differences as options.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export interface WalkOptions {
  /** Enter dot-directories and `node_modules`, and list dotfiles (a package holds them; a checkout's are not the corpus). */
  dotfiles: boolean;
  /** An entry that is neither a file nor a directory (a symbolic link, a device); by default skipped. */
  irregular?: (relative: string) => void;
  /** A directory that cannot be read for another reason than not being there. */
  unreadable: (relative: string, code: string) => never;
}

/** Every file below `relative` (a path under `root`, '' for root itself), as `/`-separated paths relative to `root`. */
export function walkFiles(root: string, relative: string, options: WalkOptions, into: string[] = []): string[] {
  let entries;
  try {
    entries = readdirSync(path.join(root, relative), { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return into;
    return options.unreadable(relative, code ?? String(error));
  }
  for (const entry of entries) {
    if (!options.dotfiles && (entry.name.startsWith('.') || entry.name === 'node_modules')) continue;
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) walkFiles(root, child, options, into);
    else if (entry.isFile()) into.push(child);
    else options.irregular?.(child);
  }
  return into;
}
