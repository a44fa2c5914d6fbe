import type { Diagnostic, Severity, Summary } from '../diagnostics.js';

export interface RuleMeta {
  id: string;
  summary: string;
  severity: Severity;
  /** Longer than the summary: what the rule asks and why (the rule's documentation page). */
  description?: string;
  /** Whether `--fix` can repair its findings. */
  fixable?: boolean;
  /** The rule's page in the rules reference. */
  helpUri?: string;
}

export interface ReportContext {
  summary: Summary;
  /** Every rule that ran, for formats that describe their rules (SARIF, JUnit, the html filter). */
  rules: readonly RuleMeta[];
  toolName: string;
  toolVersion: string;
  color: boolean;
  /** The command that refreshes a findings baseline, when one is in use (said when entries are fixed). */
  baselineUpdate?: string;
  /** Why the run fails (`failing: 2 warnings and --fail-severity warning`); absent when it passes. */
  failure?: string;
  /** The command that applies the fixes findings carry, where the verb has one (`check --fix`). */
  fixCommand?: string;
  /** The text of a corpus file, for formats that show the lines a finding is on (html). */
  source?: (file: string) => string | undefined;
}

export type Reporter = (diagnostics: readonly Diagnostic[], context: ReportContext) => string;
