/** Finds the corpus document a prose mention such as `packs.md` or `spec/v2/core/packs.md` means. */
import path from 'node:path';
import type { Corpus } from './corpus.js';

export interface DocumentIndex {
  /** The root-relative path of the document a name in `fromFile` refers to, if exactly one fits. */
  resolve(name: string, fromFile: string): string | undefined;
  /** Whether any corpus document has this base name. */
  hasBaseName(name: string): boolean;
}

const indexes = new WeakMap<Corpus, DocumentIndex>();

export function documentIndex(corpus: Corpus): DocumentIndex {
  const cached = indexes.get(corpus);
  if (cached) return cached;
  const byBaseName = new Map<string, string[]>();
  for (const file of corpus.markdownFiles()) {
    const base = path.posix.basename(file.path);
    byBaseName.set(base, [...(byBaseName.get(base) ?? []), file.path]);
  }
  const index: DocumentIndex = {
    hasBaseName: (name) => byBaseName.has(name),
    resolve(name, fromFile) {
      if (name.includes('/')) {
        const fromRoot = path.posix.normalize(name.replace(/^\.?\//, ''));
        if (corpus.markdown(fromRoot)) return fromRoot;
        const fromHere = path.posix.normalize(path.posix.join(path.posix.dirname(fromFile), name));
        return corpus.markdown(fromHere) ? fromHere : undefined;
      }
      const sibling = path.posix.join(path.posix.dirname(fromFile), name);
      if (corpus.markdown(sibling)) return sibling;
      const candidates = byBaseName.get(name) ?? [];
      return candidates.length === 1 ? candidates[0] : undefined;
    },
  };
  indexes.set(corpus, index);
  return index;
}
