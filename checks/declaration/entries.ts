import { Location, type PathSegment } from '../../core/model/index.js';
import { closest } from '../../core/output/index.js';
import { DECLARATION_PATH, readDeclaration } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'declaration/entries',
  summary:
    'Each family and profile of spec/v2/declaration.json is declared once, and what a profile requires or includes and what an alias points at is declared and live',
  severity: 'error',
  messages: {
    'duplicate-family': 'family `{{family}}` is declared twice (also at line {{line}})',
    'duplicate-profile': 'profile `{{profile}}` is declared twice',
    'profile-requires-retired': 'profile `{{profile}}` requires `{{family}}`, a retired family',
    'profile-requires-unknown': 'profile `{{profile}}` requires `{{family}}`, which is not a family',
    'profile-requires-metadata': 'profile `{{profile}}` requires metadata key `{{key}}`, which is not declared',
    'profile-includes-itself': 'profile `{{profile}}` includes itself',
    'profile-includes': 'profile `{{profile}}` includes `{{included}}`, which is not a profile',
    'alias-dead': 'alias `{{alias}}` points at `{{family}}`, which is not a live family',
  },
  run(corpus, report) {
    const file = corpus.data(DECLARATION_PATH);
    const declaration = readDeclaration(corpus);
    if (!file || !declaration) return;
    const at = (path: PathSegment[]) => ({ location: Location.pointer(file, path, 'value') });
    const first = new Map<string, number>();
    for (const family of declaration.families) {
      const twin = first.get(family.key);
      if (twin === undefined) first.set(family.key, family.index);
      else
        report({
          ...at(['families', family.index, 'key']),
          messageId: 'duplicate-family',
          data: { family: family.key, line: Location.pointer(file, ['families', twin], 'value').resolve().line },
          hint: 'keep one entry',
        });
    }
    const live = new Set(
      declaration.families.filter((family) => family.anchor !== 'deleted').map((family) => family.key),
    );
    const retired = new Set(
      declaration.families.filter((family) => family.anchor === 'deleted').map((family) => family.key),
    );
    const metadata = new Set(declaration.metadata.map((entry) => entry.key));
    const ids = new Set<string>();
    for (const profile of declaration.profiles) {
      if (ids.has(profile.id))
        report({
          ...at(['profiles', profile.index, 'id']),
          messageId: 'duplicate-profile',
          data: { profile: profile.id },
          hint: 'keep one entry',
        });
      ids.add(profile.id);
    }
    for (const profile of declaration.profiles) {
      profile.families.forEach((key, i) => {
        if (live.has(key)) return;
        const where = at(['profiles', profile.index, 'predicate', 'families', i]);
        if (retired.has(key))
          report({
            ...where,
            messageId: 'profile-requires-retired',
            data: { profile: profile.id, family: key },
            hint: 'a retired family binds nothing: take it out of the predicate',
          });
        else
          report({
            ...where,
            messageId: 'profile-requires-unknown',
            data: { profile: profile.id, family: key },
            hint: suggest(key, live),
          });
      });
      profile.metadata.forEach((key, i) => {
        if (!metadata.has(key))
          report({
            ...at(['profiles', profile.index, 'predicate', 'metadata', i]),
            messageId: 'profile-requires-metadata',
            data: { profile: profile.id, key },
            hint: suggest(key, metadata),
          });
      });
      profile.profiles.forEach((id, i) => {
        const where = at(['profiles', profile.index, 'predicate', 'profiles', i]);
        if (id === profile.id)
          report({
            ...where,
            messageId: 'profile-includes-itself',
            data: { profile: profile.id },
            hint: 'take it out of its own predicate',
          });
        else if (!ids.has(id))
          report({
            ...where,
            messageId: 'profile-includes',
            data: { profile: profile.id, included: id },
            hint: suggest(id, ids),
          });
      });
    }
    for (const alias of declaration.aliases) {
      if (!live.has(alias.family))
        report({
          ...at(['aliases', alias.key, 'family']),
          messageId: 'alias-dead',
          data: { alias: alias.key, family: alias.family },
          hint: suggest(alias.family, live),
        });
    }
  },
});

function suggest(name: string, candidates: Iterable<string>): string {
  const suggestion = closest(name, candidates);
  return suggestion ? `did you mean \`${suggestion}\`?` : 'correct the name, or declare it';
}
