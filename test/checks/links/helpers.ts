/** Shared by the links gate tests: the base corpus's citing line, which each case replaces with its own links. */
import type { CorpusCase } from '../../rule-tester.js';

export const A = 'spec/v2/core/a.md';

/** Line 8 of the base corpus's a.md: a link and a section citation that resolve. */
const CITES = 'Alpha depends on [b.md](b.md), and its heading [b.md §"Some heading"](b.md#some-heading).';

/** The base corpus with line 8 of a.md written as `line`. */
export function cites(line: string): Pick<CorpusCase, 'edits'> {
  return { edits: [{ file: A, find: CITES, replace: line }] };
}
