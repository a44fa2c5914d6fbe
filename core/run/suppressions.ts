/**
 * Suppressions that stay honest. In markdown, a comment on the line before the finding:
 *
 *   <!-- openwop-spec-disable-next-line links/anchor until 2027-01-31 -- the heading lands in #412 -->
 *
 * For JSON and YAML, which have no comment all their formats share, an entry of the suppressions
 * file, keyed by the finding's fingerprint (core/run/fingerprint.ts). Each needs a reason; one
 * may carry an expiry (`until` / `expires`, a UTC date, valid through that day) after which it no
 * longer suppresses and is itself a finding; one that matches nothing is a finding, so the list
 * cannot outlive what it excused.
 */
import type { Corpus } from '../model/index.js';
import { locate, parseJsonText } from '../model/index.js';
import { collector, type Diagnostic, type Report } from '../output/index.js';

export const SUPPRESSION_RULES = [
  {
    id: 'suppressions/invalid',
    summary: 'A suppression names a rule that exists, gives a reason and a well-formed expiry date',
    description:
      'An inline `openwop-spec-disable-next-line` comment or an entry of the suppressions file is read only when it says which rule it silences, why (after ` -- ` inline, `reason` in the file), and, if it expires, on which date (YYYY-MM-DD, UTC). One that cannot be read suppresses nothing.',
    severity: 'error',
  },
  {
    id: 'suppressions/expired',
    summary: 'A suppression is used only until its expiry date',
    description: 'After its `until` (inline) or `expires` (file) date, in UTC, a suppression no longer hides its finding, and is reported here so that the finding is fixed or the date deliberately moved.',
    severity: 'error',
  },
  {
    id: 'suppressions/unused',
    summary: 'Every suppression still matches a finding',
    description: 'A suppression whose finding is gone (fixed, or the text it was keyed to changed) is reported, so that the list of accepted findings shrinks with them. Delete it.',
    severity: 'error',
  },
] as const;

const [INVALID, EXPIRED, UNUSED] = SUPPRESSION_RULES;

export interface Suppression {
  kind: 'inSource' | 'external';
  rules: readonly string[];
  reason: string;
  expires?: string;
  /** Where it is written, for findings about it. */
  at: { file: string; line: number; column: number };
  /** Inline: the line it covers in `file`. */
  line?: number;
  /** External: the finding's file and fingerprint. */
  file?: string;
  fingerprint?: string;
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

const DIRECTIVE = /^<!--\s*openwop-spec-disable-next-line\b([\s\S]*?)-->\s*$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Reads every suppression; malformed ones become findings instead. */
export function readSuppressions(corpus: Corpus, options: SuppressionOptions, report: (rule: string) => Report): Suppression[] {
  const found: Suppression[] = [];
  for (const markdown of corpus.markdownFiles()) {
    for (const node of markdown.htmlNodes) {
      const match = DIRECTIVE.exec(node.value.trim());
      const start = node.position?.start;
      const end = node.position?.end;
      if (!match || !start || !end) continue;
      const at = { file: markdown.path, line: start.line, column: start.column };
      const body = (match[1] ?? '').trim();
      const split = body.indexOf(' -- ');
      const head = (split === -1 ? body.replace(/\s--$/, '') : body.slice(0, split)).trim();
      const reason = split === -1 ? '' : body.slice(split + 4).trim();
      const words = head.split(/[\s,]+/).filter(Boolean);
      const until = words.indexOf('until');
      const expires = until === -1 ? undefined : words[until + 1];
      const rules = until === -1 ? words : [...words.slice(0, until), ...words.slice(until + 2)];
      const problem = problemOf(rules, reason, expires, options.known, 'inline');
      if (problem) {
        report(INVALID.id)({ ...at, messageId: 'malformed-directive', message: problem.message, hint: problem.hint });
        continue;
      }
      found.push({ kind: 'inSource', rules, reason, ...(expires ? { expires } : {}), at, line: end.line + 1 });
    }
  }
  if (options.file) found.push(...readFile(options.file, options.known, report));
  return found;
}

function problemOf(rules: readonly string[], reason: string, expires: string | undefined, known: ReadonlySet<string>, form: 'inline' | 'file'): { message: string; hint: string } | undefined {
  const syntax = form === 'inline' ? 'write <!-- openwop-spec-disable-next-line RULE [until YYYY-MM-DD] -- reason -->' : 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}';
  if (rules.length === 0) return { message: 'suppression names no rule', hint: syntax };
  const unknown = rules.filter((rule) => !known.has(rule));
  if (unknown.length > 0) return { message: `suppression names ${unknown.map((r) => `"${r}"`).join(', ')}, which ${unknown.length === 1 ? 'is not a rule' : 'are not rules'}`, hint: '`openwop-spec rules` lists them' };
  if (!reason) return { message: 'suppression gives no reason', hint: `${syntax}; the reason says why the finding is accepted` };
  if (expires !== undefined && (!DATE.test(expires) || Number.isNaN(Date.parse(`${expires}T00:00:00Z`)))) return { message: `suppression expiry ${JSON.stringify(expires)} is not a date (YYYY-MM-DD)`, hint: syntax };
  return undefined;
}

