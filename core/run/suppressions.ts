/**
 * Suppressions that stay honest. In markdown, a comment says which rules it silences, where, why,
 * and optionally until when:
 *
 *   <!-- openwop-spec-disable-next-line links/anchor until 2027-01-31 -- the heading lands in #412 -->
 *   <!-- openwop-spec-disable-line RULE -- reason -->      (the line the comment is on)
 *   <!-- openwop-spec-disable RULE -- reason --> … <!-- openwop-spec-enable RULE -->   (a block; to the end of the file when not closed)
 *   <!-- openwop-spec-disable-file RULE -- reason -->      (the whole file)
 *
 * For JSON and YAML, which have no comment all their formats share, an entry of the suppressions
 * file, keyed by the finding's fingerprint (core/run/fingerprint.ts). Each needs a reason; one
 * may carry an expiry (`until` / `expires`, a UTC date, valid through that day) after which it no
 * longer suppresses and is itself a finding; one that matches nothing is a finding, so the list
 * cannot outlive what it excused. A comment addressed to the tool that it does not understand (a
 * misspelt `openwop-spec-disabel-next-line`) is a finding too, never silently ignored.
 */
import type { Corpus } from '../model/index.js';
import { aliasMembers, isRuleAlias, matchesPattern } from '../config/index.js';
import { directiveComments, type DirectiveComment } from '../markdown/index.js';
import { Location, parseJsonText } from '../model/index.js';
import { closest, collector, type Diagnostic, LineIndex, type Report } from '../output/index.js';

export const SUPPRESSION_RULES = [
  {
    id: 'suppressions/invalid',
    summary: 'A suppression names a rule that exists, gives a reason and a well-formed expiry date',
    description:
      'A markdown directive (`openwop-spec-disable`, `-enable`, `-disable-line`, `-disable-next-line`, `-disable-file`) or an entry of the suppressions file is read only when it says which rules it silences (ids or `family/*`), why (after ` -- ` inline, `reason` in the file), and, if it expires, on which date (YYYY-MM-DD, UTC). One that cannot be read suppresses nothing; so does a comment starting `openwop-spec-` that names no directive (a misspelling), and an `enable` that closes no `disable`.',
    severity: 'error',
  },
  {
    id: 'suppressions/expired',
    summary: 'A suppression is used only until its expiry date',
    description:
      'After its `until` (inline) or `expires` (file) date, in UTC, a suppression no longer hides its finding, and is reported here so that the finding is fixed or the date deliberately moved.',
    severity: 'error',
  },
  {
    id: 'suppressions/unused',
    summary: 'Every suppression still matches a finding',
    description:
      'A suppression whose finding is gone (fixed, or the text it was keyed to changed) is reported, so that the list of accepted findings shrinks with them. Delete it.',
    severity: 'error',
  },
] as const;

const [INVALID, EXPIRED, UNUSED] = SUPPRESSION_RULES;

interface Suppression {
  kind: 'inSource' | 'external';
  rules: readonly string[];
  reason: string;
  expires?: string;
  /** Where it is written, for findings about it. */
  at: { file: string; line: number; column: number };
  /** Inline: the lines it covers in `at.file`, inclusive (`to` Infinity: to the end of the file), and the directive that says so. */
  lines?: { from: number; to: number };
  directive?: DirectiveName;
  /** External: the finding's file and fingerprint. */
  file?: string;
  fingerprint?: string;
  /** External: its index in the file's `suppressions` array. */
  index?: number;
}

export interface SuppressionOptions {
  /** Today's date in UTC, YYYY-MM-DD: injected so that expiry is testable without the real clock. */
  today: string;
  /** The rules that ran: a suppression of a rule that did not run cannot be judged unused. */
  ran: ReadonlySet<string>;
  /** Every rule id, to name a misspelt one. */
  known: ReadonlySet<string>;
  /** The suppressions file (root-relative) and its text, when there is one. */
  file?: { path: string; text: string };
  /** Whether findings of a file are judged this run (file arguments narrow it). */
  inScope?: (file: string) => boolean;
}

