/**
 * What spec/v2/declaration.json decides and two files restate: the discovery document's schema
 * (schemas/v2/capabilities.schema.json, a closed root with a member per metadata key and a record
 * per core family carrying its facet schema from spec/v2/facets/) and spec/v2/profiles.json (each
 * profile's predicate and floor scenarios).
 */
import type { Corpus } from '../core/model/index.js';
import { isObject } from '../core/model/index.js';
import { formatJson } from '../core/output/index.js';
import { DECLARATION_PATH } from '../core/registries/index.js';
import { defineGenerator } from '../core/run/index.js';
import { expectedSchemaId, validateRegistry } from '../core/schemas/index.js';

export const CAPABILITIES_PATH = 'schemas/v2/capabilities.schema.json';
export const PROFILES_PATH = 'spec/v2/profiles.json';
const FACETS_FOLDER = 'spec/v2/facets/';
const DECLARATION_SCHEMA = 'spec/v2/declaration.schema.json';

export default defineGenerator({
  id: 'from-declaration',
  summary: `Writes ${CAPABILITIES_PATH} and ${PROFILES_PATH} from ${DECLARATION_PATH} and the facets of ${FACETS_FOLDER}`,
  inputs: [DECLARATION_PATH, FACETS_FOLDER],
  generate(corpus) {
    const file = corpus.data(DECLARATION_PATH);
    if (!file || !isObject(file.value)) return [];
    // An invalid declaration is declaration/schema's finding; nothing is derived from it until it is valid.
    if (corpus.data(DECLARATION_SCHEMA) && validateRegistry(corpus, DECLARATION_PATH, DECLARATION_SCHEMA).length > 0)
      return [];
    const declaration = file.value;
    return [
      { path: CAPABILITIES_PATH, content: formatJson(capabilitiesSchema(corpus, declaration)) },
      { path: PROFILES_PATH, content: formatJson(profilesDocument(corpus, declaration)) },
    ];
  },
});

const records = (value: unknown): Array<Record<string, unknown>> =>
  Array.isArray(value) ? value.filter(isObject) : [];
const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];

export function capabilitiesSchema(corpus: Corpus, declaration: Record<string, unknown>): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const entry of records(declaration.metadata)) {
    if (typeof entry.key !== 'string' || entry.disposition === 'deleted') continue;
    properties[entry.key] = { description: memberDescription('Metadata', entry) };
  }
  for (const family of records(declaration.families)) {
    if (typeof family.key !== 'string' || family.anchor !== 'core') continue;
    properties[family.key] = familyRecord(corpus, family);
  }
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: expectedSchemaId(CAPABILITIES_PATH, corpus.config.layout.schemaIds),
    title: 'OpenWOP v2 discovery document',
    description: `Generated from ${DECLARATION_PATH} and ${FACETS_FOLDER}; do not edit. The root is closed: a member per metadata key and a record per core family. A host advertises a family by publishing its record, never by a flag; an extension family is advertised under extensions.<org>.<name>, not at the root.`,
    type: 'object',
    additionalProperties: false,
    properties,
  };
}

function memberDescription(kind: string, entry: Record<string, unknown>): string {
  const where = typeof entry.section === 'string' ? ` (spec/v2/${entry.section})` : '';
  const note = typeof entry.note === 'string' ? ` ${entry.note}` : '';
  return `${kind} \`${String(entry.key)}\`${where}.${note}`;
}

/**
 * A family's record: its facet schema when spec/v2/facets/ has one (a whole schema, with an `$id`,
 * is referenced; a fragment of properties is carried inline, closed), else a closed record of
 * its declared facets, each unconstrained until a facet schema says more.
 */
function familyRecord(corpus: Corpus, family: Record<string, unknown>): Record<string, unknown> {
  const key = String(family.key);
  const description = memberDescription('Family', family);
  const facetPath = `${FACETS_FOLDER}${key}.schema.json`;
  const facet = corpus.data(facetPath)?.value;
  if (isObject(facet) && typeof facet.$id === 'string') {
    return { description, $ref: relativeRef(CAPABILITIES_PATH, facetPath) };
  }
  if (isObject(facet)) {
    const record: Record<string, unknown> = {
      description,
      type: 'object',
      additionalProperties: false,
      properties: isObject(facet.properties) ? facet.properties : {},
    };
    if (Array.isArray(facet.required) && facet.required.length > 0) record.required = facet.required;
    return record;
  }
  return {
    description,
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(strings(family.facets).map((name) => [name, {}])),
  };
}

/** `schemas/v2/a.json` to `spec/v2/facets/b.json` -> `../../spec/v2/facets/b.json`. */
function relativeRef(from: string, to: string): string {
  const fromParts = from.split('/').slice(0, -1);
  const toParts = to.split('/');
  let common = 0;
  while (common < fromParts.length && fromParts[common] === toParts[common]) common++;
  return [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}

/**
 * The profiles as the declaration states them, each with the same members in the same order
 * (requirementIds `[]` when the declaration leaves it out). The `$comment` is the author's and is
 * kept as written; a new file gets one saying where it comes from.
 */
export function profilesDocument(corpus: Corpus, declaration: Record<string, unknown>): Record<string, unknown> {
  const current = corpus.data(PROFILES_PATH)?.value;
  const comment =
    isObject(current) && typeof current.$comment === 'string'
      ? current.$comment
      : `Generated from ${DECLARATION_PATH}; do not edit. A profile is a predicate over the discovery document: every family it lists present as a record, every metadata key it lists present, and every profile it lists held too.`;
  const profiles = records(declaration.profiles).map((profile) => {
    const predicate = isObject(profile.predicate) ? profile.predicate : {};
    const out: Record<string, unknown> = {
      id: profile.id,
      predicate: {
        families: strings(predicate.families),
        ...(Array.isArray(predicate.metadata) ? { metadata: strings(predicate.metadata) } : {}),
        ...(Array.isArray(predicate.profiles) ? { profiles: strings(predicate.profiles) } : {}),
      },
      floorScenarios: strings(profile.floorScenarios),
      requirementIds: strings(profile.requirementIds),
    };
    if (typeof profile.note === 'string') out.note = profile.note;
    return out;
  });
  return { $comment: comment, generatedFrom: DECLARATION_PATH, profiles };
}
