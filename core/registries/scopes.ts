/** The scope vocabulary: every scope an operation's security requirement may name. */
import { type Corpus, isObject } from '../model/index.js';

export const SCOPES_PATH = 'spec/v2/scopes.json';

export interface ScopeEntry {
  scope: string;
  index: number;
}

/** The vocabulary at `path` (`{rows: [{scope, meaning}]}`), or undefined while the corpus registers none. */
export function scopeVocabulary(corpus: Corpus, path: string = SCOPES_PATH): { scopes: ScopeEntry[] } | undefined {
  const value = corpus.data(path)?.value;
  if (!isObject(value) || !Array.isArray(value.rows)) return undefined;
  return {
    scopes: value.rows.flatMap((row, index) =>
      isObject(row) && typeof row.scope === 'string' ? [{ scope: row.scope, index }] : [],
    ),
  };
}
