/**
 * The schema fragments every rendering of an event shares, built from the codemap and the
 * vendor-org registry: the `type` branches and the binding of each type to its payload. The
 * run stream, the CloudEvents rendering and the webhook delivery take them from here, so the
 * three cannot disagree on a type or a payload.
 */
import type { Corpus } from '../model/index.js';
import { PAYLOADS_PATH, protocolTypes, typeIndex, type EventCodemap } from './event-codemap.js';
import { vendorTypePattern } from './event-names.js';
import { vendorOrgs } from './views.js';

const PAYLOADS_FILE = PAYLOADS_PATH.slice(PAYLOADS_PATH.lastIndexOf('/') + 1);

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
      : {
          description: 'No vendor org is registered in spec/v2/declaration.json, so no vendor type is valid.',
          not: {},
        };
  return {
    description: 'Generated from spec/v2/event-codemap.json and spec/v2/declaration.json; do not edit.',
    oneOf: [{ description: 'A registered protocol type.', enum: protocolTypes(codemap) }, vendor],
  };
}

/**
 * Binds the member holding the payload (`payload` in the run stream and a webhook delivery,
 * `data` in a CloudEvent) to the `$defs` entry `_typeIndex` names for each protocol type.
 * `home` is the `$defs` name the binding is written under in the embedding schema, and
 * `payloads` the reference to the payload schema as seen from there.
 *
 * The types are bound in groups of BINDING_GROUP, each a `$defs` member of the binding reached
 * through an `if` on the enum of its types. A validator compiles every referenced subschema into
 * a function of its own, and the cost of one function grows faster than its size (ajv renders the
 * references a function makes by repeated concatenation, quadratic in their number): one flat list
 * of ten thousand types took ajv 47 s and 1.7 GiB to compile; in groups it is linear. The guard also
 * lets a validator skip every group an event's type is not in.
 */
export function payloadBindingSchema(
  codemap: EventCodemap,
  member: string,
  home: string,
  payloads: string = PAYLOADS_FILE,
): Record<string, unknown> {
  const branches = typeIndex(codemap).map(([type, def]) => ({
    type,
    branch: {
      if: { type: 'object', required: ['type'], properties: { type: { const: type } } },
      then: { type: 'object', properties: { [member]: { $ref: `${payloads}#/$defs/${def}` } } },
    },
  }));
  const groups: Array<typeof branches> = [];
  for (let i = 0; i < branches.length; i += BINDING_GROUP) groups.push(branches.slice(i, i + BINDING_GROUP));
  const name = (index: number): string => `group${index + 1}`;
  return {
    description: `Generated from spec/v2/event-codemap.json; do not edit. For each protocol type, ${member} is valid against the payload _typeIndex names.`,
    allOf: groups.map((group, index) => ({
      if: { type: 'object', required: ['type'], properties: { type: { enum: group.map(({ type }) => type) } } },
      then: { $ref: `#/$defs/${home}/$defs/${name(index)}` },
    })),
    $defs: Object.fromEntries(
      groups.map((group, index) => [name(index), { allOf: group.map(({ branch }) => branch) }]),
    ),
  };
}

/** How many types one guarded group of the payload binding holds. */
const BINDING_GROUP = 64;
