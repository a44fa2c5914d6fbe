import { testRule } from '../../rule-tester.js';
import { DECLARATION, REGISTRY, editedDeclaration, place, withFiles } from './corpus.js';

const SCHEMA = 'spec/v2/declaration.schema.json';
const wrongType = editedDeclaration((value) => (value.extensions.acme.reserved = 'no'));
const repeated = editedDeclaration((value) => {
  const live = value.families.find((family: { anchor: string }) => family.anchor !== 'deleted');
  value.families.push({ ...live, key: 'secondFamily' });
  for (const family of value.families) if (family.anchor !== 'deleted') family.extra = true;
});
const familyCount = (JSON.parse(repeated) as { families: Array<{ anchor: string }> }).families.filter(
  (family) => family.anchor !== 'deleted',
).length;
const renamed = editedDeclaration((value) => {
  delete value.extensions.acme.name;
  value.extensions.acme.owner = 'Acme Workflow Systems, Inc.';
});

testRule('declaration/schema', {
  valid: [{ name: 'a declaration that matches its schema', files: REGISTRY }],
  invalid: [
    {
      name: 'a member of the wrong type',
      files: withFiles({ [DECLARATION]: wrongType }),
      errors: [
        {
          messageId: 'schema-mismatch',
          file: DECLARATION,
          ...place(wrongType, '"reserved": "no"'),
          data: { schema: SCHEMA, against: SCHEMA, error: '/extensions/acme/reserved: must be boolean', places: 1 },
        },
      ],
    },
    {
      name: 'one violation every family row repeats: one finding, at its first row, with the number of rows',
      files: withFiles({ [DECLARATION]: repeated }),
      errors: [
        {
          messageId: 'schema-mismatch-at-places',
          file: DECLARATION,
          ...place(repeated, '"extra"'),
          data: {
            schema: SCHEMA,
            against: SCHEMA,
            error: '/families/*: property "extra" is not allowed',
            places: familyCount,
          },
        },
      ],
    },
    {
      name: 'an org without its name, and with a member the schema no longer admits',
      files: withFiles({ [DECLARATION]: renamed }),
      errors: [
        {
          messageId: 'schema-mismatch',
          file: DECLARATION,
          ...place(renamed, '"acme": {'),
          data: {
            schema: SCHEMA,
            against: SCHEMA,
            error: '/extensions/acme: required property "name" is missing',
            places: 1,
          },
        },
        {
          messageId: 'schema-mismatch',
          file: DECLARATION,
          ...place(renamed, '"owner"'),
          data: {
            schema: SCHEMA,
            against: SCHEMA,
            error: '/extensions/acme: property "owner" is not allowed',
            places: 1,
          },
        },
      ],
    },
  ],
});
