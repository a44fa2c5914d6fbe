/**
 * The types @openwop/spec/verify exposes. They live apart, importing nothing, so that a
 * consumer's `tsc --strict` compiles them with nothing installed: no type here may name a
 * Node.js type (Buffer, KeyObject), which would need @types/node.
 */

export type VerifyProblemKind = 'missing' | 'altered' | 'unlisted' | 'entry' | 'stamp' | 'digest' | 'package' | 'signature';

export interface VerifyProblem {
  kind: VerifyProblemKind;
  /** The file the problem is about, relative to the package root. */
  file: string;
  message: string;
}

export interface VerifyResult {
  ok: boolean;
  target: string;
  kind: 'package' | 'repository';
  package: string | undefined;
  version: string | undefined;
  /** The digest recomputed from the stamp's file list (undefined without a readable stamp). */
  digest: string | undefined;
  /** Files compared against a record. */
  files: number;
  /** The fingerprint (`sha256:` of its SubjectPublicKeyInfo) of the key whose signature verified. */
  signedBy?: string;
  problems: VerifyProblem[];
}

export interface VerifyOptions {
  /** The digest the consumer pinned: `sha256:<hex>` (or the bare hex). */
  digest?: string;
  /** A PEM file with the release key the consumer pinned: the release must carry its signature. */
  publicKey?: string;
  /** The DSSE envelope; by default `<tarball>.dsse.json` beside a tarball (a directory must name one). */
  signature?: string;
}

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
  /** The changed inputs of the generator that writes `file`, when the change follows from them. */
  derivedFrom?: string[];
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
