/**
 * One source, three renderings (events.md §"Payloads"): the CloudEvents rendering and the webhook
 * delivery envelope are generated from RunEventDoc and the codemap. Each member of RunEventDoc is
 * carried by `$ref` to its definition, so `type`, `eventId`, `sequence` and `payload` cannot differ
 * between the renderings; each rendering binds its payload member to the payload of each type.
 */
import { defineGenerator, type GeneratorOutput } from '../core/run/index.js';
import {
  CODEMAP_PATH,
  CODEMAP_SCHEMA_PATH,
  eventCodemap,
  RUN_EVENT_PATH,
  type EventCodemap,
  payloadBindingSchema,
  DECLARATION_PATH,
} from '../core/registries/index.js';
import { isObject } from '../core/model/index.js';
import { expectedSchemaId, validateRegistry } from '../core/schemas/index.js';
import { formatJson } from '../core/output/index.js';

const CLOUDEVENT_PATH = 'schemas/v2/cloudevent.schema.json';
const WEBHOOK_DELIVERY_PATH = 'schemas/v2/webhook-delivery.schema.json';

const RUN_EVENT_FILE = RUN_EVENT_PATH.slice(RUN_EVENT_PATH.lastIndexOf('/') + 1);

/**
 * CloudEvents names its core attributes itself; every other RunEventDoc member becomes an
 * extension attribute, whose name CloudEvents 1.0 limits to lowercase letters and digits.
 */
const CLOUDEVENTS_CORE: Readonly<Record<string, string>> = {
  eventId: 'id',
  type: 'type',
  timestamp: 'time',
  payload: 'data',
};

export function cloudEventsAttribute(member: string): string {
  return CLOUDEVENTS_CORE[member] ?? member.toLowerCase().replace(/[^a-z0-9]/g, '');
}

interface Envelope {
  members: string[];
  required: string[];
}

export default defineGenerator({
  id: 'event-renderings',
  summary:
    'The CloudEvents rendering and the webhook delivery envelope schemas, generated from RunEventDoc and spec/v2/event-codemap.json',
  inputs: [RUN_EVENT_PATH, CODEMAP_PATH, DECLARATION_PATH],
  messages: {
    'run-event-missing': '{{target}} is missing or has no properties; the renderings are generated from it',
    'no-attribute-name': 'RunEventDoc member "{{member}}" has no usable CloudEvents attribute name ("{{attribute}}")',
    'attribute-name-taken':
      'RunEventDoc member "{{member}}" has no usable CloudEvents attribute name ("{{attribute}}", also the name of "{{clash}}")',
  },
  generate(corpus, report) {
    if (!corpus.data(CODEMAP_PATH)) return [];
    // The event-types generator says why an invalid codemap generates nothing; saying it twice helps no one.
    if (validateRegistry(corpus, CODEMAP_PATH, CODEMAP_SCHEMA_PATH).length > 0) return [];
    const codemap = eventCodemap(corpus);
    const runEvent = corpus.data(RUN_EVENT_PATH)?.value;
    if (!codemap) return [];
    if (!isObject(runEvent) || !isObject(runEvent.properties)) {
      report({
        file: RUN_EVENT_PATH,
        messageId: 'run-event-missing',
        data: { target: RUN_EVENT_PATH },
        hint: 'restore RunEventDoc',
      });
      return [];
    }
    const envelope: Envelope = {
      members: Object.keys(runEvent.properties),
      required: Array.isArray(runEvent.required)
        ? runEvent.required.filter((r): r is string => typeof r === 'string')
        : [],
    };
    const attributes = new Map<string, string>();
    for (const member of envelope.members) {
      const attribute = cloudEventsAttribute(member);
      const clash = attributes.get(attribute);
      if (
        clash !== undefined ||
        ['specversion', 'source', 'datacontenttype'].includes(attribute) ||
        attribute === '' ||
        attribute.length > 20
      ) {
        report({
          file: RUN_EVENT_PATH,
          ...(clash !== undefined
            ? { messageId: 'attribute-name-taken', data: { member, attribute, clash } }
            : { messageId: 'no-attribute-name', data: { member, attribute } }),
          hint: 'CloudEvents attribute names are 1-20 lowercase letters and digits, unique, and not a core attribute',
        });
        return [];
      }
      attributes.set(attribute, member);
    }
    const outputs: GeneratorOutput[] = [
      {
        path: CLOUDEVENT_PATH,
        content: formatJson(
          cloudEventSchema(envelope, codemap, expectedSchemaId(CLOUDEVENT_PATH, corpus.config.layout.schemaIds)),
        ),
      },
      {
        path: WEBHOOK_DELIVERY_PATH,
        content: formatJson(
          webhookDeliverySchema(
            envelope,
            codemap,
            expectedSchemaId(WEBHOOK_DELIVERY_PATH, corpus.config.layout.schemaIds),
          ),
        ),
      },
    ];
    return outputs;
  },
});

