import { type Corpus, Location, type PathSegment } from '../../core/model/index.js';
import { defineCheck, type CheckContext } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import {
  familyWitnessClasses,
  INVARIANTS,
  INVARIANTS_SCHEMA,
  CARRIED_INVARIANTS_SCHEMA,
  REQUIREMENTS,
  CARRIED_WITNESS_BASELINE_SCHEMA,
  SEAM_GATED,
  UNWITNESSABLE,
  WITNESS_BASELINE,
  WITNESS_BASELINE_SCHEMA,
  witnessBaseline,
  witnessCounts,
  witnessEntries,
  type WitnessEntry,
  DECLARATION_PATH,
} from '../../core/registries/index.js';
import { REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';
import { previousRelease } from '../../core/release/index.js';
import { closest } from '../../core/output/index.js';

export default defineCheck({
  id: 'witness/classes',
  summary:
    'Every family, requirement and invariant carries a witness class of the closed set, with the rules of each class, and the seam count stays within docs/witness-baseline.json',
  severity: 'error',
  messages: {
    ...REGISTRY_MESSAGES,
    'no-witness': '{{entry}} carries no witness class',
    'unwitnessable-family': '{{entry}} is `unwitnessable`, a class allowed on requirements and invariants only',
    'unknown-class': '{{entry}} has witness `{{witness}}`, which is not in the closed set ({{set}})',
    'unknown-class-undeclared': '{{entry}} has witness `{{witness}}`, which is not in the closed set',
    'no-rationale': '{{entry}} is unwitnessable without a rationale',
    'empty-tests':
      '{{entry}} has `tests: []` but is `{{witness}}`; an empty test list is expressible only as unwitnessable',
    'protocol-unwitnessable':
      'protocol-tier {{entry}} is marked unwitnessable; a protocol invariant must have an observation path',
    'baseline-missing': '{{target}} is missing, so the seam count is held to no ratchet',
    'ratchet-up':
      '{{now}} {{counted}}, above the baseline of {{allowed}}: the count is a ratchet and may not rise. They are: {{bearers}}',
    'ratchet-up-since-release':
      '{{now}} {{counted}}, above the baseline of {{allowed}}: the count is a ratchet and may not rise. New since the previous release: {{bearers}}',
    'became-uncounted': `{{entry}} became {{witness}} since the previous release, raising the count above ${WITNESS_BASELINE}`,
    'ratchet-down': '{{now}} {{counted}}, below the baseline of {{allowed}}; the baseline can be lowered to {{now}}',
  },
  run(corpus, report, options) {
    const invariantProblems = validateRegistry(corpus, INVARIANTS, INVARIANTS_SCHEMA, CARRIED_INVARIANTS_SCHEMA);
    const baselineProblems = validateRegistry(
      corpus,
      WITNESS_BASELINE,
      WITNESS_BASELINE_SCHEMA,
      CARRIED_WITNESS_BASELINE_SCHEMA,
    );
    for (const finding of [...invariantProblems, ...baselineProblems]) report(unworded(finding));
    // Rows that can be read are checked even when their registry does not match its schema;
    // requirements.json is reported by requirements/ids.
    const entries = witnessEntries(corpus);
    if (entries.length === 0) return;

    const { classes, declared } = familyWitnessClasses(corpus);
    for (const entry of entries) checkEntry(corpus, entry, classes, declared, report);
    if (baselineProblems.length === 0) checkRatchet(corpus, entries, options, report);
  },
});

function at(corpus: Corpus, entry: WitnessEntry, member: PathSegment, prefer: 'key' | 'value' = 'value'): Location {
  const file = corpus.data(entry.file);
  return file ? Location.pointer(file, [...entry.path, member], prefer) : Location.file(entry.file);
}

function label(entry: WitnessEntry): string {
  return `${entry.source} \`${entry.id}\``;
}

function checkEntry(
  corpus: Corpus,
  entry: WitnessEntry,
  familyClasses: readonly string[],
  declared: boolean,
  report: Report,
): void {
  const allowed =
    entry.source === 'family'
      ? familyClasses.filter((c) => c !== UNWITNESSABLE)
      : [...familyClasses.filter((c) => c !== UNWITNESSABLE), UNWITNESSABLE];
  const witness = entry.witness;
  if (witness === undefined) {
    report({
      location: at(corpus, entry, 'witness'),
      messageId: 'no-witness',
      data: { entry: label(entry) },
      hint: `add "witness": one of ${allowed.join(', ')}`,
    });
    return;
  }
  if (entry.source === 'family' && witness === UNWITNESSABLE) {
    report({
      location: at(corpus, entry, 'witness'),
      messageId: 'unwitnessable-family',
      data: { entry: label(entry) },
      hint: 'a family names how the suite observes it: give it one of the family classes',
    });
    return;
  }
  if (!allowed.includes(witness)) {
    const suggestion = closest(witness, allowed);
    report({
      location: at(corpus, entry, 'witness'),
      // The closed set is named where the declaration states it.
      ...(declared
        ? {
            messageId: 'unknown-class',
            data: {
              entry: label(entry),
              witness: String(witness),
              set: `witnessClasses of ${DECLARATION_PATH}${entry.source === 'family' ? '' : ', and unwitnessable'}`,
            },
          }
        : { messageId: 'unknown-class-undeclared', data: { entry: label(entry), witness: String(witness) } }),
      hint: suggestion ? `did you mean \`${suggestion}\`?` : `use one of ${allowed.join(', ')}`,
    });
    return;
  }
  if (entry.source === 'family') return;

  const { rationale, tests, tier } = entry;
  if (witness === UNWITNESSABLE && !rationale) {
    report({
      location: at(corpus, entry, 'rationale'),
      messageId: 'no-rationale',
      data: { entry: label(entry) },
      hint: 'say why no observation path exists; the rationale is REQUIRED with this class',
    });
  }
  if (tests !== undefined && tests.length === 0 && witness !== UNWITNESSABLE) {
    report({
      location: at(corpus, entry, 'tests'),
      messageId: 'empty-tests',
      data: { entry: label(entry), witness: String(witness) },
      hint: 'name the scenarios that witness it',
    });
  }
  if (entry.source === 'invariant' && tier === 'protocol' && witness === UNWITNESSABLE) {
    report({
      location: at(corpus, entry, 'witness'),
      messageId: 'protocol-unwitnessable',
      data: { entry: label(entry) },
      hint: 'give it a witness and the scenarios that observe it, or demote it out of the protocol tier and record the demotion',
    });
  }
}

function checkRatchet(corpus: Corpus, entries: readonly WitnessEntry[], options: CheckContext, report: Report): void {
  const baseline = witnessBaseline(corpus);
  const baselineFile = corpus.data(WITNESS_BASELINE);
  if (!baseline || !baselineFile) {
    report({
      location: Location.file(WITNESS_BASELINE),
      severity: 'warning',
      messageId: 'baseline-missing',
      data: { target: WITNESS_BASELINE },
      hint: 'run `openwop-spec baseline --update` to record the current counts',
    });
    return;
  }
  const counts = witnessCounts(entries);
  // A count over registries of which one is absent is only a lower bound: it can be seen to rise
  // above the baseline, but not to fall below it.
  const complete = corpus.exists(REQUIREMENTS) && corpus.exists(INVARIANTS) && corpus.exists(DECLARATION_PATH);
  for (const measure of ['seamGated', 'unwitnessable'] as const) {
    const now = counts[measure];
    const allowed = baseline[measure];
    if (allowed === undefined) continue;
    const where = Location.pointer(baselineFile, [measure], 'value');
    const what =
      measure === 'seamGated'
        ? 'seam-gated entries (families, requirements and invariants)'
        : 'unwitnessable requirements and invariants';
    if (now > allowed) {
      const bearers = entries.filter((entry) =>
        measure === 'seamGated' ? entry.witness === SEAM_GATED : entry.witness === UNWITNESSABLE,
      );
      const added = newBearers(corpus, bearers, measure, options);
      const listed = (added ?? bearers).map(
        (entry) =>
          `${entry.source} ${entry.id} (${entry.file}:${Location.pointer(corpus.data(entry.file) ?? baselineFile, entry.path).resolve().line})`,
      );
      report({
        location: where,
        messageId: added ? 'ratchet-up-since-release' : 'ratchet-up',
        data: { now, allowed, counted: what, bearers: listed.join(', ') },
        hint:
          measure === 'seamGated'
            ? 'give the new entry a normative observation path (or demote its MUST to a SHOULD) instead of a seam'
            : 'find an observation path for the new entry instead of declaring it unwitnessable',
      });
      for (const entry of added ?? []) {
        report({
          location: at(corpus, entry, 'witness'),
          messageId: 'became-uncounted',
          data: { entry: label(entry), witness: measure === 'seamGated' ? SEAM_GATED : UNWITNESSABLE },
          hint: 'give it back an observation path, or witness it some other way than by this class',
        });
      }
    } else if (now < allowed && complete) {
      report({
        location: where,
        severity: 'warning',
        messageId: 'ratchet-down',
        data: { now, allowed, counted: what },
        hint: 'run `openwop-spec baseline --update` to lower it',
      });
    }
  }
}

/** With a previous release, the bearers that did not carry the class in the previous release; otherwise undefined. */
function newBearers(
  corpus: Corpus,
  bearers: readonly WitnessEntry[],
  measure: 'seamGated' | 'unwitnessable',
  options: CheckContext,
): WitnessEntry[] | undefined {
  if (!options.previousRelease) return undefined;
  const previous = previousRelease(corpus.root, options.previousRelease, [DECLARATION_PATH, REQUIREMENTS, INVARIANTS]);
  if (!previous.ok) return undefined;
  const klass = measure === 'seamGated' ? SEAM_GATED : UNWITNESSABLE;
  const before = new Set(
    witnessEntries(previous.corpus)
      .filter((entry) => entry.witness === klass)
      .map((entry) => `${entry.source}:${entry.id}`),
  );
  return bearers.filter((entry) => !before.has(`${entry.source}:${entry.id}`));
}