/** The directives of a markdown comment, as written after `openwop-spec-`. */
const DIRECTIVES = ['disable', 'enable', 'disable-line', 'disable-next-line', 'disable-file'] as const;
type DirectiveName = (typeof DIRECTIVES)[number];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SYNTAX =
  'write <!-- openwop-spec-DIRECTIVE RULE… [until YYYY-MM-DD] -- reason --> (disable-next-line, disable-line, disable … enable, disable-file)';

/** Reads every suppression; malformed ones become findings instead. */
function readSuppressions(
  corpus: Corpus,
  options: SuppressionOptions,
  report: (rule: string) => Report,
): Suppression[] {
  const found: Suppression[] = [];
  for (const markdown of corpus.markdownFiles())
    found.push(
      ...readDirectives(markdown.path, directiveComments(markdown.htmlNodes, markdown.text), options.known, report),
    );
  if (options.file) found.push(...readFile(options.file, options.known, report));
  return found;
}

interface ParsedDirective {
  rules: string[];
  reason: string;
  expires?: string;
}

/** `RULE… [until DATE] -- reason`, as a directive's body says it. */
function parseBody(body: string): ParsedDirective {
  const text = body.trim();
  const split = text.search(/(^|\s)--(\s|$)/);
  const head = split === -1 ? text : text.slice(0, split);
  const reason =
    split === -1
      ? ''
      : text
          .slice(split)
          .replace(/^\s*--/, '')
          .trim();
  const words = head.split(/[\s,]+/).filter(Boolean);
  const until = words.indexOf('until');
  const expires = until === -1 ? undefined : words[until + 1];
  const rules = until === -1 ? words : [...words.slice(0, until), ...words.slice(until + 2)];
  return { rules, reason, ...(expires !== undefined ? { expires } : {}) };
}

/** One file's directives as suppressions of line ranges: blocks paired with their `enable`, lines and the file. */
function readDirectives(
  file: string,
  directives: readonly DirectiveComment[],
  known: ReadonlySet<string>,
  report: (rule: string) => Report,
): Suppression[] {
  const found: Suppression[] = [];
  /** Open `disable` blocks: each rule still silenced, with the block it belongs to. */
  const open: Array<{ rules: string[]; parsed: ParsedDirective; at: Suppression['at']; from: number }> = [];
  const close = (block: (typeof open)[number], rules: readonly string[], to: number): void => {
    found.push({
      kind: 'inSource',
      rules: [...rules],
      reason: block.parsed.reason,
      ...(block.parsed.expires ? { expires: block.parsed.expires } : {}),
      at: block.at,
      lines: { from: block.from, to },
      directive: 'disable',
    });
  };
  for (const directive of directives) {
    const at = { file, line: directive.line, column: directive.column };
    const name = directive.name.toLowerCase() as DirectiveName;
    if (!DIRECTIVES.includes(name)) {
      const near = closest(directive.name.toLowerCase(), DIRECTIVES);
      report(INVALID.id)({
        ...at,
        endLine: directive.endLine,
        endColumn: directive.endColumn,
        messageId: 'unknown-directive',
        message: `"openwop-spec-${directive.name}" is not a directive, so this comment suppresses nothing${near ? `; did you mean "openwop-spec-${near}"?` : ''}`,
        hint: SYNTAX,
      });
      continue;
    }
    const parsed = parseBody(directive.body);
    if (name === 'enable') {
      const problem = problemOfRules(parsed.rules, known, { optional: true });
      if (problem) {
        report(INVALID.id)({ ...at, messageId: 'malformed-directive', message: problem.message, hint: problem.hint });
        continue;
      }
      const closing = parsed.rules.length === 0 ? open.flatMap((block) => block.rules) : parsed.rules;
      const unmatched = closing.filter((rule) => !open.some((block) => block.rules.includes(rule)));
      if (closing.length === 0 || unmatched.length > 0) {
        report(INVALID.id)({
          ...at,
          messageId: 'unmatched-enable',
          message:
            closing.length === 0
              ? 'openwop-spec-enable closes no openwop-spec-disable block'
              : `openwop-spec-enable ${unmatched.join(', ')} closes no openwop-spec-disable block of ${unmatched.length === 1 ? 'that rule' : 'those rules'}`,
          hint: 'an enable names rules an earlier openwop-spec-disable in this file silenced (or none, to close every open block)',
        });
        if (closing.length === 0) continue;
      }
      // Over a copy: a block whose rules all close is removed from `open` inside the loop.
      for (const block of open.slice()) {
        const ending = block.rules.filter((rule) => closing.includes(rule));
        if (ending.length === 0) continue;
        close(block, ending, directive.line);
        block.rules = block.rules.filter((rule) => !closing.includes(rule));
        if (block.rules.length === 0) open.splice(open.indexOf(block), 1);
      }
      continue;
    }
    const problem = problemOf(parsed.rules, parsed.reason, parsed.expires, known, 'inline');
    if (problem) {
      report(INVALID.id)({ ...at, messageId: 'malformed-directive', message: problem.message, hint: problem.hint });
      continue;
    }
    if (name === 'disable') {
      open.push({ rules: [...parsed.rules], parsed, at, from: directive.line });
      continue;
    }
    const lines =
      name === 'disable-line'
        ? { from: directive.line, to: directive.endLine }
        : name === 'disable-next-line'
          ? { from: directive.endLine + 1, to: directive.endLine + 1 }
          : { from: 1, to: Infinity };
    found.push({
      kind: 'inSource',
      rules: parsed.rules,
      reason: parsed.reason,
      ...(parsed.expires ? { expires: parsed.expires } : {}),
      at,
      lines,
      directive: name,
    });
  }
  for (const block of open) close(block, block.rules, Infinity);
  return found;
}

