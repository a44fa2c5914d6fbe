/**
 * The impacts a config gives change rules (`diff` in openwop-spec.config.json), as a release
 * manager states what a kind of change means in this protocol: by rule id or `family/*`, and per
 * file glob in `overrides` (the last matching override wins, then the top-level impacts; an exact
 * id wins over its family). `off` leaves the change out of the diff.
 */
import picomatch from 'picomatch';
import type { DiffImpact, DiffSettings } from '../config/index.js';
import { DIFF_RULES, summarizeChanges, type Change, type ReleaseDiff } from './diff.js';

export class ImpactConfigError extends Error {}

/** Checks that every rule the settings name exists; throws a one-line error naming the first that does not. */
export function checkImpacts(settings: DiffSettings | undefined): void {
  const families = new Set(Object.keys(DIFF_RULES).map(familyOf));
  const named = [
    ...Object.keys(settings?.impacts ?? {}),
    ...(settings?.overrides ?? []).flatMap((override) => Object.keys(override.impacts)),
  ];
  for (const id of named) {
    const known = id.endsWith('/*') ? families.has(id.slice(0, -2)) : id in DIFF_RULES;
    if (!known)
      throw new ImpactConfigError(
        `config diff: "${id}" names no change rule; \`openwop-spec diff --rules\` lists them`,
      );
  }
}

function familyOf(rule: string): string {
  return rule.slice(0, rule.indexOf('/'));
}

/** The impact the settings give a change, or undefined when they say nothing of it. */
export function configuredImpact(
  settings: DiffSettings | undefined,
  change: Pick<Change, 'rule' | 'file'>,
): DiffImpact | undefined {
  const pick = (impacts: Readonly<Record<string, DiffImpact>>) =>
    impacts[change.rule] ?? impacts[`${familyOf(change.rule)}/*`];
  for (const override of [...(settings?.overrides ?? [])].reverse()) {
    if (!override.files.some((glob) => picomatch(glob, { dot: true })(change.file))) continue;
    const impact = pick(override.impacts);
    if (impact) return impact;
  }
  return settings?.impacts ? pick(settings.impacts) : undefined;
}

/** The diff with the configured impacts applied, and its counts and required bump taken again. */
export function applyImpacts(diff: ReleaseDiff, settings: DiffSettings | undefined): ReleaseDiff {
  if (!settings) return diff;
  checkImpacts(settings);
  const changes: Change[] = [];
  for (const change of diff.changes) {
    const impact = configuredImpact(settings, change);
    if (impact === 'off') continue;
    changes.push(impact && impact !== change.level ? { ...change, level: impact, configured: true } : change);
  }
  return { ...diff, changes, ...summarizeChanges(changes) };
}
