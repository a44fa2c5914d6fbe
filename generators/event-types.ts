/**
 * From spec/v2/event-codemap.json: the `type` enum and payload binding of RunEventDoc, the payload
 * schema's `_typeIndex`, the codemap's own `counts`, and the prose that quotes the codemap
 * (row count, naming exceptions, renamed types, the vendor grammar). Hand-written JSON keeps its
 * layout: only the derived members are rewritten.
 */
import { countOutputs, regionOutputs, defineGenerator, type GeneratorOutput } from '../core/run/index.js';
import { type Corpus, spliceJson, SpliceError, type MemberUpdate } from '../core/model/index.js';
import type { Report } from '../core/output/index.js';
import {
  CODEMAP_PATH,
  CODEMAP_SCHEMA_PATH,
  codemapCounts,
  effectiveType,
  eventCodemap,
  namingExceptions,
  PAYLOADS_PATH,
  renamedRows,
  RUN_EVENT_PATH,
  typeIndex,
  type EventCodemap,
  eventTypeSchema,
  payloadBindingSchema,
  DECLARATION_PATH,
} from '../core/registries/index.js';
import { validateRegistry } from '../core/schemas/index.js';
import { renderTable } from '../core/markdown/index.js';

export default defineGenerator({
  id: 'event-types',
  summary:
    'The type enum and payload binding of RunEventDoc, _typeIndex, the codemap counts and the prose quoting the codemap, from spec/v2/event-codemap.json',
  inputs: [CODEMAP_PATH, DECLARATION_PATH, PAYLOADS_PATH, RUN_EVENT_PATH],
  messages: {
    'codemap-invalid': 'nothing is generated from {{target}} while it does not match {{schema}}',
    'output-missing': '{{target}} is missing or does not parse, so what {{source}} derives into it is not generated',
    'output-shape': '{{problem}}',
  },
  generate(corpus, report) {
    if (!corpus.data(CODEMAP_PATH)) return [];
    if (validateRegistry(corpus, CODEMAP_PATH, CODEMAP_SCHEMA_PATH).length > 0) {
      report({
        file: CODEMAP_PATH,
        messageId: 'codemap-invalid',
        data: { target: CODEMAP_PATH, schema: CODEMAP_SCHEMA_PATH },
        hint: 'the events/codemap findings say where; fix them, then run `openwop-spec generate`',
      });
      return [];
    }
    const codemap = eventCodemap(corpus);
    if (!codemap) return [];
    return [
      ...spliced(corpus, CODEMAP_PATH, [{ path: ['counts'], value: codemapCounts(codemap) }], report),
      ...spliced(
        corpus,
        PAYLOADS_PATH,
        [{ path: ['_typeIndex'], value: Object.fromEntries(typeIndex(codemap)) }],
        report,
      ),
      ...spliced(
        corpus,
        RUN_EVENT_PATH,
        [
          { path: ['$defs', 'eventType'], value: eventTypeSchema(corpus, codemap) },
          { path: ['$defs', 'payloadByType'], value: payloadBindingSchema(codemap, 'payload', 'payloadByType') },
        ],
        report,
      ),
      ...countOutputs(corpus, 'event-codemap', codemap.rows.length),
      ...regionOutputs(corpus, 'events/naming-exceptions', exceptionList(codemap)),
      ...regionOutputs(corpus, 'events/renamed', renamedTable(codemap)),
      ...(codemap.vendorGrammar
        ? regionOutputs(corpus, 'events/vendor-grammar', `\`\`\`text\n${codemap.vendorGrammar}\n\`\`\`\n`)
        : []),
    ];
  },
});

function spliced(corpus: Corpus, path: string, updates: MemberUpdate[], report: Report): GeneratorOutput[] {
  const file = corpus.data(path);
  if (!file) {
    report({
      file: CODEMAP_PATH,
      messageId: 'output-missing',
      data: { target: path, source: CODEMAP_PATH },
      hint: `restore ${path}`,
    });
    return [];
  }
  try {
    return [{ path, content: spliceJson(file, updates), members: updates.map((update) => update.path) }];
  } catch (error) {
    if (!(error instanceof SpliceError)) throw error;
    report({
      file: path,
      messageId: 'output-shape',
      data: { target: path, problem: error.message },
      hint: 'the generated members live in a top-level object; restore its shape',
    });
    return [];
  }
}

function exceptionList(codemap: EventCodemap): string {
  const names = namingExceptions(codemap).map((row) => `\`${effectiveType(row)}\``);
  return names.length === 0 ? 'none' : names.join(', ');
}

function renamedTable(codemap: EventCodemap): string {
  return renderTable(
    ['Era-2 name', 'v2 type', 'Why'],
    renamedRows(codemap).map((row) => [`\`${row.v1}\``, `\`${effectiveType(row)}\``, row.note ?? '']),
  );
}
