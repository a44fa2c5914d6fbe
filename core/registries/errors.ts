/**
 * A typed view of spec/v2/errors.json, shared by the generators and gates that read it. The view
 * exists only for a registry that validates against spec/v2/errors.schema.json: nothing derives
 * an artifact from a registry whose shape is wrong.
 */
import { defineService, type Corpus, type DataFile, isObject } from '../model/index.js';
import { type Span } from '../output/index.js';
import type { ErrorObject } from 'ajv';
import { corpusSchemas, describeSchemaError, locateSchemaError, validateRegistry } from '../schemas/index.js';
import { vendorOrgs } from './views.js';

export const ERRORS_PATH = 'spec/v2/errors.json';
export const ERRORS_SCHEMA_PATH = 'spec/v2/errors.schema.json';

/** A registered code: lowercase words joined by `_` (the `code` grammar of errors.schema.json). */
export const CODE_GRAMMAR = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;

/** Retry timing travels in `Retry-After` only; these `details` members do not exist in v2. */
export const RETRY_TIMING_MEMBERS = ['retryAfter', 'retryAfterMs', 'retryAfterSeconds'] as const;

export interface ErrorRow {
  /** Position in `rows`, for locating findings. */
  index: number;
  code: string;
  httpStatus: number;
  statusSource: string;
  retriable: boolean;
  /** The JSON Schema of this code's `details`, or null (any object). */
  details: Record<string, unknown> | null;
  since: string;
  source: string;
  meaning: string | undefined;
  /** Why `retriable` departs from the default of its status class; confirms the departure. */
  retriableException: string | undefined;
  /** Ours records since when and by what; upstream writes `"deprecated": true`, which reads as a record with neither. */
  deprecated: { since?: string; replacedBy?: string; note?: string } | undefined;
}

export interface ErrorsRegistry {
  file: DataFile;
  /** The version of the registry's format, never a release: a row's `since` may be later. */
  version: string;
  vendorCodePattern: string;
  rows: ErrorRow[];
}

type ErrorsRegistryFinding = Span & {
  file: string;
  message: string;
  messageId?: string;
  data?: Readonly<Record<string, string | number>>;
};

export type ErrorsRegistryRead =
  | { state: 'absent' }
  | { state: 'invalid'; findings: ErrorsRegistryFinding[] }
  | { state: 'valid'; registry: ErrorsRegistry };

/** The error registry, read and validated against its schema once per corpus. */
const ErrorRegistry = defineService('error registry', readUncached);

/** The registry, once it has validated against its schema; the findings that stop it otherwise. */
export function readErrorsRegistry(corpus: Corpus): ErrorsRegistryRead {
  return corpus.service(ErrorRegistry);
}

function readUncached(corpus: Corpus): ErrorsRegistryRead {
  const raw = corpus.get(ERRORS_PATH);
  if (!raw) return { state: 'absent' };
  const file = corpus.data(ERRORS_PATH);
  if (!file) {
    const problem = raw.problems[0];
    return {
      state: 'invalid',
      findings: [
        {
          file: ERRORS_PATH,
          line: problem?.line ?? 1,
          column: problem?.column ?? 1,
          message: `does not parse${problem ? `: ${problem.message}` : ''}`,
        },
      ],
    };
  }
  const findings = validateRegistry(corpus, ERRORS_PATH, ERRORS_SCHEMA_PATH);
  if (findings.length > 0) return { state: 'invalid', findings };
  const value = file.value as Record<string, unknown>;
  const rows = (value.rows as Array<Record<string, unknown>>).map((row, index): ErrorRow => ({
    index,
    code: row.code as string,
    httpStatus: row.httpStatus as number,
    statusSource: row.statusSource as string,
    retriable: row.retriable as boolean,
    details: isObject(row.details) ? row.details : null,
    since: row.since as string,
    source: row.source as string,
    meaning: typeof row.meaning === 'string' ? row.meaning : undefined,
    retriableException: typeof row.retriableException === 'string' ? row.retriableException : undefined,
    deprecated: isObject(row.deprecated)
      ? (row.deprecated as ErrorRow['deprecated'])
      : row.deprecated === true
        ? {}
        : undefined,
  }));
  return {
    state: 'valid',
    registry: { file, version: value.version as string, vendorCodePattern: value.vendorCodePattern as string, rows },
  };
}