/** Whether a suppression's rule (an id, an old id split into several, or `family/*`) covers `rule`. */
const covers = (pattern: string, rule: string): boolean => matchesPattern(rule, pattern);

/**
 * Whether every finding a suppression's rule could match was looked for: an old id split into
 * several rules only when all of them ran (its finding may be one of a rule that did not).
 */
const ranWhole = (pattern: string, ran: ReadonlySet<string>): boolean =>
  isRuleAlias(pattern)
    ? aliasMembers(pattern).every((rule) => ran.has(rule))
    : [...ran].some((id) => covers(pattern, id));

function problemOfRules(
  rules: readonly string[],
  known: ReadonlySet<string>,
  { optional = false } = {},
): { message: string; hint: string } | undefined {
  if (rules.length === 0 && !optional) return { message: 'suppression names no rule', hint: SYNTAX };
  const unknown = rules.filter((rule) => ![...known].some((id) => covers(rule, id)));
  if (unknown.length > 0) {
    const near = unknown.length === 1 ? closest(unknown[0] as string, known) : undefined;
    return {
      message: `suppression names ${unknown.map((r) => `"${r}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a rule' : 'are not rules'}${near ? `; did you mean "${near}"?` : ''}`,
      hint: '`openwop-spec rules` lists them',
    };
  }
  return undefined;
}

