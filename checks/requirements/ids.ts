import type { Corpus, DataFile } from '../../core/model/index.js';
import { defineCheck, type CheckContext } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { documentIndex, Location } from '../../core/model/index.js';
import {
  REQUIREMENT_ALIASES,
  REQUIREMENT_ALIASES_SCHEMA,
  REQUIREMENTS,
  REQUIREMENTS_SCHEMA,
  requirementAliases,
  requirementRecords,
  type RequirementRecord,
} from '../../core/registries/index.js';
import { REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';
import { previousRelease } from '../../core/release/index.js';
import { describeCitation, parseDocumentCitation, resolveCitation } from '../../core/markdown/index.js';
import { closest } from '../../core/output/index.js';

/** Cited documents are core documents: `idempotency.md` means spec/v2/core/idempotency.md. */
const CITING_FROM = 'spec/v2/core/requirements';

export default defineCheck({
  id: 'requirements/ids',
  summary:
    'Requirement ids are well formed and unique, every citation names a heading of its document, and an id gone since the previous release has an alias',
  severity: 'error',
  messages: {
    ...REGISTRY_MESSAGES,
    'minted-twice': 'requirement id `{{id}}` is minted twice; the first is at line {{first}}',
    'malformed-citation': 'citation "{{citation}}" is not of the form <doc> §<section>',
    'unknown-document': 'citation "{{citation}}" names {{target}}, which is not a corpus document',
    'no-section': '{{target}} has no section {{citation}}; the requirement cites a heading that does not exist',
    'alias-of-live-id': '`{{id}}` is aliased, but it is still a live requirement id',
    'alias-leads-nowhere': '`{{id}}` is aliased to `{{target}}`, which leads to no live requirement id',
    'alias-cycle': 'the aliases of `{{id}}` form a cycle',
    'previous-unreadable': 'cannot compare with the previous release: {{problem}}',
    'previous-without-requirements': `{{release}} has no readable ${REQUIREMENTS}; no requirement id can have been removed since`,
    'removed-id': `requirement id \`{{id}}\` is in {{release}} and is gone, with no row in ${REQUIREMENT_ALIASES}; every bundle that cites it loses its referent`,
  },
  run(corpus, report, options) {
    const file = corpus.data(REQUIREMENTS);
    if (!file) return;
    const problems = validateRegistry(corpus, REQUIREMENTS, REQUIREMENTS_SCHEMA);
    const aliasProblems = validateRegistry(corpus, REQUIREMENT_ALIASES, REQUIREMENT_ALIASES_SCHEMA);
    // The schema states the id form; what it cannot state (uniqueness, citations, aliases) is
    // checked on whatever records read cleanly, so one malformed record hides nothing else.
    for (const finding of [...problems, ...aliasProblems]) report(unworded(finding));
    const records = requirementRecords(file);
    if (!records) return;

    const live = checkIds(file, records, report);
    for (const record of records)
      for (const citation of record.citations) checkCitation(corpus, file, citation.section, citation.path, report);
    if (aliasProblems.length === 0) {
      checkAliases(corpus, live, report);
      checkRemoved(corpus, file, live, options, report);
    }
  },
});

function checkIds(file: DataFile, records: readonly RequirementRecord[], report: Report): Set<string> {
  const first = new Map<string, RequirementRecord>();
  for (const record of records) {
    const earlier = first.get(record.id);
    if (earlier) {
      report({
        location: Location.pointer(file, [...record.path, 'id'], 'value'),
        messageId: 'minted-twice',
        data: { id: record.id, first: Location.pointer(file, [...earlier.path, 'id'], 'value').resolve().line },
        hint: 'an id names one requirement: give this one its own',
      });
    } else {
      first.set(record.id, record);
    }
  }
  return new Set(first.keys());
}

function checkCitation(
  corpus: Corpus,
  file: DataFile,
  section: string,
  path: Array<string | number>,
  report: Report,
): void {
  const at = Location.pointer(file, path, 'value');
  const parsed = parseDocumentCitation(section);
  if (!parsed) {
    report({
      location: at,
      messageId: 'malformed-citation',
      data: { citation: section },
      hint: 'e.g. "idempotency.md §\\"Outcomes\\"" or "identity.md §5"',
    });
    return;
  }
  const documentPath = documentIndex(corpus).resolve(parsed.document, CITING_FROM);
  const document = documentPath ? corpus.markdown(documentPath) : undefined;
  if (!document) {
    report({
      location: at,
      messageId: 'unknown-document',
      data: { citation: section, target: parsed.document },
      hint: 'cite a document of spec/v2/core/',
    });
    return;
  }
  if (resolveCitation(document.headings, parsed.citation)) return;
  const numbered = parsed.citation.form === 'numbered';
  const suggestion = closest(
    parsed.citation.value,
    document.headings.map((heading) => (numbered ? (heading.number ?? '') : heading.text)).filter(Boolean),
  );
  report({
    location: at,
    messageId: 'no-section',
    data: { target: parsed.document, citation: describeCitation(parsed.citation) },
    hint: suggestion
      ? `did you mean ${numbered ? `§${suggestion}` : `§"${suggestion}"`}?`
      : 'cite a heading of the document, quoted or by number',
  });
}

function checkAliases(corpus: Corpus, live: ReadonlySet<string>, report: Report): void {
  const aliases = requirementAliases(corpus);
  const file = corpus.data(REQUIREMENT_ALIASES);
  if (!aliases || !file) return;
  for (const [from, { target, path }] of aliases) {
    if (live.has(from)) {
      report({
        location: Location.pointer(file, path),
        messageId: 'alias-of-live-id',
        data: { id: from },
        hint: 'an alias row is for an id that is gone; remove the row or the record',
      });
      continue;
    }
    // Follow the chain: an alias may point at an id that was itself renamed later.
    const seen = new Set([from]);
    let current = target;
    while (!live.has(current) && aliases.has(current) && !seen.has(current)) {
      seen.add(current);
      current = aliases.get(current)?.target ?? current;
    }
    if (!live.has(current)) {
      report({
        location: Location.pointer(file, path, 'value'),
        ...(seen.has(current)
          ? { messageId: 'alias-cycle', data: { id: from } }
          : { messageId: 'alias-leads-nowhere', data: { id: from, target } }),
        hint: 'point it at the id of conformance/requirements.json that replaced it',
      });
    }
  }
}

function checkRemoved(
  corpus: Corpus,
  file: DataFile,
  live: ReadonlySet<string>,
  options: CheckContext,
  report: Report,
): void {
  const top = Location.file(REQUIREMENTS);
  // No previous release (a first release, or none could be found): no id can have been removed.
  if (!options.previousRelease) return;
  const previous = previousRelease(corpus.root, options.previousRelease, [REQUIREMENTS]);
  if (!previous.ok) {
    report({
      location: top,
      messageId: 'previous-unreadable',
      data: { problem: previous.message },
      hint: 'pass --previous-release with a directory, a .tgz or git:<tag>',
    });
    return;
  }
  const before = requirementRecords(previous.corpus.data(REQUIREMENTS));
  if (!before) {
    report({
      location: top,
      severity: 'warning',
      messageId: 'previous-without-requirements',
      data: { release: previous.label },
      hint: `nothing to do unless ${previous.label} is not the release to compare with: then name it with --previous-release`,
    });
    return;
  }
  const aliases = requirementAliases(corpus) ?? new Map();
  const aliasFile = corpus.data(REQUIREMENT_ALIASES);
  const where = Location.pointer(aliasFile ?? file, aliasFile ? ['aliases'] : ['records']);
  for (const id of [...new Set(before.map((record) => record.id))].sort()) {
    if (live.has(id) || aliases.has(id)) continue;
    report({
      location: where,
      messageId: 'removed-id',
      data: { id, release: previous.label },
      hint: `add "${id}": "<the id that replaced it>" to the aliases, or restore the record`,
    });
  }
}
