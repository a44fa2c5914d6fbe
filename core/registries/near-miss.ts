/**
 * A registered name another one nearly spells, word by word: one word more or fewer
 * (`sub_chain_max_depth_exceeded` for `sub_chain_depth_exceeded`), or one word misspelt
 * (`OpenWOP-Idempotency-Replay` for `OpenWOP-Idempotent-Replay`). Another word in the same place
 * (`manifest_version_mismatch`, `protocol_version_mismatch`) makes another name, not a slip.
 */
import { closest } from '../output/index.js';

/** `extraWord`: whether a word more or fewer is a slip (a code) or another name (a header: `OpenWOP-Client-Version`). */
export function nearMiss(
  name: string,
  registered: Iterable<string>,
  separator: string,
  extraWord = true,
): string | undefined {
  const words = name.toLowerCase().split(separator);
  for (const candidate of registered) {
    const other = candidate.toLowerCase().split(separator);
    if (other.join(separator) === words.join(separator)) continue;
    if (extraWord && Math.abs(other.length - words.length) === 1) {
      const [longer, shorter] = words.length > other.length ? [words, other] : [other, words];
      if (
        longer.some(
          (_, i) => [...longer.slice(0, i), ...longer.slice(i + 1)].join(separator) === shorter.join(separator),
        )
      )
        return candidate;
    } else if (other.length === words.length) {
      const differing = words.flatMap((word, i) => (word === other[i] ? [] : [i]));
      const at = differing[0];
      if (
        differing.length === 1 &&
        at !== undefined &&
        closest(words[at] as string, [other[at] as string]) !== undefined
      )
        return candidate;
    }
  }
  return undefined;
}