function problemOf(
  rules: readonly string[],
  reason: string,
  expires: string | undefined,
  known: ReadonlySet<string>,
  form: 'inline' | 'file',
): { message: string; hint: string } | undefined {
  const syntax = form === 'inline' ? SYNTAX : 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}';
  if (rules.length === 0) return { message: 'suppression names no rule', hint: syntax };
  const rulesProblem = problemOfRules(rules, known);
  if (rulesProblem) return rulesProblem;
  if (!reason)
    return { message: 'suppression gives no reason', hint: `${syntax}; the reason says why the finding is accepted` };
  if (expires !== undefined && (!DATE.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`))))
    return { message: `suppression expiry ${JSON.stringify(expires)} is not a date (YYYY-MM-DD)`, hint: syntax };
  return undefined;
}

function readFile(
  source: { path: string; text: string },
  known: ReadonlySet<string>,
  report: (rule: string) => Report,
): Suppression[] {
  const parsed = parseJsonText(source.text);
  const out: Suppression[] = [];
  const value = parsed.value as { suppressions?: unknown } | undefined;
  if (
    parsed.problems.length > 0 ||
    !parsed.doc ||
    typeof value !== 'object' ||
    value === null ||
    !Array.isArray(value.suppressions)
  ) {
    const problem = parsed.problems[0];
    report(INVALID.id)({
      file: source.path,
      line: problem?.line ?? 1,
      column: problem?.column ?? 1,
      messageId: 'malformed-file',
      message: problem
        ? `the suppressions file does not parse: ${problem.message}`
        : 'the suppressions file is not {"suppressions": [...]}',
      hint: 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}; `check --format json` prints every finding\'s fingerprint',
    });
    return out;
  }
  // The file is not part of the corpus: its entries are located through its own parse and line index.
  const written = { path: source.path, doc: parsed.doc, lines: new LineIndex(source.text), text: source.text };
  value.suppressions.forEach((entry: unknown, index: number) => {
    const where = Location.pointer(written, ['suppressions', index], 'value').resolve();
    const at = { file: source.path, line: where.line, column: where.column };
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const text = (key: string): string | undefined => (typeof e[key] === 'string' ? e[key] : undefined);
    const rule = text('rule');
    const problem =
      text('file') === undefined || text('fingerprint') === undefined
        ? {
            message: 'suppression entry has no "file" or no "fingerprint"',
            hint: 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}; `check --format json` prints every finding\'s fingerprint',
          }
        : problemOf(
            rule ? [rule] : [],
            text('reason')?.trim() ?? '',
            e.expires === undefined ? undefined : typeof e.expires === 'string' ? e.expires : JSON.stringify(e.expires),
            known,
            'file',
          );
    if (problem) {
      report(INVALID.id)({ ...at, messageId: 'malformed-entry', message: problem.message, hint: problem.hint });
      return;
    }
    const expires = text('expires');
    out.push({
      kind: 'external',
      rules: [rule as string],
      reason: (text('reason') as string).trim(),
      ...(expires ? { expires } : {}),
      at,
      file: text('file'),
      fingerprint: text('fingerprint'),
      index,
    });
  });
  return out;
}

/**
 * Marks each diagnostic a live suppression matches, and adds the findings about the suppressions
 * themselves (malformed, expired, unused). Those are never suppressed: they are the audit trail.
 */
export function applySuppressions(
  corpus: Corpus,
  diagnostics: readonly Diagnostic[],
  options: SuppressionOptions,
): Diagnostic[] {
  const meta: Diagnostic[] = [];
  const report = (rule: string): Report => collector(rule, 'error', meta);
  const suppressions = readSuppressions(corpus, options, report);
  const used = new Set<Suppression>();
  const live = suppressions.filter((s) => {
    if (s.expires === undefined || s.expires >= options.today) return true;
    used.add(s);
    if (!s.rules.some((rule) => [...options.ran].some((ran) => covers(rule, ran)))) return false;
    report(EXPIRED.id)({
      ...s.at,
      messageId: 'expired',
      data: { rules: s.rules.join(', '), expires: String(s.expires) },
      message: `suppression of ${s.rules.join(', ')} expired on ${s.expires} (${s.reason})`,
      hint: 'fix the finding it hid, or set a later date if the reason still holds',
    });
    return false;
  });
  const out = diagnostics.map((d) => {
    const match = live.find(
      (s) =>
        s.rules.some((rule) => covers(rule, d.rule)) &&
        (s.kind === 'inSource'
          ? s.at.file === d.file && s.lines !== undefined && d.line >= s.lines.from && d.line <= s.lines.to
          : s.file === d.file && s.fingerprint === d.fingerprint),
    );
    if (!match) return d;
    used.add(match);
    return { ...d, suppression: { kind: match.kind, justification: match.reason } };
  });
  for (const s of suppressions) {
    if (used.has(s)) continue;
    const target = s.kind === 'inSource' ? s.at.file : (s.file as string);
    if (!s.rules.every((rule) => ranWhole(rule, options.ran)) || (options.inScope && !options.inScope(target)))
      continue;
    report(UNUSED.id)({
      ...s.at,
      messageId: 'unused',
      message:
        s.kind === 'inSource'
          ? `suppression of ${s.rules.join(', ')} (openwop-spec-${s.directive}) matches no finding ${describeLines(s.lines)}`
          : `suppression of ${s.rules.join(', ')} in ${s.file} matches no finding (fingerprint ${s.fingerprint})`,
      hint:
        s.kind === 'inSource'
          ? 'the finding is gone or its text changed: delete the comment'
          : 'the finding is gone or its text changed: delete the entry (`openwop-spec check --prune-suppressions` deletes every such entry)',
      // Which entry of the suppressions file, for --prune-suppressions.
      data: {
        rules: s.rules.join(', '),
        ...(s.kind === 'external' && s.index !== undefined ? { entry: s.index } : {}),
      },
    });
  }
  return [...out, ...meta];
}

function describeLines(lines: Suppression['lines']): string {
  if (!lines) return '';
  if (lines.from === 1 && lines.to === Infinity) return 'in the file';
  if (lines.to === Infinity) return `from line ${lines.from} to the end of the file`;
  return lines.from === lines.to ? `on line ${lines.from}` : `on lines ${lines.from}-${lines.to}`;
}

/** An entry of the suppressions file, as `check --suppress` writes it. */
export interface SuppressionEntry {
  rule: string;
  file: string;
  fingerprint: string;
  reason: string;
  expires?: string;
}

/** The suppressions file cannot be edited (it does not parse): the message is one line. */
export class SuppressionsFileError extends Error {}

function suppressionsValue(
  text: string | undefined,
  name: string,
): { suppressions: unknown[] } & Record<string, unknown> {
  if (text === undefined) return { suppressions: [] };
  const parsed = parseJsonText(text);
  const value = parsed.value as { suppressions?: unknown } | undefined;
  if (parsed.problems.length > 0 || typeof value !== 'object' || value === null || !Array.isArray(value.suppressions)) {
    throw new SuppressionsFileError(
      `${name} is not {"suppressions": [...]}${parsed.problems[0] ? ` (line ${parsed.problems[0].line}: ${parsed.problems[0].message})` : ''}; fix it before the tool edits it`,
    );
  }
  return value as { suppressions: unknown[] } & Record<string, unknown>;
}

const render = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The suppressions file's text with `entries` added, in finding order; an entry the file holds
 * already (the same rule, file and fingerprint) is not added twice. `text` undefined: no file yet.
 */
export function addSuppressionEntries(
  text: string | undefined,
  name: string,
  entries: readonly SuppressionEntry[],
): { text: string; added: number } {
  const value = suppressionsValue(text, name);
  const key = (entry: unknown): string => {
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    return JSON.stringify([e.rule, e.file, e.fingerprint]);
  };
  const held = new Set(value.suppressions.map(key));
  const fresh = entries.filter((entry) => {
    const k = key(entry);
    if (held.has(k)) return false;
    held.add(k);
    return true;
  });
  return { text: render({ ...value, suppressions: [...value.suppressions, ...fresh] }), added: fresh.length };
}

/** The suppressions file's text without the entries at `indices` (those found unused). */
export function removeSuppressionEntries(
  text: string,
  name: string,
  indices: ReadonlySet<number>,
): { text: string; removed: number } {
  const value = suppressionsValue(text, name);
  const kept = value.suppressions.filter((_, index) => !indices.has(index));
  return { text: render({ ...value, suppressions: kept }), removed: value.suppressions.length - kept.length };
}