function memberRef(member: string): Record<string, unknown> {
  return { $ref: `${RUN_EVENT_FILE}#/properties/${member}` };
}

function cloudEventSchema(envelope: Envelope, codemap: EventCodemap, id: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    specversion: { description: 'The CloudEvents version.', const: '1.0' },
    source: {
      description: 'The run, as `/runs/{runId}`.',
      type: 'string',
      format: 'uri-reference',
      pattern: '^/runs/',
    },
    datacontenttype: { description: 'The media type of data.', const: 'application/json' },
  };
  for (const member of envelope.members) properties[cloudEventsAttribute(member)] = memberRef(member);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title: 'RunEventDoc as a CloudEvent',
    description: `GENERATED from ${RUN_EVENT_PATH} and ${CODEMAP_PATH} by openwop-spec generate; do not edit. A run event in the CloudEvents 1.0 JSON format: eventId is id, timestamp is time, payload is data, and every other RunEventDoc member is the extension attribute of the same name in lowercase. Each attribute takes its definition from RunEventDoc, so type, id (eventId), sequence and data (payload) are the same bytes as in the run stream and the webhook delivery.`,
    type: 'object',
    additionalProperties: false,
    required: ['specversion', 'source', 'datacontenttype', ...envelope.required.map(cloudEventsAttribute)],
    properties,
    allOf: [{ $ref: '#/$defs/dataByType' }],
    $defs: { dataByType: payloadBindingSchema(codemap, cloudEventsAttribute('payload'), 'dataByType') },
  };
}

function webhookDeliverySchema(envelope: Envelope, codemap: EventCodemap, id: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    deliveryId: {
      description: 'The delivery; the same on every retry of one delivery, and the value of OpenWOP-Webhook-Id.',
      $ref: 'ids.schema.json#/$defs/deliveryId',
    },
    subscriptionId: {
      description: 'The subscription the delivery is for.',
      $ref: 'ids.schema.json#/$defs/subscriptionId',
    },
  };
  for (const member of envelope.members) properties[member] = memberRef(member);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id,
    title: 'Webhook delivery envelope',
    description: `GENERATED from ${RUN_EVENT_PATH} and ${CODEMAP_PATH} by openwop-spec generate; do not edit. The body of a webhook delivery (webhooks.md): the RunEventDoc members, each taking its definition from RunEventDoc, and the delivery's identity. type is the value of OpenWOP-Event-Type.`,
    type: 'object',
    additionalProperties: false,
    required: ['deliveryId', 'subscriptionId', ...envelope.required],
    properties,
    // The body names its payload `payload`, as the run stream does, so it shares RunEventDoc's
    // binding of payload to type rather than repeat it (one binding to compile, not two).
    allOf: [{ $ref: `${RUN_EVENT_FILE}#/$defs/payloadByType` }],
  };
}
