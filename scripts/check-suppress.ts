/** `check --suppress RULE --reason TEXT` and `check --prune-suppressions`: the suppressions file written from a run's findings. */
import { DEFAULT_SUPPRESSIONS, matchesPattern, type Config } from '../core/config/index.js';
import { guardedPath } from '../core/fs/index.js';
import { type Diagnostic, isActive, note, writeFileAtomic } from '../core/output/index.js';
import {
  addSuppressionEntries,
  removeSuppressionEntries,
  selectRules,
  SuppressionsFileError,
} from '../core/run/index.js';
import { TOOL_NAME, UsageError } from './common.js';

/** The rules `--suppress` names (ids or family/*), checked against `rules` (the built-in and house rules): each exists, none is a suppression rule, and a reason is given. */
export function suppressedRules(
  options: { suppress?: string[]; reason?: string },
  rules: ReadonlyArray<{ id: string }>,
): string[] {
  const patterns = options.suppress ?? [];
  if (patterns.length === 0) {
    if (options.reason !== undefined) throw new UsageError('--reason goes with --suppress RULE');
    return [];
  }
  if (!options.reason?.trim())
    throw new UsageError('--suppress needs --reason TEXT: each suppression says why its finding is accepted');
  const { unknown } = selectRules(rules, patterns);
  if (unknown.length > 0)
    throw new UsageError(`--suppress ${unknown.join(', ')}: no such rule; \`${TOOL_NAME} rules\` lists them`);
  if (patterns.some((pattern) => pattern.startsWith('suppressions/')))
    throw new UsageError(
      '--suppress suppressions/…: findings about suppressions are never suppressed; fix or delete the suppression',
    );
  return patterns;
}

/**
 * The suppressions file for --suppress (an entry added for each active finding of those rules)
 * and --prune-suppressions (the entries the run found unused removed), written, with what it did
 * said on stderr. `current` is the file as the run read it (undefined when there is none). Returns the file as written, for the run to be judged again, or undefined when
 * nothing changed.
 */
export function editSuppressionsFile(
  root: string,
  current: { text: string } | undefined,
  config: Config,
  diagnostics: readonly Diagnostic[],
  rules: readonly string[],
  reason: string,
  prune: boolean,
): { path: string; text: string } | undefined {
  const relative = config.policy.suppressions ?? DEFAULT_SUPPRESSIONS;
  const stale = new Set(
    prune
      ? diagnostics.flatMap((d) =>
          d.rule === UNUSED_RULE && d.file === relative && typeof d.data?.entry === 'number' ? [d.data.entry] : [],
        )
      : [],
  );
  if (prune && stale.size === 0) note(`${relative}: no suppression found unused, nothing to prune\n`);
  if (rules.length === 0 && stale.size === 0) return undefined;
  // The run read the file inside the root, links refused; the edit starts from that text.
  const before = current?.text;
  let text = before;
  let changes = 0;
  try {
    if (stale.size > 0 && text !== undefined) {
      const pruned = removeSuppressionEntries(text, relative, stale);
      text = pruned.text;
      changes += pruned.removed;
      note(
        `${relative}: removed ${pruned.removed} suppression${pruned.removed === 1 ? '' : 's'} that matched no finding\n`,
      );
    }
    if (rules.length > 0) {
      const accepted = diagnostics.filter(
        (d) =>
          isActive(d) &&
          d.fingerprint !== undefined &&
          d.file !== '.' &&
          rules.some((rule) => matchesPattern(d.rule, rule)),
      );
      const added = addSuppressionEntries(
        text,
        relative,
        accepted.map((d) => ({
          rule: d.rule,
          file: d.file,
          fingerprint: d.fingerprint as string,
          reason: reason.trim(),
        })),
      );
      text = added.text;
      changes += added.added;
      note(
        `${relative}: added ${added.added} suppression${added.added === 1 ? '' : 's'} of ${rules.join(', ')} (${accepted.length} finding${accepted.length === 1 ? '' : 's'})\n`,
      );
    }
  } catch (error) {
    if (error instanceof SuppressionsFileError) throw new UsageError(error.message);
    throw error;
  }
  if (changes === 0 || text === undefined || text === before) return undefined;
  writeFileAtomic(guardedPath(root, relative), text);
  return { path: relative, text };
}

const UNUSED_RULE = 'suppressions/unused';