function readFile(source: { path: string; text: string }, known: ReadonlySet<string>, report: (rule: string) => Report): Suppression[] {
  const parsed = parseJsonText(source.text);
  const out: Suppression[] = [];
  const value = parsed.value as { suppressions?: unknown } | undefined;
  if (parsed.problems.length > 0 || !parsed.doc || typeof value !== 'object' || value === null || !Array.isArray(value.suppressions)) {
    const problem = parsed.problems[0];
    report(INVALID.id)({
      file: source.path,
      line: problem?.line ?? 1,
      column: problem?.column ?? 1,
      messageId: 'malformed-file', message: problem ? `the suppressions file does not parse: ${problem.message}` : 'the suppressions file is not {"suppressions": [...]}',
      hint: 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}; `check --format json` prints every finding\'s fingerprint',
    });
    return out;
  }
  value.suppressions.forEach((entry: unknown, index: number) => {
    const where = locate(parsed, ['suppressions', index], 'value');
    const at = { file: source.path, line: where.line, column: where.column };
    const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
    const text = (key: string): string | undefined => (typeof e[key] === 'string' ? (e[key] as string) : undefined);
    const rule = text('rule');
    const problem =
      text('file') === undefined || text('fingerprint') === undefined
        ? { message: 'suppression entry has no "file" or no "fingerprint"', hint: 'each entry is {"rule", "file", "fingerprint", "reason", "expires"?}; `check --format json` prints every finding\'s fingerprint' }
        : problemOf(rule ? [rule] : [], text('reason')?.trim() ?? '', e.expires === undefined ? undefined : String(e.expires), known, 'file');
    if (problem) {
      report(INVALID.id)({ ...at, messageId: 'malformed-entry', message: problem.message, hint: problem.hint });
      return;
    }
    const expires = text('expires');
    out.push({ kind: 'external', rules: [rule as string], reason: (text('reason') as string).trim(), ...(expires ? { expires } : {}), at, file: text('file') as string, fingerprint: text('fingerprint') as string });
  });
  return out;
}

/**
 * Marks each diagnostic a live suppression matches, and adds the findings about the suppressions
 * themselves (malformed, expired, unused). Those are never suppressed: they are the audit trail.
 */
export function applySuppressions(corpus: Corpus, diagnostics: readonly Diagnostic[], options: SuppressionOptions): Diagnostic[] {
  const meta: Diagnostic[] = [];
  const report = (rule: string): Report => collector(rule, 'error', meta);
  const suppressions = readSuppressions(corpus, options, report);
  const used = new Set<Suppression>();
  const live = suppressions.filter((s) => {
    if (s.expires === undefined || s.expires >= options.today) return true;
    used.add(s);
    if (!s.rules.some((rule) => options.ran.has(rule))) return false;
    report(EXPIRED.id)({ ...s.at, messageId: 'expired', data: { rules: s.rules.join(', '), expires: String(s.expires) }, message: `suppression of ${s.rules.join(', ')} expired on ${s.expires} (${s.reason})`, hint: 'fix the finding it hid, or set a later date if the reason still holds' });
    return false;
  });
  const out = diagnostics.map((d) => {
    const match = live.find((s) => s.rules.includes(d.rule) && (s.kind === 'inSource' ? s.at.file === d.file && s.line === d.line : s.file === d.file && s.fingerprint === d.fingerprint));
    if (!match) return d;
    used.add(match);
    return { ...d, suppression: { kind: match.kind, justification: match.reason } };
  });
  for (const s of suppressions) {
    if (used.has(s)) continue;
    const target = s.kind === 'inSource' ? s.at.file : (s.file as string);
    if (!s.rules.every((rule) => options.ran.has(rule)) || (options.inScope && !options.inScope(target))) continue;
    report(UNUSED.id)({
      ...s.at,
      messageId: 'unused', data: { rules: s.rules.join(', ') }, message: s.kind === 'inSource' ? `suppression of ${s.rules.join(', ')} matches no finding on line ${s.line}` : `suppression of ${s.rules.join(', ')} in ${s.file} matches no finding (fingerprint ${s.fingerprint})`,
      hint: 'the finding is gone or its text changed: delete the suppression',
    });
  }
  return [...out, ...meta];
}
