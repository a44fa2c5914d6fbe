/**
 * The types @openwop/spec/verify exposes. They live apart, importing nothing but the verify
 * shapes of shipped/verify.ts, so that a consumer's `tsc --strict` compiles them with nothing
 * installed: no type here may name a Node.js type (Buffer, KeyObject), which would need @types/node.
 */

/**
 * The verify API's shapes are declared once, by the verifier @openwop/spec-artifacts carries
 * (which imports nothing but Node.js built-ins and names no Node.js type), and are the same here.
 */
export type { VerifyOptions, VerifyProblem, VerifyProblemKind, VerifyResult } from './shipped/verify.js';

/** Where a change is in one release. */
export interface DiffPlace {
  file: string;
  line?: number;
}

/** One change of a release diff, as `openwop-spec diff --format json` writes it. */
export interface DiffChange {
  level: 'breaking' | 'additive' | 'editorial';
  rule: string;
  file: string;
  line?: number;
  before: DiffPlace | null;
  after: DiffPlace | null;
  message: string;
  /** The changed inputs of the generator that writes `file`, or the registry change it restates. */
  derivedFrom?: string[];
  /** For a schema change: who writes what it constrains (clients: request; hosts: response). */
  direction?: 'request' | 'response' | 'both' | 'unknown';
  /** For a cited heading renamed or removed: every place that cites it in the old release. */
  citedFrom?: string[];
  /** Set when the config's `diff` section gave the change its level. */
  configured?: boolean;
}

export interface DiffReport {
  package: string;
  from: { label: string; version: string | undefined; digest?: string | undefined };
  to: { label: string; version: string | undefined; digest?: string | undefined };
  counts: { breaking: number; additive: number; editorial: number };
  required: 'major' | 'minor' | 'patch' | 'none';
  semver?: { ok: boolean; bump: string | undefined; required: string; message: string };
  changes: DiffChange[];
}
