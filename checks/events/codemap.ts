import { child, follow, siteLocation,openApiModel } from '../../core/api/index.js';
import { type Corpus, type DataFile, type MarkdownFile,lazyPlace,locate,speaksOtherVersion,type PathSegment } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
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
  type EventCodemap,classifyMention,eventNameMentions,isV2Text,readsAsV1,reportRegistryCounts,isPastTense,protocolTypeProblems,typeSegments,analysePayloadDefs,reachable,isObject,vendorOrgs
} from '../../core/registries/index.js';
import { validateRegistry } from '../../core/schemas/index.js';
import { closest } from '../../core/output/index.js';

export default defineCheck({
  id: 'events/codemap',
  summary: 'Every codemap row is decided and names a well-formed, past-tense (or excepted), unique type with a closed payload; event names in the corpus are registered; a count of its rows in prose is its size',
  description:
    'A v1 name that a codemap row renames is a finding in v2 text whether it has two segments or three (`runOrchestrator.decided`, `tool.session.opened`); it is quoted, not used, only in the sentence that cites v1 (v1, a `spec/v1/` document, an era-2 log), the section whose heading names v1, or a table column headed by one ("Era-2 name"), never a whole file because it cites v1 somewhere. A dotted past-tense name in no codemap row is reported only where the text says it is an event ("emits", "event type", "the `x` event", an event column). A count of the codemap\'s rows ("has 118 rows") is compared with it.',
  severity: 'error',
  run(corpus, report) {
    if (!corpus.data(CODEMAP_PATH)) return;
    for (const finding of validateRegistry(corpus, CODEMAP_PATH, CODEMAP_SCHEMA_PATH)) report({ ...finding, hint: 'fix the registry so that it matches its schema' });
    // The rows that can be read are checked whether or not the registry matches its schema.
    const codemap = eventCodemap(corpus);
    if (!codemap) return;
    checkRows(codemap, report);
    checkPayloads(corpus, codemap, report);
    checkMentions(corpus, codemap, report);
    checkStreamMode(corpus, report);
    for (const file of corpus.markdownFiles()) reportRegistryCounts(file, 'codemap', codemap.rows.length, `the codemap (${CODEMAP_PATH})`, report);
  },
});

function at(file: DataFile, path: PathSegment[], prefer: 'key' | 'value' = 'value') {
  // Deferred until a finding spreads it: a clean codemap never needs a positioned parse.
  return lazyPlace(file.path, file, path, prefer);
}

