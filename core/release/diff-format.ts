/**
 * The five forms of a release diff: `stylish` for a terminal, `json` for machines, `markdown`
 * release notes (by impact, then by family, each change with its place in both releases),
 * `github` annotations on the lines of the new release, and `patch`: a git-style patch (`diff --git a/<path> b/<path>`, paths relative
 * to the corpus root) under an `@openwop/spec-artifacts OLD → NEW` title, which `git apply` (or
 * `patch -p1`) applies to the old release to give the new.
 *
 * A release's ids, paths and messages are untrusted text: stylish and markdown show its control,
 * bidi and invisible characters as escapes (a cursor-up sequence could hide the breaking lines of
 * a review) and break up CI-log commands; json keeps the values and escapes them the same way.
 */
import { escapeCell } from '../markdown/index.js';
import { REPORTERS, safeJson, visible, type Diagnostic } from '../output/index.js';
import { LEVELS, type Change, type Level, type ReleaseDiff } from './diff.js';
import type { Release } from './source.js';
import { PACKAGE_NAME } from './stamp.js';
import { unifiedHunks } from './unified-diff.js';

export const DIFF_FORMATS = ['stylish', 'json', 'markdown', 'github', 'patch'] as const;
export type DiffFormat = (typeof DIFF_FORMATS)[number];

const HEADINGS: Record<Level, string> = {
  breaking: 'Breaking changes',
  additive: 'Additions',
  editorial: 'Editorial changes',
};

function title(diff: ReleaseDiff): string {
  return visible(`${PACKAGE_NAME} ${diff.from.version ?? diff.from.label} → ${diff.to.version ?? diff.to.label}`);
}

function where(change: Change): string {
  const at = (place: { file: string; line: number | undefined }) =>
    place.line === undefined ? place.file : `${place.file}:${place.line}`;
  const here = at(change);
  return visible(placeOf(change, here, at));
}

function placeOf(
  change: Change,
  here: string,
  at: (place: { file: string; line: number | undefined }) => string,
): string {
  // The other release's place, when it says more than the file name already does.
  const other =
    change.before && at(change.before) !== here
      ? change.before
      : change.after && at(change.after) !== here
        ? change.after
        : undefined;
  if (!other || (other.line === undefined && other.file === change.file)) return here;
  return `${here} (${other === change.before ? 'was' : 'now'} ${at(other)})`;
}

export function formatStylish(diff: ReleaseDiff, verdict?: string): string {
  const lines = [title(diff), ''];
  for (const level of LEVELS) {
    const counted = diff.changes.filter((change) => change.level === level && !change.derivedFrom);
    if (counted.length === 0) continue;
    lines.push(`${level} (${counted.length})`);
    for (const change of counted) lines.push(`  ${where(change)}  ${visible(change.message)}  ${visible(change.rule)}`);
    lines.push('');
  }
  const derived = diff.changes.filter((change) => change.derivedFrom);
  if (derived.length > 0) {
    lines.push(`restating the changes above, not counted again (${derived.length})`);
    for (const change of derived)
      lines.push(
        `  ${where(change)}  ${change.level}  ${visible(change.message)}  ${visible(change.rule)} (from ${visible(change.derivedFrom?.join(', ') ?? '')})`,
      );
    lines.push('');
  }
  const { breaking, additive, editorial } = diff.counts;
  lines.push(
    breaking + additive + editorial === 0
      ? 'no changes'
      : `${breaking} breaking, ${additive} additive, ${editorial} editorial: ${diff.required === 'none' ? 'no' : `a ${diff.required}`} version bump required`,
  );
  if (verdict) lines.push(verdict);
  return `${lines.join('\n')}\n`;
}

export function formatDiffJson(
  diff: ReleaseDiff,
  semver?: { ok: boolean; bump: string | undefined; required: string; message: string },
): string {
  const value = {
    package: PACKAGE_NAME,
    from: diff.from,
    to: diff.to,
    counts: diff.counts,
    required: diff.required,
    ...(semver ? { semver } : {}),
    changes: diff.changes.map((change) => ({
      level: change.level,
      rule: change.rule,
      file: change.file,
      ...(change.line !== undefined ? { line: change.line } : {}),
      before: change.before
        ? { file: change.before.file, ...(change.before.line !== undefined ? { line: change.before.line } : {}) }
        : null,
      after: change.after
        ? { file: change.after.file, ...(change.after.line !== undefined ? { line: change.after.line } : {}) }
        : null,
      message: change.message,
      ...(change.derivedFrom ? { derivedFrom: change.derivedFrom } : {}),
      ...(change.direction ? { direction: change.direction } : {}),
      ...(change.citedFrom ? { citedFrom: change.citedFrom } : {}),
      ...(change.configured ? { configured: true } : {}),
    })),
  };
  return `${safeJson(JSON.stringify(value, null, 2))}\n`;
}

/** The families of change rules, by the prefix of their ids, as release notes title them. */
const FAMILIES: Record<string, string> = {
  error: 'Error codes',
  event: 'Event types',
  operation: 'Operations',
  header: 'Headers',
  parameter: 'Parameters',
  body: 'Request bodies',
  channel: 'Event channels',
  schema: 'Schemas',
  requirement: 'Requirements',
  heading: 'Cited headings',
  document: 'Documents',
  file: 'Other files',
};

const familyTitle = (rule: string): string =>
  FAMILIES[rule.slice(0, rule.indexOf('/'))] ?? rule.slice(0, rule.indexOf('/'));

