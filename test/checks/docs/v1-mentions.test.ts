import { doc } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const A = 'spec/v2/core/x.md';
const B = 'spec/v2/core/y.md';
/** Four mentions: three in x.md (running text, a code span, v1.0), one in y.md; v10 and xv1 are none. */
const MENTIONS = { [A]: doc('X', 'Unlike v1, a run is closed. The `v1` header is gone; v1.0 too.'), [B]: doc('Y', 'No v1 here but this. A v10 or xv1 is not one.') };
const recorded = (count: number) => ({ rules: { 'docs/v1-mentions': ['error', { v1Mentions: count }] } });

testRule('docs/v1-mentions', {
  valid: [
    { name: 'no recorded count: not held to one', files: MENTIONS },
    { name: 'the recorded count held', files: MENTIONS, config: recorded(4) },
    { name: 'generated text is not counted', files: { ...MENTIONS, 'spec/v2/core/z.md': doc('Z', '<!-- generated: t from x; do not edit -->\nv1 v1 v1\n<!-- /generated: t -->') }, config: recorded(4) },
  ],
  invalid: [
    {
      name: 'above the recorded count: an error naming each file\'s share',
      files: MENTIONS,
      config: recorded(3),
      errors: [{ messageId: 'v1-mentions-up', file: B, line: 7, column: 4, severity: 'error', data: { count: 4, recorded: 3, shares: 'spec/v2/core/x.md 3, spec/v2/core/y.md 1' } }],
    },
    {
      name: 'below the recorded count: a warning to lower it',
      files: MENTIONS,
      config: { rules: { 'docs/v1-mentions': ['warn', { v1Mentions: 9 }] } },
      errors: [{ messageId: 'v1-mentions-down', file: B, line: 7, column: 4, severity: 'warning', data: { count: 4, recorded: 9 } }],
    },
    {
      name: 'the place is the last mention in document order, running text after a code span',
      files: { [A]: MENTIONS[A] },
      config: recorded(2),
      errors: [{ messageId: 'v1-mentions-up', file: A, line: 7, column: 54, data: { count: 3, recorded: 2, shares: 'spec/v2/core/x.md 3' } }],
    },
    {
      name: 'the place is the last mention in document order, a code span after running text',
      files: { [A]: doc('X', 'Text v1 then `v1` code; at the end `v1 api`.') },
      config: recorded(2),
      errors: [{ messageId: 'v1-mentions-up', file: A, line: 7, column: 36, data: { count: 3, recorded: 2, shares: 'spec/v2/core/x.md 3' } }],
    },
  ],
});
