/**
 * "Did you mean": the candidate nearest to a misspelt name, when one is near enough to help.
 *
 * Bounded, as TypeScript's spelling suggestions are: a candidate is accepted within an edit
 * distance of a third of the name's length (at least 2), so a candidate whose length differs by
 * more is never compared, and the distance itself is computed in a band of that width that stops
 * as soon as no cell of a row is within it. Candidates are prepared once per collection (lower
 * case, bucketed by length). A query first bounds every candidate of a near length cheaply (the
 * characters one has that the other lacks), then fills at most CELL_BUDGET cells of distance
 * table for those, nearest bound first: a collection of a few thousand names is searched whole,
 * and in one of 200,000 headings the nearest is still found, so 1,000 broken anchors into it cost
 * 1,000 bounded searches, not 1,000 full quadratic ones.
 */

/** The distance-table cells one query may fill (a few milliseconds). */
const CELL_BUDGET = 100_000;

/** A word held by more candidates than this says little on its own; see closestPhrase. */
const COMMON_WORD = 2_000;

interface Prepared {
  /** The candidates in their given order (ties go to the earliest). */
  readonly list: readonly string[];
  readonly lower: readonly string[];
  /** Lower-cased candidate to the index of its first occurrence. */
  readonly exact: ReadonlyMap<string, number>;
  /** Length of the lower-cased candidate to the indices of that length, ascending. */
  readonly byLength: ReadonlyMap<number, readonly number[]>;
  /** For a large collection, made on first use: each candidate's buckets as a 64-bit set, and the candidates sorted forwards and backwards. */
  large?: LargeAids;
  /** Per candidate, its words (for phrases); made on first use. */
  words?: ReadonlyArray<ReadonlySet<string>>;
  /** Word to the indices of the candidates holding it; made on first use. */
  holders?: ReadonlyMap<string, readonly number[]>;
}

interface LargeAids {
  /** Per candidate two words: which of the 64 character buckets it holds. */
  readonly masks: Uint32Array;
  /** Candidate indices in the order of their lower-cased text. */
  readonly forwards: Int32Array;
  /** Candidate indices in the order of their lower-cased text read backwards. */
  readonly backwards: Int32Array;
  readonly reversed: readonly string[];
}

/** Past this many candidates, a query looks at the nearest by spelling first (see closest). */
const LARGE = 5_000;

/** How many sorted neighbours on each side, each way, are measured first. */
const NEIGHBOURS = 8;

function largeAids(prepared: Prepared): LargeAids {
  if (prepared.large) return prepared.large;
  const { lower } = prepared;
  const masks = new Uint32Array(lower.length * 2);
  lower.forEach((text, index) => {
    for (let i = 0; i < text.length; i++) {
      const bucket = text.charCodeAt(i) & 63;
      masks[index * 2 + (bucket >> 5)] = (masks[index * 2 + (bucket >> 5)] as number) | (1 << (bucket & 31));
    }
  });
  const reversed = lower.map((text) => [...text].reverse().join(''));
  const order = (texts: readonly string[]): Int32Array =>
    Int32Array.from(texts.keys()).sort((a, b) => compareText(texts[a] as string, texts[b] as string) || a - b);
  prepared.large = { masks, forwards: order(lower), backwards: order(reversed), reversed };
  return prepared.large;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first position in `order` whose text is not before `text`. */
function lowerBound(order: Int32Array, texts: readonly string[], text: string): number {
  let low = 0;
  let high = order.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((texts[order[middle] as number] as string) < text) low = middle + 1;
    else high = middle;
  }
  return low;
}

