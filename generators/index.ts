/** Every generator, in the order they run; each owns disjoint outputs. */
import type { Generator } from '../core/run/index.js';
import coreWords from './core-words.js';
import corpusStamp from './corpus-stamp.js';
import errorEnvelope from './error-envelope.js';
import errorsDoc from './errors-doc.js';
import eventRenderings from './event-renderings.js';
import eventTypes from './event-types.js';
import fromDeclaration from './from-declaration.js';
import headers from './headers.js';
import pathManifest from './path-manifest.js';

export const GENERATORS: readonly Generator[] = [
  corpusStamp,
  errorEnvelope,
  errorsDoc,
  eventTypes,
  eventRenderings,
  fromDeclaration,
  headers,
  pathManifest,
  coreWords,
];

export { RULES_DOC, render as renderRulesReference, ruleAnchor, rulesReference } from './rules-reference.js';
