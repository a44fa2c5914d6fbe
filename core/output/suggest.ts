/** "Did you mean": the candidate nearest to a misspelt name, when one is near enough to help. */

export function closest(wanted: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(wanted.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(wanted.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * For headings, which are renamed by rewording more often than misspelt: the nearest by spelling,
 * else the one candidate that shares most of its words with the wanted one (half of the longer of
 * the two at least, "Edge conditions" for "Evaluating edge conditions"); a tie suggests nothing.
 */
export function closestPhrase(wanted: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  const spelt = closest(wanted, list);
  if (spelt !== undefined) return spelt;
  const words = (text: string): Set<string> => new Set(text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const want = words(wanted);
  let best: string | undefined;
  let bestShared = 0;
  let tie = false;
  for (const candidate of list) {
    const have = words(candidate);
    const shared = [...want].filter((word) => have.has(word)).length;
    if (shared < Math.max(1, Math.ceil(Math.max(want.size, have.size) / 2))) continue;
    if (shared > bestShared) {
      best = candidate;
      bestShared = shared;
      tie = false;
    } else if (shared === bestShared) tie = true;
  }
  return tie ? undefined : best;
}
