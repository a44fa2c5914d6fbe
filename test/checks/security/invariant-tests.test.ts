import { describe, expect, it } from 'vitest';
import { run } from '../../helpers.js';
import { runWithOptions } from '../options.js';

const invariants = (entries: string): string => `invariants:\n${entries}`;
const entry = (id: string, tier: string, tests: string[]) => `  - id: ${id}\n    tier: ${tier}\n    severity: high\n    witness: witnessable-gated\n    tests: [${tests.join(', ')}]\n`;

const SUITE = { 'conformance/src/scenarios/redaction.test.ts': 'test\n', 'conformance/src/scenarios/keys.test.ts': 'test\n' };

describe('security/invariant-tests', () => {
  it('is quiet when each protocol-tier invariant has a test that exists; scenario ids and other tiers are not resolved', () => {
    const files = {
      ...SUITE,
      'SECURITY/invariants.yaml': invariants(
        entry('a', 'protocol', ['conformance/src/scenarios/redaction.test.ts']) +
          entry('b', 'protocol', ['conformance/src/scenarios/*.test.ts']) +
          entry('c', 'protocol', ['v2-sender-constraint-floor']) +
          entry('d', 'reference-impl', ['openwop-app:backend/test/x.test.ts', 'conformance/src/scenarios/gone.test.ts']),
      ),
    };
    expect(run('security/invariant-tests', files)).toEqual([]);
  });

  it('fires at a protocol-tier invariant whose tests do not exist, or live only in another repository', () => {
    const text = invariants(entry('a', 'protocol', ['conformance/src/scenarios/gone.test.ts']) + entry('b', 'protocol', ['openwop-app:backend/test/x.test.ts']));
    const found = run('security/invariant-tests', { ...SUITE, 'SECURITY/invariants.yaml': text });
    expect(found.map((d) => `${d.line}:${d.column} ${d.message}`)).toEqual([
      '6:13 protocol-tier invariant `a` names a test that no file of the repository matches (conformance/src/scenarios/gone.test.ts)',
      '11:5 protocol-tier invariant `b` names tests only in other repositories (openwop-app:backend/test/x.test.ts); it needs one in this repository',
    ]);
    expect(runWithOptions('security/invariant-tests', { ...SUITE, 'SECURITY/invariants.yaml': text }, { tiers: ['advisory'] })).toEqual([]);
  });

  it('says once, as a warning, when the tests are under folders the corpus does not hold', () => {
    const text = invariants(entry('a', 'protocol', ['conformance/src/scenarios/x.test.ts']) + entry('b', 'protocol', ['conformance/src/scenarios/y.test.ts', 'conformance/src/coherence/z.test.ts']));
    const found = run('security/invariant-tests', { 'SECURITY/invariants.yaml': text });
    expect(found.map((d) => `${d.line} ${d.severity} ${d.message}`)).toEqual([
      '1 warning the tests of 2 invariants are under folders the corpus does not hold (conformance/src/scenarios/ 2, conformance/src/coherence/ 1), so whether they exist is not checked',
    ]);
  });
});
