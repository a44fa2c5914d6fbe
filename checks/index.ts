/** Every gate, in the order `rules` lists them. */
import type { Check } from '../core/run/index.js';
import apiChannelParity from './api/channel-parity.js';
import apiErrorResponses from './api/error-responses.js';
import apiHeaderNaming from './api/header-naming.js';
import apiIdempotencyCoverage from './api/idempotency-coverage.js';
import apiNoV1 from './api/no-v1.js';
import apiSeamsExcluded from './api/seams-excluded.js';
import apiSecurity from './api/security.js';
import apiValid from './api/valid.js';
import apiVersionHeader from './api/version-header.js';
import compatMonotone from './compat/monotone.js';
import corpusConflictMarker from './corpus/conflict-marker.js';
import corpusIrregular from './corpus/irregular.js';
import corpusParse from './corpus/parse.js';
import corpusRequired from './corpus/required.js';
import declarationRegistry from './declaration/registry.js';
import docsCoreBudget from './docs/core-budget.js';
import docsExamples from './docs/examples.js';
import docsReadability from './docs/readability.js';
import docsStructure from './docs/structure.js';
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
  docsReadability,
  docsCoreBudget,
  errorsRegistry,
  errorsUsedCodesRegistered,
  eventsCodemap,
  declarationRegistry,
  apiValid,
  apiHeaderNaming,
  apiIdempotencyCoverage,
  apiVersionHeader,
  apiSeamsExcluded,
  apiChannelParity,
  apiErrorResponses,
  apiSecurity,
  apiNoV1,
  idsBindings,
  witnessClasses,
  securityInvariantTests,
  requirementsIds,
  docsExamples,
  schemasCompile,
  schemasClosure,
  compatMonotone,
  releaseVersion,
];
