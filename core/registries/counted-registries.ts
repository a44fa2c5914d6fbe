/**
 * The registries whose size the corpus states in words, and what the words are: the nouns their
 * entries are counted by ("97 codes", "17 metadata keys", "Core families (72)"), the names that
 * say a sentence is about them ("the codemap", "the error registry", their file), and how many
 * entries each has now. The count matcher knows registries only through this table, so a registry
 * the readers learn of is counted by adding its entry here, never by teaching the matcher a name.
 */
import { type Corpus, isObject } from '../model/index.js';
import { ERRORS_PATH } from './errors.js';
import { CODEMAP_PATH, eventCodemap } from './event-codemap.js';
import { DECLARATION_PATH } from './views.js';

export type CountedRegistryId = 'errors' | 'codemap' | 'metadata' | 'core-families' | 'ext-families';

export interface CountedRegistry {
  id: CountedRegistryId;
  /** The registry file (a reader's path), whose name in a sentence says the sentence is about it. */
  path: string;
  /** The nouns its own entries are counted by, lowercase, longest first ("registered codes" before "codes"). */
  nouns: readonly string[];
  /**
   * Whether a count by its own nouns needs the sentence to be about the registry: "the 11 codes
   * below" counts a list, "registers 97 codes" the registry. `about` says what makes it so.
   */
  about: RegExp | undefined;
  /** Whether "N rows" or "N entries" counts it when the sentence names it (`names` or its file) before the count. */
  rows: boolean;
  /** Words other than its file name that name it in a sentence. */
  names: readonly string[];
  /** The registry as a message names it. */
  what: string;
  /** How many entries it has; undefined while it does not exist or cannot be read. */
  size(corpus: Corpus): number | undefined;
}

function declarationValue(corpus: Corpus): Record<string, unknown> | undefined {
  const value = corpus.data(DECLARATION_PATH)?.value;
  return isObject(value) ? value : undefined;
}

function families(corpus: Corpus, anchor: string): number | undefined {
  const value = declarationValue(corpus);
  if (!value || !Array.isArray(value.families)) return undefined;
  return value.families.filter((family) => isObject(family) && family.anchor === anchor).length;
}

export const COUNTED_REGISTRIES: readonly CountedRegistry[] = [
  {
    id: 'errors',
    path: ERRORS_PATH,
    nouns: ['registered error codes', 'registered codes', 'error codes', 'codes'],
    about: /regist/i,
    rows: true,
    names: ['error registry'],
    what: `the error registry (${ERRORS_PATH})`,
    size: (corpus) => {
      const value = corpus.data(ERRORS_PATH)?.value;
      return isObject(value) && Array.isArray(value.rows) ? value.rows.length : undefined;
    },
  },
  {
    id: 'codemap',
    path: CODEMAP_PATH,
    // A bijection is counted by its names too ("118 rows, 118 distinct `v1` names"), in a sentence that names the codemap.
    nouns: ['distinct `v1` names', 'distinct `v2` names', 'distinct v1 names', 'distinct v2 names'],
    about: /\bcodemap\b/i,
    rows: true,
    names: ['codemap', 'event codemap'],
    what: `the codemap (${CODEMAP_PATH})`,
    size: (corpus) => eventCodemap(corpus)?.rows.length,
  },
  {
    id: 'metadata',
    path: DECLARATION_PATH,
    nouns: ['metadata keys', 'metadata key'],
    about: undefined,
    rows: false,
    names: [],
    what: `the metadata keys of ${DECLARATION_PATH}`,
    size: (corpus) => {
      const metadata = declarationValue(corpus)?.metadata;
      return Array.isArray(metadata) ? metadata.length : isObject(metadata) ? Object.keys(metadata).length : undefined;
    },
  },
  {
    id: 'core-families',
    path: DECLARATION_PATH,
    nouns: ['core families'],
    about: undefined,
    rows: false,
    names: [],
    what: `the core families of ${DECLARATION_PATH}`,
    size: (corpus) => families(corpus, 'core'),
  },
  {
    id: 'ext-families',
    path: DECLARATION_PATH,
    nouns: ['extension families', 'ext families'],
    about: undefined,
    rows: false,
    names: [],
    what: `the extension families of ${DECLARATION_PATH}`,
    size: (corpus) => families(corpus, 'ext'),
  },
];

/** The file name of a registry as prose writes it: `errors.json`, `spec/v2/errors.json`. */
export function registryFileName(registry: Pick<CountedRegistry, 'path'>): string {
  return registry.path.slice(registry.path.lastIndexOf('/') + 1);
}
