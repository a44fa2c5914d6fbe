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
  /** Every rule that ran, for formats that describe their rules (SARIF). */
  rules: readonly RuleMeta[];
  toolName: string;
  toolVersion: string;
  color: boolean;
  /** The command that refreshes a findings baseline, when one is in use (said when entries are fixed). */
  baselineUpdate?: string;
}

export type Reporter = (diagnostics: readonly Diagnostic[], context: ReportContext) => string;
