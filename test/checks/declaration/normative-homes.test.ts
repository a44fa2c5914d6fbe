import { testRule } from '../../rule-tester.js';
import { DECLARATION, FORMS_MD, REGISTRY, editedDeclaration, forms, place, withFiles } from './corpus.js';

const KEY = 'forms';
const elsewhere = editedDeclaration((value) => (value.families[0].section = 'core/overview.md#profiles'));
const retired = forms.replace(
  '> **Normative home:** `forms`.',
  '> **Normative home:** `forms`, `testSeams`, `nosuch`.',
);
const withHome = (homes: string[]) =>
  editedDeclaration((value) => {
    const family = (value.families as Array<Record<string, unknown>>).find((f) => f.key === KEY);
    if (family) family.normativeText = homes;
  });
const stated = `${forms}\nA host that advertises \`${KEY}\` MUST render every field of a template.\n`;
const homeClaimingDoc = (name: string) =>
  `# ${name}\n\n> **Status: Stable.**\n> **Normative home:** \`${KEY}\`.\n\n## Why this exists\n\nThe ${KEY} family is described here.\n`;
const bare = `# Bare\n\n> **Status: Stable.**\n\n## Why this exists\n\nThe ${KEY} family exists.\n`;
const lead = `# Lead\n\n> **Status: Stable.**\n> **Normative home:** \`${KEY}\`.\n\n## Why this exists\n\nWhen a host advertises \`${KEY}\`, it:\n\n- MUST keep it.\n`;
const nowhere = withHome([FORMS_MD, 'spec/v2/core/nowhere.md']);
const other = withHome([FORMS_MD, 'spec/v2/core/bare.md']);
// Homes outside core/ and ext/: their Normative home lines are not held to the families' sections, only read for normativeText.
const both = withHome(['spec/v2/x.md', 'spec/v2/y.md']);

testRule('declaration/normative-homes', {
  valid: [
    { name: "each family named by the Normative home line of its section's document", files: REGISTRY },
    {
      name: 'a home that names the family and states its requirements; a v1 home is not judged',
      files: withFiles({ [DECLARATION]: withHome([FORMS_MD, 'spec/v1/capabilities.md']), [FORMS_MD]: stated }),
    },
    {
      name: 'one home of two states the obligation: the homes are read as one',
      files: withFiles({
        [DECLARATION]: both,
        'spec/v2/x.md': homeClaimingDoc('X'),
        'spec/v2/y.md': homeClaimingDoc('Y').replace('is described here.', 'MUST be described here.'),
      }),
    },
    {
      name: 'a home the corpus cannot read (v1) may state it',
      files: withFiles({
        [DECLARATION]: withHome(['spec/v2/x.md', 'spec/v1/capabilities.md']),
        'spec/v2/x.md': homeClaimingDoc('X'),
      }),
    },
    {
      name: 'a lead-in paragraph and its list are one statement',
      files: withFiles({ [DECLARATION]: withHome(['spec/v2/lead.md']), 'spec/v2/lead.md': lead }),
    },
  ],
  invalid: [
    {
      name: "a home line naming a family whose section is in another document, and the family its section's document does not name",
      files: withFiles({ [DECLARATION]: elsewhere }),
      errors: [
        {
          messageId: 'home-in-other-document',
          file: FORMS_MD,
          ...place(forms, '`forms`', 1),
          data: { family: KEY, section: 'core/overview.md#profiles', registry: DECLARATION },
        },
        // The metadata key `profiles` points at the same heading first; the family's section is the second.
        {
          messageId: 'home-line-missing',
          file: DECLARATION,
          ...place(elsewhere, '"core/overview.md#profiles"', 0, 2),
          data: { family: KEY, target: 'spec/v2/core/overview.md' },
        },
      ],
    },
    {
      name: "a home line naming a retired family; an unknown name is docs/structure's",
      files: withFiles({ [FORMS_MD]: retired }),
      errors: [
        {
          messageId: 'home-names-retired',
          file: FORMS_MD,
          ...place(retired, '`testSeams`', 1),
          data: { family: 'testSeams' },
        },
      ],
    },
    {
      name: 'a normativeText home the corpus does not hold',
      files: withFiles({ [DECLARATION]: nowhere, [FORMS_MD]: stated }),
      errors: [
        {
          messageId: 'normative-home-absent',
          file: DECLARATION,
          ...place(nowhere, '"spec/v2/core/nowhere.md"'),
          data: { family: KEY, home: 'spec/v2/core/nowhere.md' },
        },
      ],
    },
    {
      name: 'a normativeText home whose Normative home line does not name the family',
      files: withFiles({ [DECLARATION]: other, [FORMS_MD]: stated, 'spec/v2/core/bare.md': bare }),
      errors: [
        {
          messageId: 'normative-home-unclaimed',
          file: DECLARATION,
          ...place(other, '"spec/v2/core/bare.md"'),
          data: { family: KEY, home: 'spec/v2/core/bare.md' },
        },
      ],
    },
    {
      name: 'no home states the obligation: once, at the first home',
      files: withFiles({
        [DECLARATION]: both,
        'spec/v2/x.md': homeClaimingDoc('X'),
        'spec/v2/y.md': homeClaimingDoc('Y'),
      }),
      errors: [
        {
          messageId: 'normative-text-unstated-homes',
          file: DECLARATION,
          ...place(both, '"spec/v2/x.md"'),
          data: { family: KEY, homes: 'spec/v2/x.md and spec/v2/y.md' },
        },
      ],
    },
    {
      name: 'its one home states nothing of it',
      files: withFiles({ [DECLARATION]: withHome(['spec/v2/x.md']), 'spec/v2/x.md': homeClaimingDoc('X') }),
      errors: [
        {
          messageId: 'normative-text-unstated',
          file: DECLARATION,
          ...place(withHome(['spec/v2/x.md']), '"spec/v2/x.md"'),
          data: { family: KEY, homes: 'spec/v2/x.md' },
        },
      ],
    },
  ],
});
