/** Every gate, in the order `rules` lists them. */
import type { Check } from '../core/define.js';
import corpusConflictMarker from './corpus-conflict-marker.js';
import corpusParse from './corpus-parse.js';
import docsStructure from './docs-structure.js';
import linksAnchor from './links-anchor.js';
import linksBareDocReference from './links-bare-doc-reference.js';
import linksFile from './links-file.js';
import linksSectionRef from './links-section-ref.js';

export const CHECKS: readonly Check[] = [
  corpusParse,
  corpusConflictMarker,
  linksFile,
  linksAnchor,
  linksSectionRef,
  linksBareDocReference,
  docsStructure,
];
