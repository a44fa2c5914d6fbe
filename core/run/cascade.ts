/**
 * The cause first. A file that does not parse is the cause of what follows from it: it is listed
 * before anything else, and the findings that only follow from it are left out, since each goes
 * away with the fix and together they bury it (one YAML typo otherwise gives dozens of errors
 * with the parse error among them). What follows from a broken file B:
 * - other gates' findings in B itself (they see a value the parser could not give them);
 * - a finding elsewhere that names B (a `$ref` into it that cannot resolve), and the findings of
 *   the same rule family in that file (they judge what those references would have brought in);
 * - drift of an output whose generator reads B, or digests everything (the stamp).
 */
import type { Diagnostic } from '../output/index.js';

export const PARSE_RULE = 'corpus/parse';

/**
 * `derivedFrom`: for each generated output, the files its generators read (`*` for a generator
 * that digests every file).
 */
export function causeFirst(diagnostics: readonly Diagnostic[], derivedFrom: ReadonlyMap<string, readonly string[]> = new Map()): Diagnostic[] {
  const causes = diagnostics.filter((d) => d.rule === PARSE_RULE);
  if (causes.length === 0) return [...diagnostics];
  const broken = new Set(causes.map((d) => d.file));
  const names = (d: Diagnostic): boolean => [...broken].some((file) => d.message.includes(file));
  const family = (d: Diagnostic): string => d.rule.split('/')[0] ?? d.rule;
  const affected = new Set(diagnostics.filter((d) => !broken.has(d.file) && d.rule !== PARSE_RULE && names(d)).map((d) => `${d.file}\u0000${family(d)}`));
  const follows = (d: Diagnostic): boolean => {
    if (broken.has(d.file)) return !d.rule.startsWith('corpus/');
    if (affected.has(`${d.file}\u0000${family(d)}`)) return true;
    if (d.rule === 'generated/drift') return (derivedFrom.get(d.file) ?? []).some((input) => input === '*' || broken.has(input));
    return false;
  };
  return [...causes, ...diagnostics.filter((d) => d.rule !== PARSE_RULE && !follows(d))];
}

/** Parse failures first, the rest in their order: for the report, after everything is decided. */
export function parseFailuresFirst(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  return [...diagnostics.filter((d) => d.rule === PARSE_RULE), ...diagnostics.filter((d) => d.rule !== PARSE_RULE)];
}
