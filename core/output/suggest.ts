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
  /** Per candidate, its words (for phrases); made on first use. */
  words?: ReadonlyArray<ReadonlySet<string>>;
  /** Word to the indices of the candidates holding it; made on first use. */
  holders?: ReadonlyMap<string, readonly number[]>;
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
  // First the cheap bounds, over every candidate whose length is near enough (as TypeScript's
  // getSpellingSuggestion prunes by length first): the length difference, then the characters one
  // has that the other lacks, both at most the edit distance. The distance table, which the budget
  // caps, is filled only for what those leave, nearest bound first: so the nearest candidate is
  // found even in a collection far larger than the budget, as long as few are near it.
  const wantCounts = characterCounts(want);
  const byBound: number[][] = Array.from({ length: limit + 1 }, () => []);
  for (let length = Math.max(0, want.length - limit); length <= want.length + limit; length++) {
    for (const index of prepared.byLength.get(length) ?? []) {
      const bound = bagDistance(wantCounts, want.length, prepared.lower[index] as string);
      if (bound <= limit) (byBound[bound] as number[]).push(index);
    }
  }
  let best = -1;
  let bestDistance = limit;
  let budget = CELL_BUDGET;
  for (let bound = 0; bound <= bestDistance && budget > 0; bound++) {
    for (const index of byBound[bound] as number[]) {
      if (budget <= 0) break;
      // A candidate whose bound equals the best so far can only tie: it counts if it comes earlier.
      if (bound === bestDistance && best !== -1 && index > best) continue;
      const distance = boundedDistance(want, prepared.lower[index] as string, bestDistance);
      budget -= cellsFilled + 1;
      if (distance < bestDistance || (distance === bestDistance && (best === -1 || index < best))) {
        best = index;
        bestDistance = distance;
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

/**
 * A lower bound of the edit distance of the text counted in `wanted` and `other`: the larger of
 * what one has in excess of the other, counted by bucket (each edit changes at most one of each).
 */
function bagDistance(wanted: Int32Array, wantedLength: number, other: string): number {
  scratch.set(wanted);
  for (let i = 0; i < other.length; i++) (scratch[other.charCodeAt(i) & 63] as number)--;
  let extra = 0;
  for (let bucket = 0; bucket < 64; bucket++) if ((scratch[bucket] as number) > 0) extra += scratch[bucket] as number;
  // What `wanted` has in excess, and what `other` has: their difference is the difference in length.
  const missing = extra - (wantedLength - other.length);
  return extra > missing ? extra : missing;
}

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
