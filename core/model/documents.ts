/** Finds the corpus document a prose mention such as `packs.md` or `spec/v2/core/packs.md` means. */
import path from 'node:path';
import type { Corpus } from './corpus.js';
import { defineService } from './service.js';

export interface DocumentIndex {
  /** The root-relative path of the document a name in `fromFile` refers to, if exactly one fits. */
  resolve(name: string, fromFile: string): string | undefined;
  /** Whether any corpus document has this base name. */
  hasBaseName(name: string): boolean;
}

/** The corpus's markdown documents by base name, and what a name written in a file means. */
export const DocumentIndexService = defineService('document index', buildDocumentIndex);

export function documentIndex(corpus: Corpus): DocumentIndex {
  return corpus.service(DocumentIndexService);
}

function buildDocumentIndex(corpus: Corpus): DocumentIndex {
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
      if (candidates.length !== 1) return undefined;
      return otherVersionMeant(corpus, fromFile, candidates[0] as string) ? undefined : candidates[0];
    },
  };
  return index;
}

const VERSION_SEGMENT = /(?:^|\/)v(\d+)\//;

/**
 * Whether `fromFile`, a file outside any versioned tree (`SECURITY/`, `conformance/`), itself names
 * documents of a version other than `version` (`spec/v1/replay.md`): such a file may speak of that
 * version by a bare `replay.md` or a v1 event type as well, and what it means is then only a guess.
 */
export function speaksOtherVersion(corpus: Corpus, fromFile: string, version: string): boolean {
  if (VERSION_SEGMENT.test(fromFile)) return false;
  for (const named of versionsNamed(corpus, fromFile)) if (named !== version) return true;
  return false;
}

/** The versions each file names, kept with the file (a file object is its content). */
const namedVersions = new WeakMap<object, ReadonlySet<string>>();

/** The versions whose documents a file names (`spec/v1/…` names 1), read once per file: gates ask per mention, and a registry holds thousands. */
function versionsNamed(corpus: Corpus, fromFile: string): ReadonlySet<string> {
  // Looked up through the model each time, so that a run recording what a gate reads records this file.
  const file = corpus.get(fromFile);
  if (!file) return new Set();
  const known = namedVersions.get(file);
  if (known) return known;
  const text = 'text' in file ? file.text : '';
  const versions = new Set<string>();
  for (const match of text.matchAll(/\bspec\/v(\d+)\//g)) versions.add(match[1] as string);
  namedVersions.set(file, versions);
  return versions;
}

function otherVersionMeant(corpus: Corpus, fromFile: string, candidate: string): boolean {
  const version = VERSION_SEGMENT.exec(candidate)?.[1];
  return version !== undefined && speaksOtherVersion(corpus, fromFile, version);
}
