import { testRule } from '../../rule-tester.js';
import { EVENTS_MD, REGISTRY, events, place, withFiles } from './corpus.js';

const unregistered = events
  .replace('| `acme.widget-built` |', '| `acne.widget-built` |')
  .replace('"type": "acme.widget-built"', '"type": "globex.widget-built"');
const emits = events.replace('| Type | Recorded when |', '| Emits | Recorded when |');
const reserved = emits
  .replace('| `acme.widget-built` |', '| `ai.message.chunk` (`outputChunk` payload) |')
  .replace('| `state.snapshot` |', '| `core.node-started` |');
const field = events.replace('| `run.started` | the run starts', '| `run.started` with `error.code` | the run starts');
const envelope = `${events.replace('*Sources: RFC 0171.*\n', '')}\n\`\`\`json\n{ "correlationId": "c-1", "kind": "initech.summary", "meta": { "source": "model" } }\n\`\`\`\n\n*Sources: RFC 0171.*\n`;
const chunkTable = emits.replace('| `acme.widget-built` |', '| `ai.message.chunk` (`outputChunk` payload) |');
/** The chunk table, and a sentence that says its name is a frame's. */
const chunkFrame = chunkTable.replace(
  '*Sources: RFC 0171.*\n',
  'Two frame names are not types: `state.snapshot` and `ai.message.chunk`.\n\n*Sources: RFC 0171.*\n',
);
const asyncapi =
  'asyncapi: 3.0.0\ninfo: { title: t, version: "2.0" }\ncomponents:\n  messages:\n    AiMessageChunk:\n      name: ai.message.chunk\n';

testRule('declaration/vendor-orgs', {
  valid: [
    { name: 'vendor types under registered orgs', files: REGISTRY },
    { name: 'a field path in an event column is no type', files: withFiles({ [EVENTS_MD]: field }) },
    {
      name: 'ai.message.chunk where the AsyncAPI document declares it a message and the prose states it is a frame name, not a type',
      files: withFiles({ [EVENTS_MD]: chunkFrame, 'api/v2/asyncapi.yaml': asyncapi }),
    },
  ],
  invalid: [
    {
      name: 'ai.message.chunk that the AsyncAPI document declares but no channel carries and no sentence calls a frame',
      files: withFiles({ [EVENTS_MD]: chunkTable, 'api/v2/asyncapi.yaml': asyncapi }),
      errors: [
        {
          messageId: 'unregistered-org',
          file: EVENTS_MD,
          ...place(chunkTable, '`ai.message.chunk`', 1),
          data: {
            name: 'ai.message.chunk',
            org: 'ai',
            what: 'vendor event type',
            registry: 'spec/v2/declaration.json',
          },
        },
      ],
    },
    {
      name: 'a vendor type of an unregistered org, in an event column and in an event example',
      files: withFiles({ [EVENTS_MD]: unregistered }),
      errors: [
        {
          messageId: 'unregistered-org',
          file: EVENTS_MD,
          ...place(unregistered, '`acne.widget-built`', 1),
          data: {
            name: 'acne.widget-built',
            org: 'acne',
            what: 'vendor event type',
            registry: 'spec/v2/declaration.json',
          },
        },
        {
          messageId: 'unregistered-org',
          file: EVENTS_MD,
          ...place(unregistered, '"globex.widget-built"', 1),
          data: {
            name: 'globex.widget-built',
            org: 'globex',
            what: 'vendor event type',
            registry: 'spec/v2/declaration.json',
          },
        },
      ],
    },
    {
      name: 'ai.message.chunk where a stream mode says what it emits and no document declares it, and a type under a reserved org',
      files: withFiles({ [EVENTS_MD]: reserved }),
      errors: [
        {
          messageId: 'unregistered-org',
          file: EVENTS_MD,
          ...place(reserved, '`ai.message.chunk`', 1),
          data: {
            name: 'ai.message.chunk',
            org: 'ai',
            what: 'vendor event type',
            registry: 'spec/v2/declaration.json',
          },
        },
        {
          messageId: 'reserved-org-used',
          file: EVENTS_MD,
          ...place(reserved, '`core.node-started`', 1),
          data: { name: 'core.node-started', org: 'core', what: 'vendor event type' },
        },
      ],
    },
    {
      name: 'an envelope kind is judged by its org',
      files: withFiles({ [EVENTS_MD]: envelope }),
      errors: [
        {
          messageId: 'unregistered-org',
          file: EVENTS_MD,
          ...place(envelope, '"initech.summary"', 1),
          data: {
            name: 'initech.summary',
            org: 'initech',
            what: 'envelope kind',
            registry: 'spec/v2/declaration.json',
          },
        },
      ],
    },
  ],
});
