/**
 * The cause first. A file that does not parse is the cause of what follows from it, and is listed
 * before anything else (a typo in a YAML file otherwise sits under dozens of consequences).
 */
import type { Diagnostic } from '../output/index.js';

export const PARSE_RULE = 'corpus/parse';

export function causeFirst(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const causes = diagnostics.filter((d) => d.rule === PARSE_RULE);
  if (causes.length === 0) return [...diagnostics];
  const broken = new Set(causes.map((d) => d.file));
  // In a file that does not parse, what other gates say of it (missing keys, a wrong shape) is
  // said of a value the parser could not give them.
  const rest = diagnostics.filter((d) => d.rule !== PARSE_RULE && !(broken.has(d.file) && !d.rule.startsWith('corpus/')));
  return [...causes, ...rest];
}