/** `was file:line, now file:line`: where a change is in each release that has it. */
function bothPlaces(change: Change): string {
  const at = (place: { file: string; line: number | undefined }) =>
    `\`${visible(place.line === undefined ? place.file : `${place.file}:${place.line}`).replace(/`/g, "'")}\``;
  // A place with no line in the same file as the other place's line says nothing more.
  const says = (
    place: { file: string; line: number | undefined } | undefined,
    other: { file: string; line: number | undefined } | undefined,
  ) => place !== undefined && !(place.line === undefined && other?.file === place.file && other.line !== undefined);
  const parts = [
    says(change.before, change.after) && change.before ? `was ${at(change.before)}` : undefined,
    says(change.after, change.before) && change.after ? `now ${at(change.after)}` : undefined,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : at(change);
}

export function formatMarkdown(diff: ReleaseDiff): string {
  const lines = [`# ${title(diff)}`, ''];
  const { breaking, additive, editorial } = diff.counts;
  lines.push(
    breaking + additive + editorial === 0
      ? 'No changes.'
      : `${breaking} breaking, ${additive} additive and ${editorial} editorial change${breaking + additive + editorial === 1 ? '' : 's'}; ${diff.required === 'none' ? 'no' : `a ${diff.required}`} version bump is required.`,
    '',
  );
  for (const level of LEVELS) {
    const counted = diff.changes.filter((change) => change.level === level && !change.derivedFrom);
    if (counted.length === 0) continue;
    lines.push(`## ${HEADINGS[level]}`, '');
    const families = [...new Set(counted.map((change) => familyTitle(change.rule)))];
    for (const family of families) {
      lines.push(`### ${family}`, '');
      for (const change of counted.filter((entry) => familyTitle(entry.rule) === family))
        lines.push(
          `- ${escapeCell(visible(change.message))} (${bothPlaces(change)}; ${visible(change.rule)}${change.configured ? ', impact set by the config' : ''})`,
        );
      lines.push('');
    }
  }
  const derived = diff.changes.filter((change) => change.derivedFrom);
  if (derived.length > 0) {
    lines.push(
      '## Restated in generated files',
      '',
      'These follow from the changes above and are not counted again.',
      '',
    );
    for (const change of derived)
      lines.push(
        `- ${escapeCell(visible(change.message))} (${bothPlaces(change)}; ${change.level}, ${visible(change.rule)}, from ${change.derivedFrom?.map((file) => `\`${visible(file).replace(/`/g, "'")}\``).join(', ')})`,
      );
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/**
 * GitHub Actions annotations, one per counted breaking (error) or additive (warning) change, on
 * its line in the new release; what was removed is annotated where it would be. Editorial and
 * restated changes are not annotated. Written by the findings' own github reporter, so they are
 * escaped as every annotation is.
 */
export function formatGithub(diff: ReleaseDiff): string {
  const diagnostics: Diagnostic[] = diff.changes
    .filter((change) => !change.derivedFrom && change.level !== 'editorial')
    .map((change) => {
      const place = change.after ?? change;
      return {
        rule: `diff/${change.rule}`,
        severity: change.level === 'breaking' ? 'error' : 'warning',
        file: place.file,
        line: place.line ?? 1,
        column: 1,
        message: `${change.level}: ${change.message}`,
        ...(change.before && change.after && change.before.line !== undefined
          ? { hint: `was ${change.before.file}:${change.before.line}` }
          : {}),
      };
    });
  const reporter = REPORTERS.github;
  if (!reporter) return '';
  const summary = {
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    files: new Set(diagnostics.map((d) => d.file)).size,
  };
  const annotations = reporter(diagnostics, {
    summary,
    rules: [],
    toolName: PACKAGE_NAME,
    toolVersion: diff.to.version ?? '',
    color: false,
  })
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('::notice '));
  // The reporter's closing notice counts problems; a diff's counts changes. Fixed words and numbers only: nothing to escape.
  const { breaking, additive, editorial } = diff.counts;
  const verdict = `${breaking} breaking, ${additive} additive, ${editorial} editorial: ${diff.required === 'none' ? 'no' : `a ${diff.required}`} version bump required`;
  return `${[...annotations, `::notice title=${PACKAGE_NAME} diff::${verdict}`].join('\n')}\n`;
}

export function formatPatch(diff: ReleaseDiff, before: Release, after: Release): string {
  // git apply skips text before the first `diff --git`, so the title costs nothing.
  const parts = [`${title(diff)}`, ''];
  for (const file of diff.changedFiles) {
    const a = before.files.get(file);
    const b = after.files.get(file);
    parts.push(`diff --git a/${file} b/${file}`);
    if (!a) parts.push('new file mode 100644');
    if (!b) parts.push('deleted file mode 100644');
    if ((a && isBinary(a)) || (b && isBinary(b))) {
      parts.push(`Binary files ${a ? `a/${file}` : '/dev/null'} and ${b ? `b/${file}` : '/dev/null'} differ`);
      continue;
    }
    const hunks = unifiedHunks(a?.toString('utf8'), b?.toString('utf8'));
    // An empty file added or removed has no hunks, and git writes no ---/+++ lines for it.
    if (hunks === '') continue;
    parts.push(a ? `--- a/${file}` : '--- /dev/null', b ? `+++ b/${file}` : '+++ /dev/null', hunks.replace(/\n$/, ''));
  }
  return `${parts.join('\n')}\n`;
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, 8000).includes(0);
}
