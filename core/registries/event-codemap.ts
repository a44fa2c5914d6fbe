/**
 * A typed view of spec/v2/event-codemap.json and what is derived from it: the protocol types,
 * the type-to-payload index, the counts. Readers validate the registry against its schema first
 * (`validateRegistry`); this view is tolerant and skips what it cannot read.
 */
import { type Corpus, type DataFile, isObject } from '../model/index.js';

export const CODEMAP_PATH = 'spec/v2/event-codemap.json';
export const CODEMAP_SCHEMA_PATH = 'spec/v2/event-codemap.schema.json';
export const PAYLOADS_PATH = 'schemas/v2/run-event-payloads.schema.json';
export const RUN_EVENT_PATH = 'schemas/v2/run-event.schema.json';
export const EVENTS_DOC_PATH = 'spec/v2/core/events.md';

interface NamingException {
  form: 'domain.noun';
  /** The row's note, which opens with "artifact event". */
  reason: string;
}

/** An emitted artifact's noun form is recorded in the row's note, which opens with "artifact event" (upstream's convention). */
const ARTIFACT_NOTE = /^\s*artifact event\b/i;

export interface CodemapRow {
  /** Position in `rows`, for locating findings. */
  index: number;
  v1: string;
  /** The v2 type as written in `v2`. */
  v2: string;
  v2Override: string | undefined;
  payloadDef: string;
  status: string;
  review: boolean;
  exception: NamingException | undefined;
  note: string | undefined;
}

export interface EventCodemap {
  file: DataFile;
  grammar: string | undefined;
  vendorGrammar: string | undefined;
  /** SSE frame names that are not event types (`state.snapshot`, `batch`). */
  frames: string[];
  rows: CodemapRow[];
}

/** The generated `counts` of the codemap: the members upstream's codemap carries. */
export interface CodemapCounts {
  rows: number;
  review: number;
  overridden: number;
  renamed: number;
}

export function eventCodemap(corpus: Corpus): EventCodemap | undefined {
  const file = corpus.data(CODEMAP_PATH);
  const value = file?.value;
  if (!file || !isObject(value) || !Array.isArray(value.rows)) return undefined;
  const rows: CodemapRow[] = [];
  value.rows.forEach((row, index) => {
    if (!isObject(row) || typeof row.v2 !== 'string') return;
    const note = typeof row.note === 'string' ? row.note : undefined;
    // Why a row was renamed may be in `note` or, upstream, in the list `notes`.
    const notes = Array.isArray(row.notes)
      ? row.notes.filter((item): item is string => typeof item === 'string' && item.trim() !== '')
      : [];
    const exception: NamingException | undefined =
      note !== undefined && ARTIFACT_NOTE.test(note) ? { form: 'domain.noun', reason: note } : undefined;
    rows.push({
      index,
      v1: typeof row.v1 === 'string' ? row.v1 : row.v2,
      v2: row.v2,
      v2Override: typeof row.v2Override === 'string' ? row.v2Override : undefined,
      payloadDef: typeof row.payloadDef === 'string' ? row.payloadDef : '',
      status: typeof row.status === 'string' ? row.status : '',
      review: row.review === true,
      exception,
      note: note ?? (notes.length > 0 ? notes.join('; ') : undefined),
    });
  });
  return {
    file,
    grammar: typeof value.grammar === 'string' ? value.grammar : undefined,
    vendorGrammar: typeof value.vendorGrammar === 'string' ? value.vendorGrammar : undefined,
    frames: Array.isArray(value.frames) ? value.frames.filter((f): f is string => typeof f === 'string') : [],
    rows,
  };
}

/** The v2 type a row stands for: a hand decision (`v2Override`) wins over `v2`. */
export function effectiveType(row: CodemapRow): string {
  return row.v2Override ?? row.v2;
}

/** Rows that are part of the protocol: only a decided row is emitted. */
export function decidedRows(codemap: EventCodemap): CodemapRow[] {
  return codemap.rows.filter((row) => row.status === 'decided');
}

/** The protocol types, sorted by code unit (generated outputs must not depend on row order). */
export function protocolTypes(codemap: EventCodemap): string[] {
  return [...new Set(decidedRows(codemap).map(effectiveType))].sort(compare);
}

/** The first segments of the protocol types: a vendor org may never be one of these. */
export function protocolDomains(codemap: EventCodemap): Set<string> {
  return new Set(decidedRows(codemap).map((row) => effectiveType(row).split('.')[0] ?? ''));
}

/** `_typeIndex`: v2 type -> `$defs` key, sorted by type; the first row wins on a duplicate. */
export function typeIndex(codemap: EventCodemap): Array<[string, string]> {
  const index = new Map<string, string>();
  for (const row of decidedRows(codemap)) {
    const type = effectiveType(row);
    if (!index.has(type)) index.set(type, row.payloadDef);
  }
  return [...index.entries()].sort((a, b) => compare(a[0], b[0]));
}

export function codemapCounts(codemap: EventCodemap): CodemapCounts {
  return {
    rows: codemap.rows.length,
    review: codemap.rows.filter((row) => row.review).length,
    overridden: codemap.rows.filter((row) => row.v2Override !== undefined).length,
    renamed: codemap.rows.filter((row) => row.v1 !== effectiveType(row)).length,
  };
}

/** Rows whose note records a naming exception, sorted by type. */
export function namingExceptions(codemap: EventCodemap): CodemapRow[] {
  return decidedRows(codemap)
    .filter((row) => row.exception !== undefined)
    .sort((a, b) => compare(effectiveType(a), effectiveType(b)));
}

/** Rows whose v2 type differs from the name a v1 host wrote, sorted by v2 type. */
export function renamedRows(codemap: EventCodemap): CodemapRow[] {
  return decidedRows(codemap)
    .filter((row) => row.v1 !== effectiveType(row))
    .sort((a, b) => compare(effectiveType(a), effectiveType(b)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
