/** A finding, as data: every reporter, the exit code and the fixer read only this. */
import type { Locatable, Span } from './positions.js';

export type Severity = 'error' | 'warning';

/** A replacement of the bytes [start, end) of `file` (UTF-16 offsets into its text). */
export interface Fix {
  start: number;
  end: number;
  text: string;
}

export interface Diagnostic {
  rule: string;
  severity: Severity;
  /** Relative to the corpus root, `/` separators. */
  file: string;
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  message: string;
  /**
   * What the finding says, as a stable id of its rule's messages (`no-anchor`, `gate-failed`):
   * what code decides by (the engine, the cascade, tests), since the wording may change.
   */
  messageId?: string;
  /** The values the message is rendered from (the file, the anchor, the code), by name. */
  data?: Readonly<Record<string, string | number | boolean>>;
  hint?: string;
  fix?: Fix;
  /** Other places the finding involves: the generated text a source problem shows up in. */
  related?: RelatedLocation[];
  /** Set when a suppression accepts the finding: it is counted and carried, never failing. */
  suppression?: { kind: 'inSource' | 'external'; justification: string };
  /** Against a findings baseline: `new` fails, `unchanged` is accepted, `absent` was fixed. */
  baselineState?: 'new' | 'unchanged' | 'absent';
  /** Stable across edits elsewhere in the file: rule, file and the located text, no line number. */
  fingerprint?: string;
}

interface RelatedLocation {
  file: string;
  line: number;
  column: number;
  message?: string;
}

/** What a finding says, whichever way its place is given. */
interface FindingBody {
  /** The words; a gate with a `messages` map may leave them out and give `messageId` and `data`. */
  message?: string;
  /** See Diagnostic.messageId. */
  messageId?: string;
  /** See Diagnostic.data. */
  data?: Readonly<Record<string, string | number | boolean>>;
  hint?: string;
  fix?: Fix;
  severity?: Severity;
  related?: RelatedLocation[];
}

/**
 * What a rule hands to `report`, its place given as a file and a line and column already worked
 * out (absent: the file's start); its own id and default severity fill the rest.
 */
export interface Finding extends FindingBody {
  file: string;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  location?: never;
}

/** A finding whose place is a location of the model, resolved to a line and column when it is collected. */
interface LocatedFinding extends FindingBody {
  location: Locatable;
  file?: never;
  line?: never;
  column?: never;
  endLine?: never;
  endColumn?: never;
}

/** Either form a rule may hand to `report`. */
export type ReportedFinding = Finding | LocatedFinding;

/** The file, line and column a finding is at: its location resolved, or the ones it gives. */
export function placeOf(finding: ReportedFinding): Span & { file: string } {
  if (finding.location) return { file: finding.location.file, ...finding.location.resolve() };
  return {
    file: finding.file,
    line: finding.line ?? 1,
    column: finding.column ?? 1,
    endLine: finding.endLine,
    endColumn: finding.endColumn,
  };
}

export type Report = (finding: ReportedFinding) => void;

export interface Summary {
  errors: number;
  warnings: number;
  files: number;
  /** Findings a suppression accepted (not in errors or warnings). */
  suppressed?: number;
  /** Against a findings baseline: findings it accepted, and its entries no longer found. */
  baseline?: { unchanged: number; fixed: number };
  /** Warnings found but not shown (--quiet); they still count for --max-warnings. */
  hiddenWarnings?: number;
}

function compareDiagnostics(a: Diagnostic, b: Diagnostic): number {
  return (
    compareStrings(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compareStrings(a.rule, b.rule) ||
    compareStrings(a.message, b.message)
  );
}

/** Code-unit order, never locale order: output must not depend on the machine's locale. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortDiagnostics(diagnostics: Diagnostic[]): Diagnostic[] {
  return [...diagnostics].sort(compareDiagnostics);
}

/** Whether a finding counts: not suppressed, and not accepted or gone by a findings baseline. */
export function isActive(d: Diagnostic): boolean {
  return d.suppression === undefined && (d.baselineState === undefined || d.baselineState === 'new');
}

export function summarize(diagnostics: readonly Diagnostic[], files: number): Summary {
  let errors = 0;
  let warnings = 0;
  let suppressed = 0;
  let unchanged = 0;
  let fixed = 0;
  let baseline = false;
  for (const d of diagnostics) {
    if (d.baselineState !== undefined) baseline = true;
    if (d.suppression) suppressed++;
    else if (d.baselineState === 'unchanged') unchanged++;
    else if (d.baselineState === 'absent') fixed++;
    else if (d.severity === 'error') errors++;
    else warnings++;
  }
  return { errors, warnings, files, suppressed, ...(baseline ? { baseline: { unchanged, fixed } } : {}) };
}

/**
 * Collects findings of one rule into diagnostics. A severity the config set (`override`) applies
 * to every finding of the rule, as a linter's does; otherwise a finding may say its own.
 */
export function collector(rule: string, severity: Severity, sink: Diagnostic[], override = false): Report {
  return (finding) => {
    const place = placeOf(finding);
    const diagnostic: Diagnostic = {
      rule,
      severity: override ? severity : (finding.severity ?? severity),
      file: place.file,
      line: place.line,
      column: place.column,
      message: finding.message ?? renderMessage(finding.messageId ?? '', finding.data),
    };
    if (place.endLine !== undefined) diagnostic.endLine = place.endLine;
    if (place.endColumn !== undefined) diagnostic.endColumn = place.endColumn;
    if (finding.messageId !== undefined) diagnostic.messageId = finding.messageId;
    if (finding.data !== undefined) diagnostic.data = finding.data;
    if (finding.hint !== undefined) diagnostic.hint = finding.hint;
    if (finding.fix !== undefined) diagnostic.fix = finding.fix;
    if (finding.related !== undefined) diagnostic.related = finding.related;
    sink.push(diagnostic);
  };
}

/** A message template worded with its data: `{{name}}` stands for `data.name` (left as it is when data has none). */
export function renderMessage(template: string, data: Finding['data'] = {}): string {
  return template.replace(/\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(data, name) ? String(data[name]) : whole,
  );
}