function checkRows(codemap: EventCodemap, report: Report): void {
  const { file } = codemap;
  const grammar = new RegExp(codemap.grammar ?? '^$');
  const byType = new Map<string, CodemapRow>();
  const byV1 = new Map<string, CodemapRow>();
  const rowLine = (row: CodemapRow) => locate(file, ['rows', row.index], 'value').line;

  for (const row of codemap.rows) {
    const type = effectiveType(row);
    const typeAt = at(file, ['rows', row.index, row.v2Override === undefined ? 'v2' : 'v2Override']);
    if (row.status !== 'decided') {
      report({ ...at(file, ['rows', row.index, 'status']), messageId: 'undecided', data: { type }, message: `\`${type}\` is \`${row.status}\`; every row of the codemap is decided before it ships`, hint: 'decide the row and set "status": "decided", or remove it' });
    }
    if (row.review) {
      report({ ...at(file, ['rows', row.index, 'review']), severity: 'warning', messageId: 'under-review', data: { type }, message: `\`${type}\` is marked for review`, hint: 'settle the review and set "review": false' });
    }
    if (row.v2Override !== undefined && row.v2Override !== row.v2) {
      report({ ...at(file, ['rows', row.index, 'v2']), messageId: 'override-differs', data: { v2: String(row.v2), override: String(row.v2Override) }, message: `\`v2\` is \`${row.v2}\` but \`v2Override\` is \`${row.v2Override}\`; the override wins, so \`v2\` must say the same`, hint: `set "v2": "${row.v2Override}"` });
    }

    const problems = protocolTypeProblems(type, grammar);
    for (const problem of problems) {
      if (problem.kind === 'tense' && row.exception) continue;
      report({ ...typeAt, messageId: 'ungrammatical', data: { type }, message: problem.message, hint: problem.hint });
    }
    if (row.exception && problems.length === 0 && isPastTense(typeSegments(type)[1] ?? '')) {
      report({ ...at(file, ['rows', row.index, 'note']), messageId: 'needless-exception', data: { type }, message: `\`${type}\` records a naming exception, but it follows the rule (\`domain.verb-ed\`)`, hint: 'take "artifact event" out of the note: only a domain.noun type needs the exception' });
    }

    const twin = byType.get(type);
    if (twin) report({ ...typeAt, messageId: 'duplicate-type', data: { type }, message: `\`${type}\` is also the type of the row at line ${rowLine(twin)}; each type has one row`, hint: 'merge the two rows' });
    else byType.set(type, row);

    const v1Twin = byV1.get(row.v1);
    if (v1Twin) {
      report({ ...at(file, ['rows', row.index, 'v1']), messageId: 'duplicate-v1', data: { v1: String(row.v1) }, message: `era-2 name \`${row.v1}\` is mapped again (first at line ${rowLine(v1Twin)}, to \`${effectiveType(v1Twin)}\`); each v1 name maps to one v2 type`, hint: 'a log is translated row by row: keep one mapping' });
    } else byV1.set(row.v1, row);

    if (row.v1 !== type && row.note === undefined) {
      report({ ...at(file, ['rows', row.index, 'v1'], 'key'), messageId: 'rename-without-note', data: { v1: String(row.v1), type }, message: `\`${row.v1}\` is renamed to \`${type}\` with no \`note\` saying why`, hint: 'record the decision in "note" (or in "notes")' });
    }
  }

  const types = new Set(protocolTypes(codemap));
  codemap.frames.forEach((frame, index) => {
    if (types.has(frame)) report({ ...at(file, ['frames', index]), messageId: 'frame-is-type', data: { frame }, message: `\`${frame}\` is listed as a frame name, which is never a type, and is also a registered type`, hint: 'a frame name and a type cannot share a name' });
  });
}

