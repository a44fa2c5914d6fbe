/**
 * The evidence registries (conformance.md): requirements and their aliases, the security
 * invariants, the witness baseline, and the witness classes every family, requirement and
 * invariant carries. Tolerant typed views: an absent registry is undefined; validate first.
 */
import { type Corpus, type DataFile, type PathSegment, isObject } from '../model/index.js';
import { DECLARATION_PATH, declarationFamilies } from './views.js';

export const REQUIREMENTS = 'conformance/requirements.json';
export const REQUIREMENTS_SCHEMA = 'spec/v2/requirements.schema.json';
export const REQUIREMENT_ALIASES = 'conformance/requirement-aliases.json';
export const REQUIREMENT_ALIASES_SCHEMA = 'spec/v2/requirement-aliases.schema.json';
export const INVARIANTS = 'SECURITY/invariants.yaml';
export const INVARIANTS_SCHEMA = 'spec/v2/invariants.schema.json';
export const WITNESS_BASELINE = 'docs/witness-baseline.json';
export const WITNESS_BASELINE_SCHEMA = 'spec/v2/witness-baseline.schema.json';

/** The class allowed on requirements and invariants only: no observation path exists. */
export const UNWITNESSABLE = 'unwitnessable';
export const SEAM_GATED = 'seam-gated';

/**
 * The five classes of conformance.md §"Witness class" that a family may carry. The declaration's
 * `witnessClasses` is authoritative; this is what holds while no declaration exists yet.
 */
const DOCUMENTED_WITNESS_CLASSES = [
  'witnessable-unaided',
  'witnessable-gated',
  'seam-gated',
  'claims-check',
  'negative-existence',
] as const;

interface RequirementCitation {
  section: string;
  path: PathSegment[];
}

export interface RequirementRecord {
  id: string;
  witness: string | undefined;
  rationale: string | null | undefined;
  tests: string[] | undefined;
  citations: RequirementCitation[];
  /** The record's path in requirements.json. */
  path: PathSegment[];
}

export function requirementRecords(file: DataFile | undefined): RequirementRecord[] | undefined {
  const value = file?.value;
  if (!isObject(value) || !Array.isArray(value.records)) return undefined;
  return value.records.flatMap((record, index) => {
    if (!isObject(record) || typeof record.id !== 'string') return [];
    const citations = Array.isArray(record.citations)
      ? record.citations.flatMap((citation, at) =>
          isObject(citation) && typeof citation.section === 'string'
            ? [{ section: citation.section, path: ['records', index, 'citations', at, 'section'] }]
            : [],
        )
      : [];
    return [
      {
        id: record.id,
        witness: str(record.witness),
        rationale: rationaleOf(record.rationale),
        tests: strings(record.tests),
        citations,
        path: ['records', index],
      },
    ];
  });
}

export interface InvariantRow {
  id: string;
  tier: string | undefined;
  witness: string | undefined;
  /** Written `non_testability_rationale` in the file (security.md), the name upstream's registry uses. */
  rationale: string | null | undefined;
  tests: string[] | undefined;
  path: PathSegment[];
}

export function invariantRows(corpus: Corpus): InvariantRow[] | undefined {
  const value = corpus.data(INVARIANTS)?.value;
  if (!isObject(value) || !Array.isArray(value.invariants)) return undefined;
  return value.invariants.flatMap((row, index) =>
    isObject(row) && typeof row.id === 'string'
      ? [
          {
            id: row.id,
            tier: str(row.tier),
            witness: str(row.witness),
            rationale: rationaleOf(row.non_testability_rationale),
            tests: strings(row.tests),
            path: ['invariants', index],
          },
        ]
      : [],
  );
}

/** The aliases map (old id -> new id) with each row's path, or undefined while the file is absent. */
export function requirementAliases(corpus: Corpus): Map<string, { target: string; path: PathSegment[] }> | undefined {
  const value = corpus.data(REQUIREMENT_ALIASES)?.value;
  if (!isObject(value) || !isObject(value.aliases)) return undefined;
  const aliases = new Map<string, { target: string; path: PathSegment[] }>();
  for (const [from, to] of Object.entries(value.aliases))
    if (typeof to === 'string') aliases.set(from, { target: to, path: ['aliases', from] });
  return aliases;
}

export interface WitnessCounts {
  seamGated: number;
  unwitnessable: number;
}

export interface WitnessBaseline {
  measured: string | undefined;
  /** Undefined when the baseline does not hold that counter (upstream's has no seamGated). */
  seamGated: number | undefined;
  unwitnessable: number | undefined;
}

export function witnessBaseline(corpus: Corpus): WitnessBaseline | undefined {
  const value = corpus.data(WITNESS_BASELINE)?.value;
  if (!isObject(value)) return undefined;
  const count = (member: unknown) => (typeof member === 'number' ? member : undefined);
  if (count(value.seamGated) === undefined && count(value.unwitnessable) === undefined) return undefined;
  return {
    measured: str(value.measured),
    seamGated: count(value.seamGated),
    unwitnessable: count(value.unwitnessable),
  };
}

/** The closed set a family may carry (the declaration's `witnessClasses`, else the documented five). */
export function familyWitnessClasses(corpus: Corpus): { classes: string[]; declared: boolean } {
  const declaration = corpus.data(DECLARATION_PATH)?.value;
  if (isObject(declaration) && Array.isArray(declaration.witnessClasses)) {
    return { classes: declaration.witnessClasses.filter((c): c is string => typeof c === 'string'), declared: true };
  }
  return { classes: [...DOCUMENTED_WITNESS_CLASSES], declared: false };
}

/** One bearer of a witness class: a family, a requirement or an invariant. */
export interface WitnessEntry {
  source: 'family' | 'requirement' | 'invariant';
  id: string;
  witness: string | undefined;
  /** Requirements and invariants: the rationale, the tests; invariants: the tier. */
  rationale?: string | null | undefined;
  tests?: string[] | undefined;
  tier?: string | undefined;
  file: string;
  /** The entry's path in its file. */
  path: PathSegment[];
}

/** Every witness-class bearer of the corpus: live families (deleted ones carry none), requirements, invariants. */
export function witnessEntries(corpus: Corpus): WitnessEntry[] {
  const entries: WitnessEntry[] = [];
  for (const family of declarationFamilies(corpus) ?? []) {
    if (family.anchor === 'deleted') continue;
    entries.push({
      source: 'family',
      id: family.key,
      witness: family.witness,
      file: DECLARATION_PATH,
      path: ['families', family.index],
    });
  }
  for (const record of requirementRecords(corpus.data(REQUIREMENTS)) ?? []) {
    const { id, witness, rationale, tests, path } = record;
    entries.push({ source: 'requirement', id, witness, rationale, tests, file: REQUIREMENTS, path });
  }
  for (const row of invariantRows(corpus) ?? []) {
    const { id, witness, rationale, tests, tier, path } = row;
    entries.push({ source: 'invariant', id, witness, rationale, tests, tier, file: INVARIANTS, path });
  }
  return entries;
}

/** What the ratchet counts: seam-gated entries of every kind, and unwitnessable requirements and invariants. */
export function witnessCounts(entries: readonly WitnessEntry[]): WitnessCounts {
  return {
    seamGated: entries.filter((entry) => entry.witness === SEAM_GATED).length,
    unwitnessable: entries.filter((entry) => entry.witness === UNWITNESSABLE && entry.source !== 'family').length,
  };
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function strings(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : undefined;
}

function rationaleOf(value: unknown): string | null | undefined {
  return typeof value === 'string' ? value : value === null ? null : undefined;
}
