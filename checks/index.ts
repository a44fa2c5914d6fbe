/** Every gate, in the order `rules` lists them. */
import type { Check } from '../core/run/index.js';
import apiChannelParity from './api/channel-parity.js';
import apiErrorResponses from './api/error-responses.js';
import apiHeaderNaming from './api/header-naming.js';
import apiIdempotencyCoverage from './api/idempotency-coverage.js';
import apiChannelsServed from './api/channels-served.js';
import apiMessageNames from './api/message-names.js';
import apiSharedSchemes from './api/shared-schemes.js';
import apiUnversionedPaths from './api/unversioned-paths.js';
import apiV1OperationMentions from './api/v1-operation-mentions.js';
import apiSeamsExcluded from './api/seams-excluded.js';
import apiSecurity from './api/security.js';
import apiValid from './api/valid.js';
import apiVersionHeader from './api/version-header.js';
import compatMonotone from './compat/monotone.js';
import corpusConflictMarker from './corpus/conflict-marker.js';
import corpusIrregular from './corpus/irregular.js';
import corpusParse from './corpus/parse.js';
import corpusRequired from './corpus/required.js';
import declarationCounts from './declaration/counts.js';
import declarationEntries from './declaration/entries.js';
import declarationNormativeHomes from './declaration/normative-homes.js';
import declarationOrgs from './declaration/orgs.js';
import declarationSchema from './declaration/schema.js';
import declarationSections from './declaration/sections.js';
import declarationVendorOrgs from './declaration/vendor-orgs.js';
import docsCoreBudget from './docs/core-budget.js';
import docsExamples from './docs/examples.js';
import docsListCounts from './docs/list-counts.js';
import docsProseLength from './docs/prose-length.js';
import docsRfcNumbers from './docs/rfc-numbers.js';
import docsStructure from './docs/structure.js';
import docsV1Mentions from './docs/v1-mentions.js';
import errorsRegistry from './errors/registry.js';
import errorsUsedCodesRegistered from './errors/used-codes-registered.js';
import eventsCodemap from './events/codemap.js';
import idsBindings from './ids/bindings.js';
import linksAnchor from './links/anchor.js';
import linksBareDocReference from './links/bare-doc-reference.js';
import linksFile from './links/file.js';
import linksSectionRef from './links/section-ref.js';
import releaseVersion from './release/version.js';
import requirementsIds from './requirements/ids.js';
import schemasClosure from './schemas/closure.js';
import securityInvariantTests from './security/invariant-tests.js';
import schemasCompile from './schemas/compile.js';
import witnessClasses from './witness/classes.js';

export const CHECKS: readonly Check[] = [
  corpusParse,
  corpusRequired,
  corpusIrregular,
  corpusConflictMarker,
  linksFile,
  linksAnchor,
  linksSectionRef,
  linksBareDocReference,
  docsStructure,
  docsRfcNumbers,
  docsProseLength,
  docsV1Mentions,
  docsCoreBudget,
  errorsRegistry,
  errorsUsedCodesRegistered,
  eventsCodemap,
  declarationSchema,
  declarationOrgs,
  declarationEntries,
  declarationSections,
  declarationNormativeHomes,
  declarationVendorOrgs,
  declarationCounts,
  apiValid,
  apiHeaderNaming,
  apiIdempotencyCoverage,
  apiVersionHeader,
  apiSeamsExcluded,
  apiChannelParity,
  apiErrorResponses,
  apiSecurity,
  apiMessageNames,
  apiUnversionedPaths,
  apiChannelsServed,
  apiSharedSchemes,
  apiV1OperationMentions,
  idsBindings,
  witnessClasses,
  securityInvariantTests,
  requirementsIds,
  docsExamples,
  docsListCounts,
  schemasCompile,
  schemasClosure,
  compatMonotone,
  releaseVersion,
];
