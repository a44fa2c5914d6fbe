import { child, follow, siteLocation, openApiModel } from '../../core/api/index.js';
import {
  type Corpus,
  type DataFile,
  type MarkdownFile,
  Location,
  speaksOtherVersion,
  type PathSegment,
  isObject,
} from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import { type Report, closest } from '../../core/output/index.js';
import {
  CODEMAP_PATH,
  CODEMAP_SCHEMA_PATH,
  effectiveType,
  EVENTS_DOC_PATH,
  eventCodemap,
  PAYLOADS_PATH,
  protocolDomains,
  protocolTypes,
  type CodemapRow,
  type EventCodemap,
  classifyMention,
  COUNT_MESSAGES,
  isV2Text,
  mentionIndex,
  readsAsV1,
  registryCountFindings,
  isPastTense,
  protocolTypeProblems,
  typeSegments,
  analysePayloadDefs,
  reachable,
  vendorOrgs,
} from '../../core/registries/index.js';
import { REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';

export default defineCheck({
  id: 'events/codemap',
  summary:
    'Every codemap row is decided and names a well-formed, past-tense (or excepted), unique type with a closed payload; event names in the corpus are registered; a count of its rows in prose is its size',
  description:
    'A v1 name that a codemap row renames is a finding in v2 text whether it has two segments or three (`runOrchestrator.decided`, `tool.session.opened`); it is quoted, not used, only in the sentence that cites v1 (v1, a `spec/v1/` document, an era-2 log), the section whose heading names v1, or a table column headed by one ("Era-2 name"), never a whole file because it cites v1 somewhere. A dotted past-tense name in no codemap row is reported only where the text says it is an event ("emits", "fires", "event type", "the `x` event", an event column). A count of the codemap\'s rows ("has 118 rows"), in prose or in a string of a JSON or YAML document, is compared with it.',
  severity: 'error',
  messages: {
    undecided: '`{{type}}` is `{{status}}`; every row of the codemap is decided before it ships',
    'under-review': '`{{type}}` is marked for review',
    'override-differs':
      '`v2` is `{{v2}}` but `v2Override` is `{{override}}`; the override wins, so `v2` must say the same',
    segments: '`{{type}}` has {{segments}} segments; a protocol type has exactly two (`domain.verb-ed`)',
    'one-segment': '`{{type}}` has 1 segment; a protocol type has exactly two (`domain.verb-ed`)',
    grammar: '`{{type}}` does not match the type grammar {{grammar}}',
    'reserved-prefix': '`{{type}}` is under `{{prefix}}.`, the prefix the protocol reserves',
    'pack-namespace': '`{{type}}` is under `{{namespace}}.`, a pack namespace, not an event namespace',
    tense:
      '`{{type}}` is not past tense: a transition is `domain.verb-ed`, and `domain.noun` is allowed only for an emitted artifact recorded as an exception',
    'needless-exception': '`{{type}}` records a naming exception, but it follows the rule (`domain.verb-ed`)',
    'duplicate-type': '`{{type}}` is also the type of the row at line {{line}}; each type has one row',
    'duplicate-v1':
      'era-2 name `{{v1}}` is mapped again (first at line {{line}}, to `{{type}}`); each v1 name maps to one v2 type',
    'rename-without-note': '`{{v1}}` is renamed to `{{type}}` with no `note` saying why',
    'frame-is-type': '`{{frame}}` is listed as a frame name, which is never a type, and is also a registered type',
    'payloads-missing': '{{target}} is missing or has no $defs, so no payloadDef of the codemap resolves',
    'unknown-payload': 'payloadDef `{{payloadDef}}` of `{{type}}` is not a $defs entry of {{target}}',
    'not-a-schema': 'payload `{{payload}}` is not a schema object',
    'open-payload':
      'payload `{{payload}}` is open: {{keyword}} is {{value}}; every payload is closed (events.md §"Payloads")',
    'unclosed-payload':
      'payload `{{payload}}` is not closed: it has no additionalProperties: false and composes no closed payload',
    'unknown-base': 'payload `{{payload}}` composes `{{base}}`, which is not a $defs entry',
    'widens-base':
      'payload `{{payload}}` composes the closed `{{base}}` but adds {{extra}}, which `{{base}}` does not allow',
    'open-base': 'payload `{{payload}}` composes `{{base}}`, which is not closed',
    'orphan-payload': 'payload `{{payload}}` is neither the payloadDef of a codemap row nor composed into one',
    'unregistered-type':
      '`{{type}}` is not a registered event type (`{{domain}}.` is a protocol domain, so it is no vendor type either)',
    'v1-type': '`{{type}}` is the v1 name of an event type ({{segments}} segments); in v2 it is `{{v2}}`',
    'unknown-domain': '`{{type}}` names no protocol domain and no registered org',
    'unregistered-event': '`{{type}}` is written as an event, but no row of {{codemap}} registers it',
    'malformed-type':
      '`{{type}}` is neither a registered protocol type nor a well-formed vendor type (`<org>.<name>` in kebab-case)',
    'no-stream-mode':
      'streamRunEvents declares no `streamMode` query parameter, which events.md §"The events channel" defines',
    'no-stream-mode-pattern':
      '{{target}} states no `streamMode` pattern (a `text` block after the paragraph that names `streamMode`), so the OpenAPI parameter cannot be checked against it',
    'stream-mode-differs':
      'the streamMode pattern {{pattern}} differs from the one events.md states at line {{line}}: {{stated}}',
    'no-stream-mode-parameter-pattern':
      'the streamMode parameter has no pattern; events.md states {{stated}} at line {{line}}',
    ...COUNT_MESSAGES,
    ...REGISTRY_MESSAGES,
  },
  run(corpus, report) {
    if (!corpus.data(CODEMAP_PATH)) return;
    for (const finding of validateRegistry(corpus, CODEMAP_PATH, CODEMAP_SCHEMA_PATH))
      report({ ...unworded(finding), hint: 'fix the registry so that it matches its schema' });
    // The rows that can be read are checked whether or not the registry matches its schema.
    const codemap = eventCodemap(corpus);
    if (!codemap) return;
    checkRows(codemap, report);
    checkPayloads(corpus, codemap, report);
    checkMentions(corpus, codemap, report);
    checkStreamMode(corpus, report);
    for (const { count: _count, ...finding } of registryCountFindings(corpus, 'codemap')) report(finding);
  },
});

function at(file: DataFile, path: PathSegment[], prefer: 'key' | 'value' = 'value'): Location {
  // Worked out when a finding is collected: a clean codemap never needs a positioned parse.
  return Location.pointer(file, path, prefer);
}

function checkRows(codemap: EventCodemap, report: Report): void {
  const { file } = codemap;
  const grammar = new RegExp(codemap.grammar ?? '^$');
  const byType = new Map<string, CodemapRow>();
  const byV1 = new Map<string, CodemapRow>();
  const rowLine = (row: CodemapRow) => Location.pointer(file, ['rows', row.index], 'value').resolve().line;

  for (const row of codemap.rows) {
    const type = effectiveType(row);
    const typeAt = at(file, ['rows', row.index, row.v2Override === undefined ? 'v2' : 'v2Override']);
    if (row.status !== 'decided') {
      report({
        location: at(file, ['rows', row.index, 'status']),
        messageId: 'undecided',
        data: { type, status: row.status },
        hint: 'decide the row and set "status": "decided", or remove it',
      });
    }
    if (row.review) {
      report({
        location: at(file, ['rows', row.index, 'review']),
        severity: 'warning',
        messageId: 'under-review',
        data: { type },
        hint: 'settle the review and set "review": false',
      });
    }
    if (row.v2Override !== undefined && row.v2Override !== row.v2) {
      report({
        location: at(file, ['rows', row.index, 'v2']),
        messageId: 'override-differs',
        data: { v2: String(row.v2), override: String(row.v2Override) },
        hint: `set "v2": "${row.v2Override}"`,
      });
    }

    const problems = protocolTypeProblems(type, grammar);
    for (const problem of problems) {
      if (problem.kind === 'tense' && row.exception) continue;
      const messageId = problem.kind === 'segments' && problem.data.segments === 1 ? 'one-segment' : problem.kind;
      report({ location: typeAt, messageId, data: { type, ...problem.data }, hint: problem.hint });
    }
    if (row.exception && problems.length === 0 && isPastTense(typeSegments(type)[1] ?? '')) {
      report({
        location: at(file, ['rows', row.index, 'note']),
        messageId: 'needless-exception',
        data: { type },
        hint: 'take "artifact event" out of the note: only a domain.noun type needs the exception',
      });
    }

    const twin = byType.get(type);
    if (twin)
      report({
        location: typeAt,
        messageId: 'duplicate-type',
        data: { type, line: rowLine(twin) },
        hint: 'merge the two rows',
      });
    else byType.set(type, row);

    const v1Twin = byV1.get(row.v1);
    if (v1Twin) {
      report({
        location: at(file, ['rows', row.index, 'v1']),
        messageId: 'duplicate-v1',
        data: { v1: String(row.v1), line: rowLine(v1Twin), type: effectiveType(v1Twin) },
        hint: 'a log is translated row by row: keep one mapping',
      });
    } else byV1.set(row.v1, row);

    if (row.v1 !== type && row.note === undefined) {
      report({
        location: at(file, ['rows', row.index, 'v1'], 'key'),
        messageId: 'rename-without-note',
        data: { v1: String(row.v1), type },
        hint: 'record the decision in "note" (or in "notes")',
      });
    }
  }

  const types = new Set(protocolTypes(codemap));
  codemap.frames.forEach((frame, index) => {
    if (types.has(frame))
      report({
        location: at(file, ['frames', index]),
        messageId: 'frame-is-type',
        data: { frame },
        hint: 'a frame name and a type cannot share a name',
      });
  });
}

function checkPayloads(corpus: Corpus, codemap: EventCodemap, report: Report): void {
  const payloads = corpus.data(PAYLOADS_PATH);
  const defs = isObject(payloads?.value) && isObject(payloads.value.$defs) ? payloads.value.$defs : undefined;
  if (!payloads || !defs) {
    report({
      location: Location.file(CODEMAP_PATH),
      messageId: 'payloads-missing',
      data: { target: PAYLOADS_PATH },
      hint: `restore ${PAYLOADS_PATH}`,
    });
    return;
  }
  const analysis = analysePayloadDefs(defs);
  for (const row of codemap.rows) {
    if (row.payloadDef in defs) continue;
    const suggestion = closest(row.payloadDef, analysis.names);
    report({
      location: at(codemap.file, ['rows', row.index, 'payloadDef']),
      messageId: 'unknown-payload',
      data: { payloadDef: String(row.payloadDef), type: effectiveType(row), target: PAYLOADS_PATH },
      hint: suggestion ? `did you mean \`${suggestion}\`?` : 'add the payload to $defs, or name an existing one',
    });
  }
  for (const problem of analysis.open) {
    report({
      location: at(payloads, ['$defs', ...problem.at], 'key'),
      messageId: problem.kind,
      data: problem.data,
      hint: problem.hint,
    });
  }
  const used = reachable(
    analysis,
    codemap.rows.map((row) => row.payloadDef).filter((name) => name in defs),
  );
  for (const name of analysis.names) {
    if (used.has(name)) continue;
    report({
      location: at(payloads, ['$defs', name], 'key'),
      messageId: 'orphan-payload',
      data: { payload: name },
      hint: 'map a type to it in spec/v2/event-codemap.json, compose it, or remove it',
    });
  }
}

function checkMentions(corpus: Corpus, codemap: EventCodemap, report: Report): void {
  const types = protocolTypes(codemap);
  const registries = {
    protocolTypes: new Set(types),
    domains: protocolDomains(codemap),
    frames: new Set(codemap.frames),
    registeredOrgs: new Set(vendorOrgs(corpus)?.registered ?? []),
    reservedOrgs: new Set(vendorOrgs(corpus)?.reserved ?? []),
  };
  for (const mention of mentionIndex(corpus).events) {
    const verdict = classifyMention(mention, registries);
    const where = (): { file: string; line: number; column: number } => ({
      file: mention.file,
      line: mention.line,
      column: mention.column,
    });
    if (verdict.kind === 'unregistered-protocol-type') {
      const suggestion = closest(mention.name, types);
      report({
        ...where(),
        messageId: 'unregistered-type',
        data: { type: mention.name, domain: verdict.domain },
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `register it in ${CODEMAP_PATH}, or correct the name`,
      });
    } else if (verdict.kind === 'v1-type') {
      // A file shared by both versions that cites v1 documents (SECURITY/invariants.yaml) names v1 types on purpose;
      // in v2 text, only the sentence, section or column that cites v1 does.
      if (
        isV2Text(mention.file)
          ? readsAsV1(corpus, mention.file, mention.line, mention.column)
          : speaksOtherVersion(corpus, mention.file, '2')
      )
        continue;
      report({
        ...where(),
        messageId: 'v1-type',
        data: { type: mention.name, v2: String(verdict.v2), segments: typeSegments(mention.name).length },
        hint: `write \`${verdict.v2}\` (the codemap row of \`${mention.name}\` in ${CODEMAP_PATH})`,
      });
    } else if (verdict.kind === 'unknown-wildcard') {
      report({
        ...where(),
        messageId: 'unknown-domain',
        data: { type: mention.name },
        hint: `check the domain against ${CODEMAP_PATH}`,
      });
    } else if (verdict.kind === 'unregistered-type') {
      const suggestion = closest(mention.name, types);
      report({
        ...where(),
        messageId: 'unregistered-event',
        data: { type: mention.name, codemap: CODEMAP_PATH },
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `register it in ${CODEMAP_PATH}, or correct the name`,
      });
    } else if (verdict.kind === 'malformed') {
      report({
        ...where(),
        messageId: 'malformed-type',
        data: { type: mention.name },
        hint: 'event types are lowercase kebab-case segments joined by dots',
      });
    }
  }
}

/** events.md states the `streamMode` pattern; the OpenAPI parameter of streamRunEvents must say the same. */
function checkStreamMode(corpus: Corpus, report: Report): void {
  const events = corpus.markdown(EVENTS_DOC_PATH);
  const model = openApiModel(corpus);
  const operation = model?.operations.find((op) => op.operationId === 'streamRunEvents');
  if (!events || !operation) return;
  const prose = streamModePattern(events);
  const parameter = operation.parameters.find((p) => p.name === 'streamMode' && p.in === 'query');
  if (!parameter) {
    report({
      location: siteLocation(operation.site),
      messageId: 'no-stream-mode',
      hint: 'declare the parameter with the pattern events.md states',
    });
    return;
  }
  if (!prose) {
    report({
      location: Location.file(events.path),
      messageId: 'no-stream-mode-pattern',
      data: { target: events.path },
      hint: 'restore the pattern block in §"The events channel"',
    });
    return;
  }
  const schemaSite = child(parameter.defined, 'schema');
  const schema = follow(corpus, schemaSite, parameter.value.schema);
  const pattern = schema.ok && isObject(schema.followed.value) ? schema.followed.value.pattern : undefined;
  const patternSite = schema.ok ? child(schema.followed.site, 'pattern') : schemaSite;
  if (pattern !== prose.pattern) {
    report({
      location: siteLocation(patternSite, 'value'),
      ...(typeof pattern === 'string'
        ? { messageId: 'stream-mode-differs', data: { pattern, stated: prose.pattern, line: prose.line } }
        : { messageId: 'no-stream-mode-parameter-pattern', data: { stated: prose.pattern, line: prose.line } }),
      hint: 'the two must be the same pattern, character for character',
    });
  }
}

function streamModePattern(file: MarkdownFile): { pattern: string; line: number } | undefined {
  const children = file.tree.children;
  for (let i = 1; i < children.length; i++) {
    const node = children[i];
    const before = children[i - 1];
    if (node?.type !== 'code' || node.lang !== 'text' || before?.type !== 'paragraph') continue;
    if (!before.children.some((inline) => inline.type === 'inlineCode' && inline.value === 'streamMode')) continue;
    return { pattern: node.value.trim(), line: (node.position?.start.line ?? 0) + 1 };
  }
  return undefined;
}
