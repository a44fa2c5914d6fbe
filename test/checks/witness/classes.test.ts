import { describe, expect, it } from 'vitest';
import { fixture, readTree } from '../../helpers.js';
import { runRule, testRule, type CorpusCase, type Edit } from '../../rule-tester.js';

const RULE = 'witness/classes';
const BASE = 'evidence/witness-good';
const DECLARATION = 'spec/v2/declaration.json';
const INVARIANTS = 'SECURITY/invariants.yaml';
const BASELINE = 'docs/witness-baseline.json';
const REQUIREMENTS = 'conformance/requirements.json';

/** One defect an entry, and counts off the baseline both ways: test/fixtures/evidence/witness-defects over the base. */
const DEFECTS: CorpusCase = {
  name: 'fires at each entry whose class breaks a rule, and at the baseline a count leaves',
  base: BASE,
  files: readTree(fixture('evidence/witness-defects')),
};

/** One family that goes from witnessable-gated to seam-gated, past the baseline. */
const RAISE: Edit = {
  file: DECLARATION,
  find: '"key": "idempotency", "kind": "family", "anchor": "core", "witness": "witnessable-gated"',
  replace: '"key": "idempotency", "kind": "family", "anchor": "core", "witness": "seam-gated"',
};

const SEAM_GATED = 'seam-gated entries (families, requirements and invariants)';
const UNWITNESSABLE = 'unwitnessable requirements and invariants';
const CARRIED = (schema: string) => `the schema openwop-spec carries for it (the corpus has no ${schema})`;
const invariantsMismatch = (line: number, column: number, error: string) => ({
  messageId: 'schema-mismatch',
  file: INVARIANTS,
  line,
  column,
  data: {
    schema: 'spec/v2/invariants.schema.json',
    against: CARRIED('spec/v2/invariants.schema.json'),
    error,
    places: 1,
  },
});

/** Upstream's shapes: an invariant row with a key no gate reads, and a baseline with no seamGated and another counter. */
const UPSTREAM_RATIONALE = {
  file: INVARIANTS,
  find: '    non_testability_rationale: attestations never leave the build pipeline',
  replace: '    non_testability_rationale: attestations never leave the build pipeline\n    witnessReview: 2026-09-04',
};
const UPSTREAM_BASELINE =
  '{\n  "$comment": "counts may only go down",\n  "measured": "2026-09-04",\n  "unwitnessable": 2,\n  "openGaps": 0\n}\n';

