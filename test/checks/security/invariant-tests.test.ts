import { testRule } from '../../rule-tester.js';

const RULE = 'security/invariant-tests';
const INVARIANTS = 'SECURITY/invariants.yaml';

const invariants = (entries: string): string => `invariants:\n${entries}`;
const entry = (id: string, tier: string, tests: string[]) =>
  `  - id: ${id}\n    tier: ${tier}\n    severity: high\n    witness: witnessable-gated\n    tests: [${tests.join(', ')}]\n`;

/** The tests the invariants may name: two files of the conformance suite. */
const SUITE = {
  'conformance/src/scenarios/redaction.test.ts': 'test\n',
  'conformance/src/scenarios/keys.test.ts': 'test\n',
};

const MISSING = invariants(
  entry('a', 'protocol', ['conformance/src/scenarios/gone.test.ts']) +
    entry('b', 'protocol', ['openwop-app:backend/test/x.test.ts']),
);

testRule(RULE, {
  valid: [
    { name: 'the base corpus: no invariants' },
    {
      name: 'each protocol-tier invariant has a test that exists, by path or glob; scenario ids and other tiers are not resolved',
      files: {
        ...SUITE,
        [INVARIANTS]: invariants(
          entry('a', 'protocol', ['conformance/src/scenarios/redaction.test.ts']) +
            entry('b', 'protocol', ['conformance/src/scenarios/*.test.ts']) +
            entry('c', 'protocol', ['v2-sender-constraint-floor']) +
            entry('d', 'reference-impl', [
              'openwop-app:backend/test/x.test.ts',
              'conformance/src/scenarios/gone.test.ts',
            ]),
        ),
      },
    },
    {
      name: 'holds only the tiers of its option',
      files: { ...SUITE, [INVARIANTS]: MISSING },
      config: { rules: { [RULE]: ['error', { tiers: ['advisory'] }] } },
    },
  ],
  invalid: [
    {
      name: 'fires at a protocol-tier invariant whose test does not exist, or whose tests live only in another repository',
      files: { ...SUITE, [INVARIANTS]: MISSING },
      errors: [
        {
          messageId: 'tests-not-found',
          file: INVARIANTS,
          line: 6,
          column: 13,
          data: { invariant: 'a', tier: 'protocol', tests: 'conformance/src/scenarios/gone.test.ts' },
        },
        {
          messageId: 'tests-elsewhere',
          file: INVARIANTS,
          line: 11,
          column: 5,
          data: { invariant: 'b', tier: 'protocol', tests: 'openwop-app:backend/test/x.test.ts' },
        },
      ],
    },
    {
      name: 'names every test of an invariant none of whose tests exists',
      files: {
        ...SUITE,
        [INVARIANTS]: invariants(
          entry('a', 'protocol', ['conformance/src/scenarios/gone.test.ts', 'conformance/src/scenarios/lost.test.ts']),
        ),
      },
      errors: [
        {
          messageId: 'tests-not-found-plural',
          file: INVARIANTS,
          line: 6,
          column: 13,
          data: {
            invariant: 'a',
            tier: 'protocol',
            tests: 'conformance/src/scenarios/gone.test.ts, conformance/src/scenarios/lost.test.ts',
          },
        },
      ],
    },
    {
      name: 'says once, as a warning, when the tests are under folders the corpus does not hold',
      files: {
        [INVARIANTS]: invariants(
          entry('a', 'protocol', ['conformance/src/scenarios/x.test.ts']) +
            entry('b', 'protocol', ['conformance/src/scenarios/y.test.ts', 'conformance/src/coherence/z.test.ts']),
        ),
      },
      errors: [
        {
          messageId: 'tests-outside-corpus',
          file: INVARIANTS,
          line: 1,
          column: 1,
          severity: 'warning',
          data: { count: 2, folders: 'conformance/src/scenarios/ 2, conformance/src/coherence/ 1' },
        },
      ],
    },
  ],
});
