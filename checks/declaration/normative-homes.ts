import { Location, isObject } from '../../core/model/index.js';
import {
  DECLARATION_PATH,
  familiesByKey,
  normativeHomes,
  normativeTextProblems,
  readDeclaration,
  resolveSection,
} from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

const CORE_DOCUMENT = /^spec\/v2\/(core|ext)\/.+\.md$/;

export default defineCheck({
  id: 'declaration/normative-homes',
  summary:
    "The Normative home lines of the v2 documents and the families of spec/v2/declaration.json agree: a family's section is in a document whose line names it, a line names no retired family nor one homed elsewhere, and each core family's normativeText names complete homes",
  description:
    "A family's normative-home obligation is met as upstream's predicate meets it (scripts/check-v2-normative-home.mjs): every spec/v2 home names the family in its Normative home line, and the homes together, read as one, have a paragraph that names the family with a MUST, SHOULD or MAY. An extension README co-points and carries no obligation; a home the corpus does not hold (a v1 document) may, so then nothing is said. A section that leads to no heading is declaration/sections's finding, and a family the declaration does not list is docs/structure's.",
  severity: 'error',
  messages: {
    'home-names-retired': 'Normative home names `{{family}}`, a retired family',
    'home-in-other-document':
      'Normative home names `{{family}}`, but its section in {{registry}} is {{section}}, in another document',
    'home-line-missing': '`{{family}}` has its section in {{target}}, whose Normative home line does not name it',
    'normative-home-absent': 'normativeText of `{{family}}` names {{home}}, which is not a document of the corpus',
    'normative-home-unclaimed':
      'normativeText of `{{family}}` names {{home}}, whose Normative home line does not name `{{family}}`',
    'normative-text-unstated':
      'normativeText of `{{family}}` names {{homes}}, but no paragraph of it names `{{family}}` with a MUST, SHOULD or MAY',
    'normative-text-unstated-homes':
      'normativeText of `{{family}}` names {{homes}}, but no paragraph of any of them names `{{family}}` with a MUST, SHOULD or MAY',
  },
  run(corpus, report) {
    const file = corpus.data(DECLARATION_PATH);
    const declaration = readDeclaration(corpus);
    if (!file || !declaration) return;
    const byKey = familiesByKey(declaration);
    // Where each live family's section leads, and whether that document names it as a normative home.
    const homes = new Map<string, Set<string>>();
    for (const markdown of corpus.markdownFiles()) {
      if (!CORE_DOCUMENT.test(markdown.path)) continue;
      const names = normativeHomes(markdown);
      homes.set(markdown.path, new Set(names.map((name) => name.family)));
      for (const name of names) {
        const family = byKey.get(name.family);
        if (!family) continue;
        const where = { file: markdown.path, line: name.line, column: name.column };
        if (family.anchor === 'deleted' || family.section === undefined) {
          report({
            ...where,
            messageId: 'home-names-retired',
            data: { family: family.key },
            hint: 'remove it from the Normative home line',
          });
          continue;
        }
        const resolved = resolveSection(corpus, family.section);
        // A section whose document has no such heading may be a `§ key` entry mistyped: it is reported at the declaration.
        if (
          resolved.form === 'heading' &&
          (resolved.anchorExists || !resolved.documentExists) &&
          resolved.file !== markdown.path
        ) {
          report({
            ...where,
            messageId: 'home-in-other-document',
            data: { family: family.key, section: family.section, registry: DECLARATION_PATH },
            hint: `point the family's section at a heading of this document, or take \`${family.key}\` off this line`,
          });
        }
      }
    }
    for (const family of declaration.families) {
      if (family.section === undefined) continue;
      const resolved = resolveSection(corpus, family.section);
      if (
        !resolved.documentExists ||
        !resolved.anchorExists ||
        resolved.form !== 'heading' ||
        homes.get(resolved.file)?.has(family.key)
      )
        continue;
      report({
        location: Location.pointer(file, ['families', family.index, 'section'], 'value'),
        messageId: 'home-line-missing',
        data: { family: family.key, target: resolved.file },
        hint: `add \`${family.key}\` to the "> **Normative home:**" line of ${resolved.file}`,
      });
    }
    // Each core family's normativeText names complete homes (core/registries/normative-home.ts says what complete is).
    const families = isObject(file.value) && Array.isArray(file.value.families) ? file.value.families : [];
    families.forEach((family, index) => {
      if (
        !isObject(family) ||
        family.anchor !== 'core' ||
        typeof family.key !== 'string' ||
        !Array.isArray(family.normativeText)
      )
        return;
      for (const problem of normativeTextProblems(corpus, family.key, family.normativeText)) {
        const where = {
          location: Location.pointer(file, ['families', index, 'normativeText', problem.entry], 'value'),
        };
        if (problem.kind === 'unstated') {
          report({
            ...where,
            messageId: problem.paths.length > 1 ? 'normative-text-unstated-homes' : 'normative-text-unstated',
            data: { family: family.key, homes: problem.paths.join(' and ') },
            hint: problem.hint,
          });
        } else {
          report({
            ...where,
            messageId: problem.kind === 'absent' ? 'normative-home-absent' : 'normative-home-unclaimed',
            data: { family: family.key, home: problem.paths[0] as string },
            hint: problem.hint,
          });
        }
      }
    });
  },
});
