import { testRule } from '../../rule-tester.js';
import { DECLARATION, REGISTRY, editedDeclaration, place, withFiles } from './corpus.js';

const registered = editedDeclaration((value) => {
  value.extensions.local = { name: 'someone', registered: '2026-10-01' };
  value.extensions.lease = { name: 'Lease Co.', registered: '2026-10-01' };
});
const missing = editedDeclaration((value) => delete value.extensions.example);
const assignable = editedDeclaration((value) => (value.extensions.example.reserved = false));
const unsaid = editedDeclaration((value) => delete value.extensions.example.reserved);

testRule('declaration/orgs', {
  valid: [{ name: 'registered orgs, none reserved or a domain, and `example` held by the protocol', files: REGISTRY }],
  invalid: [
    {
      name: 'an org that is reserved, and one that is a protocol event domain',
      files: withFiles({ [DECLARATION]: registered }),
      errors: [
        {
          messageId: 'reserved-org-registered',
          file: DECLARATION,
          ...place(registered, '"local": {'),
          data: { org: 'local' },
        },
        { messageId: 'org-is-domain', file: DECLARATION, ...place(registered, '"lease": {'), data: { org: 'lease' } },
      ],
    },
    {
      name: 'no `example` org',
      files: withFiles({ [DECLARATION]: missing }),
      errors: [{ messageId: 'no-example-org', file: DECLARATION, ...place(missing, '"extensions": {') }],
    },
    {
      name: '`example` assignable',
      files: withFiles({ [DECLARATION]: assignable }),
      errors: [{ messageId: 'example-assignable', file: DECLARATION, ...place(assignable, '"reserved": false', 12) }],
    },
    {
      name: '`example` that does not say it is reserved',
      files: withFiles({ [DECLARATION]: unsaid }),
      errors: [{ messageId: 'example-assignable', file: DECLARATION, ...place(unsaid, '"example": {') }],
    },
  ],
});
