import type { Diagnostic, Severity, Summary } from '../diagnostics.js';

export interface RuleMeta {
  id: string;
  summary: string;
  severity: Severity;
}

export interface ReportContext {
  summary: Summary;
  /** Every rule that ran, for formats that describe their rules (SARIF). */
  rules: readonly RuleMeta[];
  toolName: string;
  toolVersion: string;
  color: boolean;
}

export type Reporter = (diagnostics: readonly Diagnostic[], context: ReportContext) => string;