function popcount(word: number): number {
  let n = word - ((word >>> 1) & 0x55555555);
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Prepared collections, by identity, with the size they had (a collection that grew is prepared again). */
const preparedOf = new WeakMap<object, { size: number; prepared: Prepared }>();

function prepare(candidates: Iterable<string>): Prepared {
  const size = Array.isArray(candidates)
    ? candidates.length
    : candidates instanceof Set || candidates instanceof Map
      ? candidates.size
      : undefined;
  const key =
    typeof candidates === 'object' && candidates !== null && size !== undefined ? (candidates as object) : undefined;
  const known = key ? preparedOf.get(key) : undefined;
  if (known && known.size === size) return known.prepared;
  const list = [...candidates];
  const lower = list.map((candidate) => candidate.toLowerCase());
  const exact = new Map<string, number>();
  const byLength = new Map<number, number[]>();
  lower.forEach((text, index) => {
    if (!exact.has(text)) exact.set(text, index);
    const bucket = byLength.get(text.length);
    if (bucket) bucket.push(index);
    else byLength.set(text.length, [index]);
  });
  const prepared: Prepared = { list, lower, exact, byLength };
  if (key && size !== undefined) preparedOf.set(key, { size, prepared });
  return prepared;
}

/** The largest edit distance at which a candidate still counts as what `wanted` meant. */
function limitFor(wanted: string): number {
  return Math.max(2, Math.floor(wanted.length / 3));
}

export function closest(wanted: string, candidates: Iterable<string>): string | undefined {
  const prepared = prepare(candidates);
  const want = wanted.toLowerCase();
  const same = prepared.exact.get(want);
  if (same !== undefined) return prepared.list[same];
  const limit = limitFor(wanted);
  let best = -1;
  let bestDistance = limit;
  let budget = CELL_BUDGET;
  const measure = (index: number): void => {
    const distance = boundedDistance(want, prepared.lower[index] as string, bestDistance);
    budget -= cellsFilled + 1;
    if (distance < bestDistance || (distance === bestDistance && (best === -1 || index < best))) {
      best = index;
      bestDistance = distance;
    }
  };
  // In a large collection, first the candidates nearest by spelling from either end (a slip keeps
  // the start or the end of a name): they usually give a small bound at once, which every other
  // candidate is then held to, cheaply, by its set of characters before anything else.
  const aids = prepared.lower.length > LARGE ? largeAids(prepared) : undefined;
  let wantMask0 = 0;
  let wantMask1 = 0;
  if (aids) {
    const backwardsWant = [...want].reverse().join('');
    for (const [order, texts, text] of [
      [aids.forwards, prepared.lower, want],
      [aids.backwards, aids.reversed, backwardsWant],
    ] as const) {
      const at = lowerBound(order, texts, text);
      for (let i = Math.max(0, at - NEIGHBOURS); i < Math.min(order.length, at + NEIGHBOURS); i++)
        measure(order[i] as number);
    }
    for (let i = 0; i < want.length; i++) {
      const bucket = want.charCodeAt(i) & 63;
      if (bucket < 32) wantMask0 |= 1 << bucket;
      else wantMask1 |= 1 << (bucket - 32);
    }
  }
  // Then the cheap bounds, over every candidate whose length is near enough (as TypeScript's
  // getSpellingSuggestion prunes by length first): the length difference, the character buckets
  // one holds and the other does not, then the characters one has that the other lacks, each at
  // most the edit distance. The distance table, which the budget caps, is filled only for what
  // those leave, nearest bound first. The bounds are kept in one byte per candidate, reused across
  // queries, and the levels are walked by scanning them: no list is built per query.
  const wantCounts = characterCounts(want);
  const bounds = boundsFor(prepared);
  const lengths: (readonly number[])[] = [];
  const masks = aids?.masks;
  for (let length = Math.max(0, want.length - bestDistance); length <= want.length + bestDistance; length++) {
    const bucket = prepared.byLength.get(length);
    if (!bucket) continue;
    lengths.push(bucket);
    for (const index of bucket) {
      if (masks) {
        const m0 = masks[index * 2] as number;
        const m1 = masks[index * 2 + 1] as number;
        const missing = popcount(wantMask0 & ~m0) + popcount(wantMask1 & ~m1);
        const extra = popcount(m0 & ~wantMask0) + popcount(m1 & ~wantMask1);
        if (missing > bestDistance || extra > bestDistance) {
          bounds[index] = NO_BOUND;
          continue;
        }
      }
      const bound = bagDistance(wantCounts, want.length, prepared.lower[index] as string);
      bounds[index] = bound <= bestDistance ? bound : NO_BOUND;
    }
  }
  for (let bound = 0; bound <= bestDistance && budget > 0; bound++) {
    for (const bucket of lengths) {
      for (const index of bucket) {
        if (budget <= 0) break;
        if (bounds[index] !== bound || index === best) continue;
        // A candidate whose bound equals the best so far can only tie: it counts if it comes earlier.
        if (bound === bestDistance && best !== -1 && index > best) continue;
        measure(index);
      }
    }
  }
  return best === -1 ? undefined : prepared.list[best];
}

/** Characters counted into 64 buckets (by code unit): bucket counts differ by no more than the characters do. */
function characterCounts(text: string): Int32Array {
  const counts = new Int32Array(64);
  for (let i = 0; i < text.length; i++) (counts[text.charCodeAt(i) & 63] as number)++;
  return counts;
}

const scratch = new Int32Array(64);

/** A bound past every limit: the candidate is not looked at. */
const NO_BOUND = 255;

/** One byte per candidate of a prepared collection, for the bounds of the query at hand. */
const boundsOf = new WeakMap<Prepared, Uint8Array>();

function boundsFor(prepared: Prepared): Uint8Array {
  let bounds = boundsOf.get(prepared);
  if (!bounds) {
    bounds = new Uint8Array(prepared.lower.length);
    boundsOf.set(prepared, bounds);
  }
  return bounds;
}

/**
 * A lower bound of the edit distance of the text counted in `wanted` and `other`: the larger of
 * what one has in excess of the other, counted by bucket (each edit changes at most one of each).
 * Worked out in two passes over `other` alone (count down, then restore), not over the buckets.
 */
function bagDistance(wanted: Int32Array, wantedLength: number, other: string): number {
  // `scratch` holds `wanted`'s counts between calls; a character of `other` past them is in excess.
  if (scratchFor !== wanted) {
    scratch.set(wanted);
    scratchFor = wanted;
  }
  let excessOther = 0;
  for (let i = 0; i < other.length; i++) {
    const bucket = other.charCodeAt(i) & 63;
    if ((scratch[bucket] as number) <= 0) excessOther++;
    (scratch[bucket] as number)--;
  }
  for (let i = 0; i < other.length; i++) (scratch[other.charCodeAt(i) & 63] as number)++;
  // What `wanted` has that `other` lacks: its length less what the two have in common.
  const excessWanted = wantedLength - (other.length - excessOther);
  return excessWanted > excessOther ? excessWanted : excessOther;
}

/** The counts `scratch` holds at rest. */
let scratchFor: Int32Array | undefined;

/** Two rows of the distance table, reused across calls (grown when a name is longer). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
/** Cells the last boundedDistance filled, charged to the query's budget. */
let cellsFilled = 0;

/** Levenshtein distance of `a` and `b` when it is at most `max`, else max + 1; computed in a band, stopped early. */
function boundedDistance(a: string, b: string, max: number): number {
  const big = max + 1;
  cellsFilled = 0;
  if (Math.abs(a.length - b.length) > max) return big;
  if (rowA.length < a.length + 2) {
    rowA = new Int32Array(a.length * 2 + 2);
    rowB = new Int32Array(a.length * 2 + 2);
  }
  let previous = rowA;
  let current = rowB;
  for (let i = 0; i <= a.length; i++) previous[i] = i <= max ? i : big;
  previous[a.length + 1] = big;
  for (let j = 1; j <= b.length; j++) {
    const from = j - max > 1 ? j - max : 1;
    const to = j + max < a.length ? j + max : a.length;
    current[0] = j <= max ? j : big;
    current[from - 1] = from > 1 ? big : current[0];
    let rowMin = current[from - 1] as number;
    const bj = b.charCodeAt(j - 1);
    for (let i = from; i <= to; i++) {
      let value = (previous[i - 1] as number) + (a.charCodeAt(i - 1) === bj ? 0 : 1);
      const deletion = (previous[i] as number) + 1;
      if (deletion < value) value = deletion;
      const insertion = (current[i - 1] as number) + 1;
      if (insertion < value) value = insertion;
      if (value > big) value = big;
      current[i] = value;
      if (value < rowMin) rowMin = value;
    }
    current[to + 1] = big;
    cellsFilled += to - from + 1;
    if (rowMin > max) return big;
    const swap = previous;
    previous = current;
    current = swap;
  }
  const last = previous[a.length] as number;
  return last < big ? last : big;
}

/**
 * For headings, which are renamed by rewording more often than misspelt: the nearest by spelling,
 * else the one candidate that shares most of its words with the wanted one (half of the longer of
 * the two at least, "Edge conditions" for "Evaluating edge conditions"); a tie suggests nothing.
 * Only candidates that share a word are looked at, through an index of words made once.
 */
export function closestPhrase(wanted: string, candidates: Iterable<string>): string | undefined {
  const prepared = prepare(candidates);
  const spelt = closest(wanted, prepared.list);
  if (spelt !== undefined) return spelt;
  const words = (text: string): Set<string> =>
    new Set(
      text
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean),
    );
  if (!prepared.words || !prepared.holders) {
    const all = prepared.list.map(words);
    const holders = new Map<string, number[]>();
    all.forEach((set, index) => {
      for (const word of set) {
        const list = holders.get(word);
        if (list) list.push(index);
        else holders.set(word, [index]);
      }
    });
    prepared.words = all;
    prepared.holders = holders;
  }
  const want = words(wanted);
  // Counted through the rarer words; a word most candidates hold is added to those already found.
  // When the common words alone could match as many as the best, many candidates tie: no suggestion.
  const holders = prepared.holders;
  const rare = [...want].filter((word) => (holders.get(word)?.length ?? 0) <= COMMON_WORD);
  const common = [...want].filter((word) => (holders.get(word)?.length ?? 0) > COMMON_WORD);
  const shared = new Map<number, number>();
  for (const word of rare) for (const index of holders.get(word) ?? []) shared.set(index, (shared.get(index) ?? 0) + 1);
  for (const [index, count] of shared)
    shared.set(index, count + common.filter((word) => prepared.words?.[index]?.has(word)).length);
  if (common.length > 0 && Math.max(0, ...shared.values()) <= common.length) return undefined;
  let best: number | undefined;
  let bestShared = 0;
  let tie = false;
  for (const [index, count] of [...shared].sort((x, y) => x[0] - y[0])) {
    const have = prepared.words[index] as ReadonlySet<string>;
    if (count < Math.max(1, Math.ceil(Math.max(want.size, have.size) / 2))) continue;
    if (count > bestShared) {
      best = index;
      bestShared = count;
      tie = false;
    } else if (count === bestShared) tie = true;
  }
  return tie || best === undefined ? undefined : prepared.list[best];
}
