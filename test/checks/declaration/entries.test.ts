import { expect, it } from 'vitest';
import { runRule, testRule } from '../../rule-tester.js';
import { DECLARATION, REGISTRY, editedDeclaration, place, withFiles } from './corpus.js';

const broken = editedDeclaration((value) => {
  value.profiles[1].predicate.families = ['forms', 'testSeams', 'frms'];
  value.profiles[1].predicate.metadata = ['profils'];
  value.profiles[1].predicate.profiles = ['openwop-discovery-core', 'openwop-nothing', value.profiles[1].id];
  value.aliases['forms.templates'].family = 'form';
});
const profile = (JSON.parse(broken) as { profiles: Array<{ id: string }> }).profiles[1]?.id as string;
const twice = editedDeclaration((value) => {
  value.families.push({ ...value.families[0] });
  value.profiles.push({ ...value.profiles[0] });
});
const first = JSON.parse(declaration()) as { families: Array<{ key: string }>; profiles: Array<{ id: string }> };

function declaration(): string {
  return REGISTRY[DECLARATION] as string;
}

const BROKEN = { files: withFiles({ [DECLARATION]: broken }) };

testRule('declaration/entries', {
  valid: [{ name: 'each entry once, and every name a profile or an alias gives declared and live', files: REGISTRY }],
  invalid: [
    {
      name: 'a family and a profile declared twice',
      files: withFiles({ [DECLARATION]: twice }),
      errors: [
        {
          messageId: 'duplicate-family',
          file: DECLARATION,
          ...place(twice, `"key": "${first.families[0]?.key}"`, 7, 2),
          data: { family: first.families[0]?.key as string, line: place(twice, '"families": [').line + 1 },
        },
        {
          messageId: 'duplicate-profile',
          file: DECLARATION,
          ...place(twice, `"id": "${first.profiles[0]?.id}"`, 6, 2),
          data: { profile: first.profiles[0]?.id as string },
        },
      ],
    },
    {
      name: 'a profile requiring an unknown and a retired family and an undeclared key, including an unknown profile and itself, and a dead alias',
      ...BROKEN,
      errors: [
        {
          messageId: 'profile-includes',
          file: DECLARATION,
          ...place(broken, '"openwop-nothing"'),
          data: { profile, included: 'openwop-nothing' },
        },
        {
          messageId: 'profile-includes-itself',
          file: DECLARATION,
          ...place(broken, `"${profile}"`, 0, 2),
          data: { profile },
        },
        {
          messageId: 'profile-requires-retired',
          file: DECLARATION,
          ...place(broken, '"testSeams"', 0, 2),
          data: { profile, family: 'testSeams' },
        },
        {
          messageId: 'profile-requires-unknown',
          file: DECLARATION,
          ...place(broken, '"frms"'),
          data: { profile, family: 'frms' },
        },
        {
          messageId: 'profile-requires-metadata',
          file: DECLARATION,
          ...place(broken, '"profils"'),
          data: { profile, key: 'profils' },
        },
        {
          messageId: 'alias-dead',
          file: DECLARATION,
          ...place(broken, '"family": "form"', 10),
          data: { alias: 'forms.templates', family: 'form' },
        },
      ],
    },
  ],
});

it('declaration/entries names the entry a misspelt name meant, and says what to do with a retired one', () => {
  expect(runRule('declaration/entries', BROKEN).diagnostics.map((d) => d.hint)).toEqual([
    'correct the name, or declare it',
    'take it out of its own predicate',
    'a retired family binds nothing: take it out of the predicate',
    'did you mean `forms`?',
    'did you mean `profiles`?',
    'did you mean `forms`?',
  ]);
});
