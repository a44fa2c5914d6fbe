import picomatch from 'picomatch';
import type { DataFile } from '../../core/model/index.js';
import { isObject, Location } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';
import { INVARIANTS } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/** `<repo>:<path>`: a test in a sibling repository, which documents that repository's CI and is not resolved here. */
const REPO_QUALIFIED = /^[A-Za-z0-9._-]+:/;

export default defineCheck({
  id: 'security/invariant-tests',
  summary:
    'Every protocol-tier security invariant names an in-repository test that exists: one of its bare test paths or globs matches a file of the repository',
  severity: 'error',
  messages: {
    'tests-elsewhere':
      '{{tier}}-tier invariant `{{invariant}}` names tests only in other repositories ({{tests}}); it needs one in this repository',
    'tests-not-found':
      '{{tier}}-tier invariant `{{invariant}}` names a test that no file of the repository matches ({{tests}})',
    'tests-not-found-plural':
      '{{tier}}-tier invariant `{{invariant}}` names tests that no file of the repository matches ({{tests}})',
    'tests-outside-corpus':
      'the tests of {{count}} invariants are under folders the corpus does not hold ({{folders}}), so whether they exist is not checked',
  },
  options: {
    tiers: {
      type: 'array',
      items: { type: 'string' },
      default: ['protocol'],
      description: 'the tiers whose invariants must have a test in this repository',
    },
  },
  run(corpus, report, { options }) {
    const file = corpus.data(INVARIANTS);
    const list =
      file && isObject(file.value) && Array.isArray(file.value.invariants) ? file.value.invariants : undefined;
    if (!file || !list) return; // witness/classes reports an unreadable invariants file
    const tiers = new Set(options.tiers as string[]);
    const paths = [...corpus.files.keys()];
    const folders = new Set(
      paths.flatMap((p) =>
        p
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    );
    const outside = new Map<string, Set<string>>();
    list.forEach((entry, index) => {
      if (!isObject(entry) || typeof entry.tier !== 'string' || !tiers.has(entry.tier) || !Array.isArray(entry.tests))
        return;
      const tests = entry.tests.filter((t): t is string => typeof t === 'string');
      // An empty list is witness/classes's finding; a scenario id (no path) is resolved by the suite, not here.
      const bare = tests.filter((t) => !REPO_QUALIFIED.test(t) && t.includes('/'));
      const qualified = tests.filter((t) => REPO_QUALIFIED.test(t));
      const id = typeof entry.id === 'string' || typeof entry.id === 'number' ? String(entry.id) : String(index);
      if (bare.length === 0) {
        if (qualified.length > 0 && qualified.length === tests.length) {
          report({
            location: Location.pointer(file, ['invariants', index, 'tests'], 'key'),
            messageId: 'tests-elsewhere',
            data: { invariant: id, tier: entry.tier, tests: qualified.join(', ') },
            hint: 'add the path of a test in this repository that witnesses it',
          });
        }
        return;
      }
      if (
        bare.some((test) => {
          const matches = picomatch(test, { dot: true });
          return paths.some((path) => matches(path));
        })
      )
        return;
      // A test under a folder the corpus does not hold at all cannot be judged: the folder is outside what was loaded.
      const unjudged = bare.filter((test) => !folders.has(base(test)));
      if (unjudged.length === bare.length) {
        for (const test of unjudged) outside.set(base(test), (outside.get(base(test)) ?? new Set()).add(id));
        return;
      }
      report({
        location: Location.pointer(file, ['invariants', index, 'tests', entry.tests.indexOf(bare[0])], 'value'),
        messageId: bare.length === 1 ? 'tests-not-found' : 'tests-not-found-plural',
        data: { invariant: id, tier: entry.tier, tests: bare.join(', ') },
        hint: 'point tests at the test file that witnesses the invariant, or add that test',
      });
    });
    if (outside.size > 0) reportOutside(file, outside, report);
  },
});

/** The folder a path or glob is under, up to its first wildcard. */
function base(test: string): string {
  const parts = test.split('/');
  const fixed: string[] = [];
  for (const part of parts.slice(0, -1)) {
    if (/[*?[\]{}!]/.test(part)) break;
    fixed.push(part);
  }
  return fixed.join('/');
}

function reportOutside(file: DataFile, outside: ReadonlyMap<string, ReadonlySet<string>>, report: Report): void {
  const folders = [...outside].sort((a, b) => b[1].size - a[1].size || (a[0] < b[0] ? -1 : 1));
  const count = new Set([...outside.values()].flatMap((ids) => [...ids])).size;
  report({
    location: Location.pointer(file, ['invariants'], 'key'),
    severity: 'warning',
    messageId: 'tests-outside-corpus',
    data: { count, folders: folders.map(([folder, ids]) => `${folder}/ ${ids.size}`).join(', ') },
    hint: 'include those folders in the corpus (config "include") to have each test path resolved',
  });
}
