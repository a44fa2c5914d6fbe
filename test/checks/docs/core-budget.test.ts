import { words } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const RULE = 'docs/core-budget';
const A = 'spec/v2/core/a.md';
const B = 'spec/v2/core/b.md';

const budget = (words: number) => ({ rules: { [RULE]: ['error', { budget: words }] } });

/** 60 and 30 words in the core folder; 500 in a subfolder and 500 in an extension, which the budget does not count. */
const SIZED = { [A]: `${words(60)}\n`, [B]: `${words(30)}\n`, 'spec/v2/core/sub/c.md': `${words(500)}\n`, 'spec/v2/ext/x/README.md': `${words(500)}\n` };

const REGION = '<!-- generated: t from x; do not edit -->\n| a | b |\n<!-- /generated: t -->\n';

testRule(RULE, {
  valid: [
    { name: 'the base corpus, within the default budget' },
    { name: 'the sized corpus within the default budget', files: SIZED },
    { name: 'the sized corpus at exactly its budget', files: SIZED, config: budget(90) },
  ],
  invalid: [
    {
      name: 'fires at the largest document when the words go over, naming each share; subfolders and extensions are not counted',
      files: SIZED,
      config: budget(89),
      errors: [{ messageId: 'over-budget', file: A, line: 1, column: 1, data: { folder: 'spec/v2/core/', words: '90', over: '1', budget: '89', shares: 'a.md 60 (66.7%), b.md 30 (33.3%)', largest: A } }],
    },
    {
      name: "leaves the content of generated regions out: the registries restated are not the core's words",
      files: { [A]: `one two\n${REGION}`, [B]: null },
      config: budget(1),
      errors: [{ messageId: 'over-budget', file: A, line: 1, column: 1, data: { folder: 'spec/v2/core/', words: '15', over: '14', budget: '1', shares: 'a.md 15 (100.0%)', largest: A } }],
    },
    {
      name: 'counts as wc -w does: every run of non-space characters, markup included',
      files: { [A]: '# Title\n\n| a | b |\n```js\nx = 1\n```\n', [B]: null },
      config: budget(1),
      errors: [{ messageId: 'over-budget', file: A, line: 1, column: 1, data: { folder: 'spec/v2/core/', words: '12', over: '11', budget: '1', shares: 'a.md 12 (100.0%)', largest: A } }],
    },
    {
      name: 'groups the digits of large counts, and takes its folder from its options',
      files: { 'spec/v2/ext/x/one.md': `${words(1500)}\n` },
      config: { rules: { [RULE]: ['error', { budget: 1000, folder: 'spec/v2/ext/x/' }] } },
      errors: [{ messageId: 'over-budget', file: 'spec/v2/ext/x/one.md', line: 1, column: 1, data: { folder: 'spec/v2/ext/x/', words: '1,500', over: '500', budget: '1,000', shares: 'one.md 1,500 (100.0%)', largest: 'spec/v2/ext/x/one.md' } }],
    },
  ],
});
