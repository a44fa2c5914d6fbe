/**
 * The size of the error registry written by hand: "registers **96** codes", "(97 codes; …" after
 * `spec/v2/errors.json`, "107 registered codes" in a schema description. A number right before
 * "codes" counts only in a sentence about the registry (it says "regist…" or names errors.json);
 * ordinary counts ("the 11 codes below") are left alone.
 */

export interface CountMention {
  /** The number as written, emphasis included (`**96**`), and its offsets in the text. */
  written: string;
  value: number;
  /** The whole phrase, for messages: `**96** codes`. */
  phrase: string;
  start: number;
  end: number;
}

const QUICK = /\d[*_]*[ \t]+(?:registered[ \t]+|error[ \t]+)*codes\b/;
const HAND_COUNT = /(\*\*|__)?\b(\d+)\1?[ \t]+(?:registered[ \t]+|error[ \t]+)*codes\b/g;
const ABOUT_THE_REGISTRY = /regist|errors\.json/i;

/** Counts of the error registry in `text`, outside the ranges `excluded` (generated regions, code). */
export function errorCountMentions(text: string, excluded: ReadonlyArray<readonly [number, number]> = []): CountMention[] {
  if (!QUICK.test(text)) return [];
  const found: CountMention[] = [];
  for (const match of text.matchAll(HAND_COUNT)) {
    const start = match.index ?? 0;
    if (excluded.some(([from, to]) => start >= from && start < to)) continue;
    const sentenceStart = Math.max(text.lastIndexOf('. ', start), text.lastIndexOf('\n', start)) + 1;
    if (!ABOUT_THE_REGISTRY.test(text.slice(sentenceStart, start + match[0].length))) continue;
    const written = `${match[1] ?? ''}${match[2] ?? ''}${match[1] ?? ''}`;
    found.push({ written, value: Number(match[2]), phrase: match[0], start, end: start + written.length });
  }
  return found;
}
