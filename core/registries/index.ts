/** Typed, tolerant readers of the registries (errors, event codemap, declaration, id kinds, evidence) and the corpus's one index of where its text names or counts their entries. */
export {
  CARRIED_ID_BINDINGS_SCHEMA,
  CARRIED_INVARIANTS_SCHEMA,
  CARRIED_WITNESS_BASELINE_SCHEMA,
} from './carried-schemas.js';
export { COUNT_MESSAGES, registryCountFindings } from './count-findings.js';
export { proseExclusions } from './count-mentions.js';
export { familiesByKey, readDeclaration } from './declaration-view.js';
export { resolveSection } from './declaration.js';
export { markdownCodeMentions, yamlCodeMentions } from './error-code-mentions.js';
export {
  CODE_GRAMMAR,
  ERRORS_PATH,
  ERRORS_SCHEMA_PATH,
  type ErrorRow,
  RETRY_TIMING_MEMBERS,
  type VendorCodeRule,
  errorsSchemaViolations,
  readErrorsRegistry,
  retriableByDefault,
  vendorCodeRule,
} from './errors.js';
export {
  CODEMAP_PATH,
  CODEMAP_SCHEMA_PATH,
  type CodemapRow,
  EVENTS_DOC_PATH,
  type EventCodemap,
  PAYLOADS_PATH,
  RUN_EVENT_PATH,
  codemapCounts,
  decidedRows,
  effectiveType,
  eventCodemap,
  namingExceptions,
  protocolDomains,
  protocolTypes,
  renamedRows,
  typeIndex,
} from './event-codemap.js';
export { classifyMention } from './event-mentions.js';
export { isPastTense, protocolTypeProblems, typeSegments } from './event-names.js';
export { eventTypeSchema, payloadBindingSchema } from './event-schemas.js';
export {
  INVARIANTS,
  INVARIANTS_SCHEMA,
  REQUIREMENTS,
  REQUIREMENTS_SCHEMA,
  REQUIREMENT_ALIASES,
  REQUIREMENT_ALIASES_SCHEMA,
  type RequirementRecord,
  SEAM_GATED,
  UNWITNESSABLE,
  WITNESS_BASELINE,
  WITNESS_BASELINE_SCHEMA,
  type WitnessCounts,
  type WitnessEntry,
  familyWitnessClasses,
  requirementAliases,
  requirementRecords,
  witnessBaseline,
  witnessCounts,
  witnessEntries,
} from './evidence.js';
export {
  IDS_SCHEMA,
  ID_BINDINGS,
  ID_BINDINGS_SCHEMA,
  type IdBindingsRegistry,
  type IdField,
  type IdKind,
  idBindingsRegistry,
  idFields,
  idKinds,
  kindRef,
  kindsReached,
} from './id-kinds.js';
export { type LocatedCodeMention, eventNameMentions, mentionIndex } from './mention-index.js';
export { registryMentionDependents } from './mention-scope.js';
export { nearMiss } from './near-miss.js';
export { normativeHomes, normativeTextProblems } from './normative-home.js';
export { analysePayloadDefs, reachable } from './payload-defs.js';
export { SCOPES_PATH, scopeVocabulary } from './scopes.js';
export { CITES_V1, isV2Text, markdownReadsAsV1, readsAsV1, sentenceAt } from './v1-scope.js';
export { DECLARATION_PATH, declarationFamilies, vendorOrgs } from './views.js';