function checkPayloads(corpus: Corpus, codemap: EventCodemap, report: Report): void {
  const payloads = corpus.data(PAYLOADS_PATH);
  const defs = isObject(payloads?.value) && isObject(payloads.value.$defs) ? payloads.value.$defs : undefined;
  if (!payloads || !defs) {
    report({ file: CODEMAP_PATH, line: 1, column: 1, messageId: 'payloads-missing', data: { target: PAYLOADS_PATH }, message: `${PAYLOADS_PATH} is missing or has no $defs, so no payloadDef of the codemap resolves`, hint: `restore ${PAYLOADS_PATH}` });
    return;
  }
  const analysis = analysePayloadDefs(defs);
  for (const row of codemap.rows) {
    if (row.payloadDef in defs) continue;
    const suggestion = closest(row.payloadDef, analysis.names);
    report({
      ...at(codemap.file, ['rows', row.index, 'payloadDef']),
      messageId: 'unknown-payload', data: { payloadDef: String(row.payloadDef), target: PAYLOADS_PATH }, message: `payloadDef \`${row.payloadDef}\` of \`${effectiveType(row)}\` is not a $defs entry of ${PAYLOADS_PATH}`,
      hint: suggestion ? `did you mean \`${suggestion}\`?` : 'add the payload to $defs, or name an existing one',
    });
  }
  for (const problem of analysis.open) {
    report({ ...at(payloads, ['$defs', ...problem.at], 'key'), messageId: 'payload-problem', message: problem.message, hint: problem.hint });
  }
  const used = reachable(analysis, codemap.rows.map((row) => row.payloadDef).filter((name) => name in defs));
  for (const name of analysis.names) {
    if (used.has(name)) continue;
    report({
      ...at(payloads, ['$defs', name], 'key'),
      messageId: 'orphan-payload', data: { payload: name }, message: `payload \`${name}\` is neither the payloadDef of a codemap row nor composed into one`,
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
  for (const mention of eventNameMentions(corpus)) {
    const verdict = classifyMention(mention, registries);
    const where = (): { file: string; line: number; column: number } => ({ file: mention.file, line: mention.line, column: mention.column });
    if (verdict.kind === 'unregistered-protocol-type') {
      const suggestion = closest(mention.name, types);
      report({
        ...where(),
        messageId: 'unregistered-type', data: { type: mention.name }, message: `\`${mention.name}\` is not a registered event type (\`${verdict.domain}.\` is a protocol domain, so it is no vendor type either)`,
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `register it in ${CODEMAP_PATH}, or correct the name`,
      });
    } else if (verdict.kind === 'v1-type') {
      // A file shared by both versions that cites v1 documents (SECURITY/invariants.yaml) names v1 types on purpose;
      // in v2 text, only the sentence, section or column that cites v1 does.
      if (isV2Text(mention.file) ? readsAsV1(corpus, mention.file, mention.line, mention.column) : speaksOtherVersion(corpus, mention.file, '2')) continue;
      report({
        ...where(),
        messageId: 'v1-type', data: { type: mention.name, v2: String(verdict.v2) },
        message: `\`${mention.name}\` is the v1 name of an event type (${typeSegments(mention.name).length} segments); in v2 it is \`${verdict.v2}\``,
        hint: `write \`${verdict.v2}\` (the codemap row of \`${mention.name}\` in ${CODEMAP_PATH})`,
      });
    } else if (verdict.kind === 'unknown-wildcard') {
      report({ ...where(), messageId: 'unknown-domain', data: { type: mention.name }, message: `\`${mention.name}\` names no protocol domain and no registered org`, hint: `check the domain against ${CODEMAP_PATH}` });
    } else if (verdict.kind === 'unregistered-type') {
      const suggestion = closest(mention.name, types);
      report({
        ...where(),
        messageId: 'unregistered-event', data: { type: mention.name },
        message: `\`${mention.name}\` is written as an event, but no row of ${CODEMAP_PATH} registers it`,
        hint: suggestion ? `did you mean \`${suggestion}\`?` : `register it in ${CODEMAP_PATH}, or correct the name`,
      });
    } else if (verdict.kind === 'malformed') {
      report({ ...where(), messageId: 'malformed-type', data: { type: mention.name }, message: `\`${mention.name}\` is neither a registered protocol type nor a well-formed vendor type (\`<org>.<name>\` in kebab-case)`, hint: 'event types are lowercase kebab-case segments joined by dots' });
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
    report({ ...siteLocation(operation.site), messageId: 'no-stream-mode', message: 'streamRunEvents declares no `streamMode` query parameter, which events.md §"The events channel" defines', hint: 'declare the parameter with the pattern events.md states' });
    return;
  }
  if (!prose) {
    report({ file: events.path, line: 1, column: 1, messageId: 'no-stream-mode-pattern', data: { target: events.path }, message: 'events.md states no `streamMode` pattern (a `text` block after the paragraph that names `streamMode`), so the OpenAPI parameter cannot be checked against it', hint: 'restore the pattern block in §"The events channel"' });
    return;
  }
  const schemaSite = child(parameter.defined, 'schema');
  const schema = follow(corpus, schemaSite, parameter.value.schema);
  const pattern = schema.ok && isObject(schema.followed.value) ? schema.followed.value.pattern : undefined;
  const patternSite = schema.ok ? child(schema.followed.site, 'pattern') : schemaSite;
  if (pattern !== prose.pattern) {
    report({
      ...siteLocation(patternSite, 'value'),
      messageId: 'stream-mode-differs', message:
        typeof pattern === 'string'
          ? `the streamMode pattern ${pattern} differs from the one events.md states at line ${prose.line}: ${prose.pattern}`
          : `the streamMode parameter has no pattern; events.md states ${prose.pattern} at line ${prose.line}`,
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
