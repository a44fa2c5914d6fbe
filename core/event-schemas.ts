/**
 * The schema fragments every rendering of an event shares, built from the codemap and the
 * vendor-org registry: the `type` branches and the binding of each type to its payload. The
 * run stream, the CloudEvents rendering and the webhook delivery take them from here, so the
 * three cannot disagree on a type or a payload.
 */
import type { Corpus } from './corpus.js';
import { PAYLOADS_PATH, protocolTypes, typeIndex, type EventCodemap } from './event-codemap.js';
import { vendorTypePattern } from './event-names.js';
import { vendorOrgs } from './registries.js';

export const PAYLOADS_FILE = PAYLOADS_PATH.slice(PAYLOADS_PATH.lastIndexOf('/') + 1);

/** `$defs/eventType` of RunEventDoc: one of the registered protocol types, or a vendor type. */
export function eventTypeSchema(corpus: Corpus, codemap: EventCodemap): Record<string, unknown> {
  const orgs = vendorOrgs(corpus)?.registered ?? [];
  const vendor =
    orgs.length > 0
      ? {
          description: `A vendor type: its first segment is an org registered in spec/v2/declaration.json (${orgs.join(', ')}).`,
          type: 'string',
          pattern: vendorTypePattern(orgs),
        }
      : { description: 'No vendor org is registered in spec/v2/declaration.json, so no vendor type is valid.', not: {} };
  return {
    description: 'Generated from spec/v2/event-codemap.json and spec/v2/declaration.json; do not edit.',
    oneOf: [{ description: 'A registered protocol type.', enum: protocolTypes(codemap) }, vendor],
  };
}

/**
 * Binds the member holding the payload (`payload` in the run stream and a webhook delivery,
 * `data` in a CloudEvent) to the `$defs` entry `_typeIndex` names for each protocol type.
 * `payloads` is the reference to the payload schema as seen from the schema that embeds this.
 */
export function payloadBindingSchema(codemap: EventCodemap, member: string, payloads: string = PAYLOADS_FILE): Record<string, unknown> {
  const branches = typeIndex(codemap).map(([type, def]) => ({
    type,
    branch: {
      if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
      then: { type: 'object', properties: { [member]: { $ref: `${payloads}#/$defs/${def}` } } },
    },
  }));
  // One flat allOf of a branch per type grows ajv's generated code in depth with the registry and
  // exhausts the stack near ten thousand types; groups of BINDING_GROUP, each guarded by the enum of
  // its types, keep the depth bounded and let a validator skip the groups an event is not in.
  const groups: Array<typeof branches> = [];
  for (let i = 0; i < branches.length; i += BINDING_GROUP) groups.push(branches.slice(i, i + BINDING_GROUP));
  return {
    description: `Generated from spec/v2/event-codemap.json; do not edit. For each protocol type, ${member} is valid against the payload _typeIndex names.`,
    allOf: groups.map((group) =>
      groups.length === 1
        ? { allOf: group.map(({ branch }) => branch) }
        : {
            if: { type: 'object', required: ['type'], properties: { type: { enum: group.map(({ type }) => type) } } },
            then: { allOf: group.map(({ branch }) => branch) },
          },
    ),
  };
}

/** How many types one guarded group of the payload binding holds. */
const BINDING_GROUP = 64;