/**
 * Whether a status class makes a code retriable by default: `429` and every `5xx` are, every
 * other `4xx` is not. A row that departs from this records why (`retriableException`).
 */
export function retriableByDefault(httpStatus: number): boolean {
  return httpStatus === 429 || (httpStatus >= 500 && httpStatus <= 599);
}

export interface VendorCodeRule {
  /** The pattern a vendor code matches; undefined when no org is registered, so no vendor code is valid. */
  pattern: string | undefined;
  /** The registered orgs, or undefined when spec/v2/declaration.json does not exist (any org the pattern admits). */
  orgs: string[] | undefined;
}

/**
 * The vendor branch of `error`. Without spec/v2/declaration.json it is the registry's
 * `vendorCodePattern`; with it, the same pattern restricted by a lookahead to the registered orgs,
 * so the registry's own exclusions (the reserved `openwop.` prefix) still apply.
 */
export function vendorCodeRule(corpus: Corpus, registry: Pick<ErrorsRegistry, 'vendorCodePattern'>): VendorCodeRule {
  const orgs = vendorOrgs(corpus);
  if (!orgs) return { pattern: registry.vendorCodePattern, orgs: undefined };
  if (orgs.registered.length === 0) return { pattern: undefined, orgs: [] };
  // errors.schema.json holds vendorCodePattern to `^…$`, so the lookahead can follow its anchor.
  const body = registry.vendorCodePattern.startsWith('^')
    ? registry.vendorCodePattern.slice(1)
    : registry.vendorCodePattern;
  return { pattern: `^(?=(?:${orgs.registered.map(escapeRegExp).join('|')})\\.)${body}`, orgs: orgs.registered };
}

/** Escapes the syntax characters only: JSON Schema patterns compile with the `u` flag, which refuses needless escapes such as `\-`. */
export function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

export interface SchemaViolation extends ErrorsRegistryFinding {
  /**
   * The JSON pointer of what is wrong: the instance path, extended by the missing or extra
   * property for `required` and `additionalProperties`, so a gate can tell which field it is about.
   */
  subject: string;
}

/**
 * The violations of errors.schema.json one by one, for a gate that words some of them better
 * itself. Undefined when the registry is absent or does not parse (corpus/parse reports that).
 */
export function errorsSchemaViolations(corpus: Corpus): SchemaViolation[] | undefined {
  const file = corpus.data(ERRORS_PATH);
  if (!file) return undefined;
  const schemas = corpusSchemas(corpus);
  let validate;
  try {
    validate = schemas.idOf(ERRORS_SCHEMA_PATH) ? schemas.validator(ERRORS_SCHEMA_PATH) : undefined;
  } catch {
    validate = undefined;
  }
  if (!validate) {
    // validateRegistry words this case; it has one finding and no subject.
    return validateRegistry(corpus, ERRORS_PATH, ERRORS_SCHEMA_PATH).map((finding) => ({ ...finding, subject: '' }));
  }
  if (validate(file.value)) return [];
  return (validate.errors ?? []).map((error: ErrorObject) => ({
    ...locateSchemaError(file, error),
    messageId: 'schema-mismatch',
    data: { schema: ERRORS_SCHEMA_PATH, against: ERRORS_SCHEMA_PATH, error: describeSchemaError(error) },
    message: `does not match ${ERRORS_SCHEMA_PATH}: ${describeSchemaError(error)}`,
    subject: subjectOf(error),
  }));
}

function subjectOf(error: ErrorObject): string {
  if (error.keyword === 'required') return `${error.instancePath}/${String(error.params.missingProperty)}`;
  if (error.keyword === 'additionalProperties')
    return `${error.instancePath}/${String(error.params.additionalProperty)}`;
  return error.instancePath;
}