testRule(RULE, {
  valid: [
    { name: 'a corpus with no evidence registries', base: 'good' },
    { name: 'classes that keep their rules, and counts at the baseline; a deleted family carries none', base: BASE },
    {
      name: "upstream's shapes: rows with keys no gate reads, and a baseline without seamGated",
      base: BASE,
      edits: [UPSTREAM_RATIONALE],
      files: { [BASELINE]: UPSTREAM_BASELINE },
    },
  ],
  invalid: [
    {
      ...DEFECTS,
      errors: [
        {
          messageId: 'protocol-unwitnessable',
          file: INVARIANTS,
          line: 7,
          column: 14,
          data: { entry: 'invariant `subject-required-on-owner`' },
        },
        {
          messageId: 'empty-tests',
          file: REQUIREMENTS,
          line: 8,
          column: 16,
          data: { entry: 'requirement `openwop.idempotency.replay-marker`', witness: 'witnessable-unaided' },
        },
        {
          messageId: 'unknown-class',
          file: REQUIREMENTS,
          line: 14,
          column: 18,
          data: {
            entry: 'requirement `openwop.idempotency.record-retention`',
            witness: 'blocked',
            set: `witnessClasses of ${DECLARATION}, and unwitnessable`,
          },
        },
        {
          messageId: 'no-rationale',
          file: REQUIREMENTS,
          line: 23,
          column: 20,
          data: { entry: 'requirement `openwop.idempotency.keys-not-logged`' },
        },
        {
          messageId: 'ratchet-up',
          file: BASELINE,
          line: 3,
          column: 16,
          data: {
            now: 2,
            allowed: 1,
            counted: SEAM_GATED,
            bearers: `family mcp (${DECLARATION}:8), requirement openwop.idempotency.effect-claim (${REQUIREMENTS}:27)`,
          },
        },
        {
          messageId: 'ratchet-down',
          file: BASELINE,
          line: 4,
          column: 20,
          severity: 'warning',
          data: { now: 3, allowed: 4, counted: UNWITNESSABLE },
        },
        {
          messageId: 'unknown-class',
          file: DECLARATION,
          line: 5,
          column: 76,
          data: { entry: 'family `idempotency`', witness: 'seam-gatd', set: `witnessClasses of ${DECLARATION}` },
        },
        {
          messageId: 'unwitnessable-family',
          file: DECLARATION,
          line: 6,
          column: 74,
          data: { entry: 'family `heartbeat`' },
        },
        { messageId: 'no-witness', file: DECLARATION, line: 7, column: 5, data: { entry: 'family `forms`' } },
      ],
    },
    {
      name: 'uses the documented classes while no declaration exists, and warns when no baseline exists',
      base: BASE,
      files: { [DECLARATION]: null, [BASELINE]: null },
      errors: [
        {
          messageId: 'baseline-missing',
          file: BASELINE,
          line: 1,
          column: 1,
          severity: 'warning',
          data: { target: BASELINE },
        },
      ],
    },
    {
      name: 'names a misspelt class against the documented set while no declaration exists',
      base: BASE,
      files: { [DECLARATION]: null },
      edits: [{ file: REQUIREMENTS, find: '"witness": "seam-gated"', replace: '"witness": "seam-gatd"' }],
      errors: [
        {
          messageId: 'unknown-class-undeclared',
          file: REQUIREMENTS,
          line: 14,
          column: 18,
          data: { entry: 'requirement `openwop.idempotency.record-retention`', witness: 'seam-gatd' },
        },
      ],
    },
    {
      name: 'reports an invalid invariants file against its schema, and still checks the row it can read',
      base: BASE,
      files: { [INVARIANTS]: 'invariants:\n  - id: x\n    tier: galactic\n' },
      errors: [
        invariantsMismatch(2, 5, '/invariants/0: required property "severity" is missing'),
        invariantsMismatch(2, 5, '/invariants/0: required property "tests" is missing'),
        invariantsMismatch(2, 5, '/invariants/0: required property "witness" is missing'),
        { messageId: 'no-witness', file: INVARIANTS, line: 2, column: 5, data: { entry: 'invariant `x`' } },
        invariantsMismatch(3, 5, '/invariants/0/tier: must be one of "protocol", "reference-impl", "advisory"'),
        {
          messageId: 'ratchet-down',
          file: BASELINE,
          line: 4,
          column: 20,
          severity: 'warning',
          data: { now: 1, allowed: 2, counted: UNWITNESSABLE },
        },
      ],
    },
    {
      name: 'fails when one family goes from witnessable-gated to seam-gated past the baseline, naming every bearer',
      base: BASE,
      edits: [RAISE],
      errors: [
        {
          messageId: 'ratchet-up',
          file: BASELINE,
          line: 3,
          column: 16,
          data: {
            now: 3,
            allowed: 2,
            counted: SEAM_GATED,
            bearers: `family idempotency (${DECLARATION}:5), family heartbeat (${DECLARATION}:6), requirement openwop.idempotency.record-retention (${REQUIREMENTS}:11)`,
          },
        },
      ],
    },
    {
      name: 'against a previous release, names only the entry that became seam-gated, at its own line',
      base: BASE,
      edits: [RAISE],
      previous: readTree(fixture(BASE)),
      errors: [
        {
          messageId: 'ratchet-up-since-release',
          file: BASELINE,
          line: 3,
          column: 16,
          data: { now: 3, allowed: 2, counted: SEAM_GATED, bearers: `family idempotency (${DECLARATION}:5)` },
        },
        {
          messageId: 'became-uncounted',
          file: DECLARATION,
          line: 5,
          column: 76,
          data: { entry: 'family `idempotency`', witness: 'seam-gated' },
        },
      ],
    },
    {
      name: 'reads the rationale of an invariant by its name alone: `rationale` is not it',
      base: BASE,
      edits: [
        {
          file: INVARIANTS,
          find: '    non_testability_rationale: attestations',
          replace: '    rationale: attestations',
        },
      ],
      errors: [
        {
          messageId: 'no-rationale',
          file: INVARIANTS,
          line: 14,
          column: 16,
          data: { entry: 'invariant `provenance-attestation-digest-bound`' },
        },
      ],
    },
    {
      name: "in upstream's shapes, still finds an unwitnessable invariant with no rationale, and a counter that is not a count",
      base: BASE,
      edits: [
        UPSTREAM_RATIONALE,
        {
          file: INVARIANTS,
          find: '    non_testability_rationale: attestations never leave the build pipeline\n',
          replace: '',
        },
      ],
      files: { [BASELINE]: UPSTREAM_BASELINE.replace('"openGaps": 0', '"openGaps": "none"') },
      errors: [
        {
          messageId: 'no-rationale',
          file: INVARIANTS,
          line: 8,
          column: 5,
          data: { entry: 'invariant `provenance-attestation-digest-bound`' },
        },
        {
          messageId: 'schema-mismatch',
          file: BASELINE,
          line: 5,
          column: 3,
          data: {
            schema: 'spec/v2/witness-baseline.schema.json',
            against: CARRIED('spec/v2/witness-baseline.schema.json'),
            error: '/openGaps: must be integer',
            places: 1,
          },
        },
      ],
    },
  ],
});

describe(RULE, () => {
  it('offers the closest class for a misspelt one, and says how to lower the baseline', () => {
    const hints = Object.fromEntries(
      runRule(RULE, DEFECTS).diagnostics.map((d) => [
        `${d.messageId} ${String(d.data?.witness ?? d.data?.counted)}`,
        d.hint,
      ]),
    );
    expect(hints['unknown-class seam-gatd']).toBe('did you mean `seam-gated`?');
    expect(hints[`ratchet-down ${UNWITNESSABLE}`]).toBe('run `openwop-spec baseline --update` to lower it');
  });
});
