/**
 * ids/bindings on a list of ids (`*Ids`) that id-field-bindings.json does not name: upstream's
 * registry classifies `*Id` names only, so the list is held to what its singular is.
 */
import { testRule } from '../../rule-tester.js';
import { supportFiles } from '../../evidence/support.js';

const BASE = 'evidence/ids-good';
const RUN = 'schemas/v2/run.schema.json';
const LAST = '"interruptIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/interruptId" } }';

/** The fixture's run schema with one more property after its last one. */
const withList = (property: string) => ({ file: RUN, find: LAST, replace: `${LAST},\n    ${property}` });

const STRINGS = '"runIds": { "type": "array", "items": { "type": "string", "minLength": 1 } }';

testRule('ids/bindings', {
  valid: [
    {
      name: 'a list whose items $ref the kind its singular is bound to',
      base: BASE,
      files: supportFiles(),
      edits: [withList('"runIds": { "type": "array", "items": { "$ref": "ids.schema.json#/$defs/runId" } }')],
    },
    {
      name: 'a list of bare strings whose singular is recorded in notAKind',
      base: BASE,
      files: supportFiles(),
      edits: [withList('"causationIds": { "type": "array", "items": { "type": "string" } }')],
    },
  ],
  invalid: [
    {
      name: 'a list of bare strings whose singular is bound to a kind',
      base: BASE,
      files: supportFiles(),
      edits: [withList(STRINGS)],
      errors: [
        {
          messageId: 'binding-mismatch',
          file: RUN,
          line: 14,
          column: 5,
          data: { field: 'property `runIds` (a list of ids)', kind: 'runId', problem: 'its items do not $ref it' },
        },
      ],
    },
  ],
});
