import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CHECKS } from '../../checks/index.js';
import { loadConfig, matchesPattern } from '../../core/config/index.js';
import { isObject, loadCorpus, type Corpus } from '../../core/model/index.js';
import type { Diagnostic } from '../../core/output/index.js';
import { normativeTextProblems } from '../../core/registries/index.js';
import { runChecks } from '../../core/run/engine.js';
import { REPO } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

const RULES = [
  'schemas/closure',
  'docs/readability',
  'docs/core-budget',
  'api/security',
  'api/no-v1',
  'compat/monotone',
  'security/invariant-tests',
];

describe.skipIf(!upstreamPresent(import.meta.url))(
  'the parity rules on the upstream corpus',
  { timeout: 120_000 },
  () => {
    let corpus: Corpus;
    let found: Diagnostic[] = [];
    beforeAll(() => {
      corpus = loadCorpus(UPSTREAM, {
        config: loadConfig(UPSTREAM, path.join(REPO, 'test/upstream/openwop-spec.config.json')),
      });
      found = runChecks(
        corpus,
        CHECKS.filter((check) => RULES.some((rule) => matchesPattern(check.id, rule))),
      );
    }, 120_000);
    // A rule id, or the old id of rules split out of one, counted as one family as before the split.
    const of = (rule: string) => found.filter((d) => matchesPattern(d.rule, rule));

    it('finds what each rule should, and nothing from misreading the format', () => {
      expect(Object.fromEntries(RULES.map((rule) => [rule, of(rule).length]))).toEqual({
        'schemas/closure': 0,
        // 36 length findings, the same places upstream's own readability script reports (a code span one word)
        'docs/readability': 196,
        'docs/core-budget': 1,
        'api/security': 0,
        // 16 operations named by their v1 path, 5 v1 documents named bare in descriptions (`run-options.md`, `auth.md`)
        'api/no-v1': 21,
        'compat/monotone': 0,
        'security/invariant-tests': 1,
      });
    });

    it('places the findings that say something about the corpus as a whole once, as warnings', () => {
      // No scope vocabulary upstream (its scopes are prose in a scheme description): nothing to judge, nothing said.
      expect(of('api/security')).toEqual([]);
      expect(of('security/invariant-tests')[0]?.message).toBe(
        'the tests of 160 invariants are under folders the corpus does not hold (conformance/src/scenarios/ 151, conformance/src/coherence/ 9), so whether they exist is not checked',
      );
      expect(of('docs/core-budget')[0]?.message).toMatch(
        /^spec\/v2\/core\/ holds 31,871 words, 6,871 over its budget of 25,000; by document: identity\.md 2,485 \(7\.8%\)/,
      );
    });

    it('reads v1 spellings where they are: message names, descriptions and prose', () => {
      const lines = of('api/no-v1').map((d) => `${d.file}:${d.line} ${d.message}`);
      // A host event keeps its name: it is carried on the hostEvents channel only (events.md §Host events).
      expect(lines.filter((line) => line.startsWith('api/v2/asyncapi.yaml:280 '))).toEqual([]);
      expect(lines).toContain(
        'schemas/v2/suspend-request.schema.json:437 description: `/v1/interrupts/{token}` names an operation by its v1 path; v2 paths are unversioned',
      );
      // The doubled-prefix defect named in versioning.md is not an operation.
      expect(lines.some((line) => line.includes('/v1/v1'))).toBe(false);
    });

    it('holds RFC numbers to the Sources line and IETF RFCs out of it', () => {
      const messages = of('docs/readability').map((d) => d.message);
      expect(messages.some((m) => /RFC (9110|9728|5646|8785)/.test(m))).toBe(false);
      // A core document's old status line is docs/structure's finding (with its fix), not a second one here.
      expect(of('docs/readability').filter((d) => d.file === 'spec/v2/core/form-content-packs.md')).toEqual([]);
      expect(
        of('docs/readability')
          .filter((d) => d.file === 'spec/v2/ext/canvas/README.md')
          .map((d) => `${d.line}:${d.column} ${d.message.split(';')[0]}`),
      ).toEqual(expect.arrayContaining(['12:67 RFC 0169 in the status banner', '12:82 RFC 0167 in the status banner']));
    });

    it("judges each core family's v2 normativeText homes: 11 problems over 21 homes, each a document at an older commit", () => {
      const declaration = corpus.data('spec/v2/declaration.json')?.value;
      const families =
        isObject(declaration) && Array.isArray(declaration.families) ? declaration.families.filter(isObject) : [];
      const problems = families
        .filter((f) => f.anchor === 'core' && Array.isArray(f.normativeText))
        .flatMap((f) => normativeTextProblems(corpus, String(f.key), f.normativeText as unknown[]));
      expect(problems).toHaveLength(11);
      // eventLog's obligation is stated in replay.md, another of its homes: upstream reads the homes as one.
      expect(problems.filter((p) => p.family === 'eventLog').map((p) => p.message)).toEqual([
        'normativeText of `eventLog` names spec/v2/core/persistence.md, whose Normative home line does not name `eventLog`',
      ]);
      expect(problems.map((p) => p.message)).toContain(
        'normativeText of `forms` names spec/v2/core/form-content-packs.md, whose Normative home line does not name `forms`',
      );
    });
  },
);
