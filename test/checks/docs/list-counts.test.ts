/**
 * docs/list-counts on small corpora: a sentence that counts what the table of its section lists,
 * right and wrong, and the counts it must leave alone (bounds, other nouns, two tables, v1).
 */
import { doc } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const RULE = 'docs/list-counts';
const PACKS = 'spec/v2/core/packs.md';

/** A table whose first column lists four schemas: three in one cell, one in another. */
const SCHEMA_TABLE = '| Schema | Author |\n| --- | --- |\n| `a-manifest`, `b-manifest` and `c-manifest` | pack |\n| `lockfile` | host |';
/** A table of three rules, one a row, whose first cells are words. */
const RULE_TABLE = '| Rule | Requirement |\n| --- | --- |\n| Naming | kebab-case |\n| Growth | closed enum |\n| Prefix | `openwop.` |';

const packs = (body: string) => ({ [PACKS]: doc('Packs', body) });

testRule(RULE, {
  valid: [
    { name: 'a count that agrees with the code spans the table lists', files: packs(`The 4 manifest schemas carry an \`$id\`.\n\n${SCHEMA_TABLE}`) },
    { name: 'a count that agrees with the rows of a table of words', files: packs(`These 3 rules hold.\n\n${RULE_TABLE}`) },
    {
      name: 'a bound, a noun no column heads, a count of v1 entries, and a count in a code span',
      files: packs(`At least 2 schemas are signed; 7 packs ship; the 9 v1 schemas stay; \`5 schemas\` is a literal.\n\n${SCHEMA_TABLE}`),
    },
    { name: 'a count in another section than the table', files: packs(`The 9 schemas are elsewhere.\n\n## The family\n\n${SCHEMA_TABLE}`) },
    { name: 'two tables of the section headed alike: which one is counted cannot be told', files: packs(`The 9 schemas follow.\n\n${SCHEMA_TABLE}\n\n${SCHEMA_TABLE}`) },
  ],
  invalid: [
    {
      name: 'a count one short of the code spans the table lists',
      files: packs(`The 3 manifest schemas carry an \`$id\`.\n\n${SCHEMA_TABLE}`),
      errors: [{ messageId: 'list-count', file: PACKS, line: 7, column: 5, data: { phrase: '3 manifest schemas', written: 3, listed: 4, column: 'Schema' } }],
    },
    {
      name: 'a count of rules over a table of three rows, after the table',
      files: packs(`${RULE_TABLE}\n\nAll 4 rules are normative.`),
      errors: [{ messageId: 'list-count', file: PACKS, line: 13, column: 5, data: { phrase: '4 rules', written: 4, listed: 3, column: 'Rule' } }],
    },
  ],
});
