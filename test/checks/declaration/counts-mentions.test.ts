/**
 * declaration/counts, the counts of the declaration, read from the mention index: a heading that
 * counts what it heads ("Metadata keys (N)"), a count in prose and one in a schema description,
 * each against the declaration's size and the entries listed under the heading.
 */
import { DECLARATION, eventsCase, registrySchemaFiles } from '../../events/helpers.js';
import { testRule, type CorpusCase, type InvalidCase } from '../../rule-tester.js';

const DOC = 'spec/v2/core/capabilities.md';
const WHAT = `the metadata keys of ${DECLARATION}`;

/** The events fixture (a declaration of one metadata key) with a capabilities document whose section 3.1 is `heading` over `block`. */
function capabilitiesCase(
  name: string,
  heading: string,
  block: string,
  rest: Partial<InvalidCase> = {},
): CorpusCase & Partial<InvalidCase> {
  return eventsCase(name, { [DOC]: `# Capabilities\n\n> **Status: Stable.**\n\n### ${heading}\n\n${block}\n` }, rest);
}

testRule('declaration/counts', {
  valid: [
    capabilitiesCase(
      "a heading whose count is the declaration's and the list's",
      '3.1 Metadata keys (1)',
      '- `deadline`',
    ),
    capabilitiesCase('a heading in a fenced block is no heading', 'Keys', '```markdown\n### Metadata keys (5)\n```'),
    capabilitiesCase(
      'a count of another list',
      'Keys',
      "The 3 metadata keys below are examples, not the declaration's: `a`, `b`, `c`.",
    ),
  ],
  invalid: [
    capabilitiesCase(
      "a heading whose count is neither the declaration's nor the list's",
      '3.1 Metadata keys (3)',
      '- `deadline`\n- `budget`',
      {
        errors: [
          {
            messageId: 'count-wrong',
            file: DOC,
            line: 5,
            column: 24,
            data: { registry: WHAT, phrase: 'Metadata keys (3)', count: 1, written: 3 },
          },
          {
            messageId: 'heading-count-differs',
            file: DOC,
            line: 5,
            column: 24,
            data: { registry: WHAT, phrase: 'Metadata keys (3)', listed: 2, written: 3, count: 1 },
          },
        ],
      },
    ),
    capabilitiesCase(
      "a heading whose count is the declaration's over an enumeration of another size",
      'Metadata keys (1)',
      '`deadline`, `budget`, and `owner`.',
      {
        errors: [
          {
            messageId: 'heading-count-differs',
            file: DOC,
            line: 5,
            column: 20,
            data: { registry: WHAT, phrase: 'Metadata keys (1)', listed: 3, written: 1, count: 1 },
          },
        ],
      },
    ),
  ] as InvalidCase[],
});

testRule('declaration/counts', {
  valid: [
    {
      name: 'a right count in a schema description',
      base: 'events/good',
      files: {
        ...registrySchemaFiles(),
        'schemas/v2/meta.schema.json': '{ "description": "One of the 1 metadata keys the declaration registers." }\n',
      },
    },
  ],
  invalid: [
    {
      name: 'a wrong count in a schema description',
      base: 'events/good',
      files: {
        ...registrySchemaFiles(),
        'schemas/v2/meta.schema.json': '{ "description": "One of the 17 metadata keys the declaration registers." }\n',
      },
      errors: [
        {
          messageId: 'count-wrong',
          file: 'schemas/v2/meta.schema.json',
          line: 1,
          column: 30,
          data: { registry: WHAT, phrase: '17 metadata keys', count: 1, written: 17 },
        },
      ],
    },
  ],
});
