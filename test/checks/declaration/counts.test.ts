import { testRule } from '../../rule-tester.js';
import { DECLARATION, declaration, withFiles } from './corpus.js';

const COUNTS = 'spec/v2/core/counts.md';
const value = JSON.parse(declaration) as { families: Array<{ anchor?: string }>; metadata: unknown[] };
const core = value.families.filter((family) => family.anchor === 'core').length;
const size = value.metadata.length;
const families = (n: number) =>
  `# Capabilities\n\n> **Status: Stable.**\n\n## 5. Core families (${n})\n\nThe declaration has ${n} core families.\n`;
const keys = (n: number) => Array.from({ length: n }, (_, i) => `- \`key${i}\``).join('\n');
const headed = (listed: number) =>
  `# Capabilities\n\n> **Status: Stable.**\n\n### 3.1 Metadata keys (${size})\n\n${keys(listed)}\n\nEach is declared as metadata.\n`;
const registry = `the core families of ${DECLARATION}`;

testRule('declaration/counts', {
  valid: [
    {
      name: "counts that are the declaration's sizes; a section number is no count",
      files: withFiles({ [COUNTS]: families(core) }),
    },
    { name: 'a heading that counts what it heads', files: withFiles({ [COUNTS]: headed(size) }) },
    { name: 'no declaration: nothing to count against', files: { [COUNTS]: families(core + 2) } },
  ],
  invalid: [
    {
      name: 'a heading and a sentence that miscount the core families',
      files: withFiles({ [COUNTS]: families(core + 2) }),
      errors: [
        {
          messageId: 'count-wrong',
          file: COUNTS,
          line: 5,
          column: 22,
          data: { registry, phrase: `Core families (${core + 2})`, count: core, written: core + 2 },
        },
        {
          messageId: 'count-wrong',
          file: COUNTS,
          line: 7,
          column: 21,
          data: { registry, phrase: `${core + 2} core families`, count: core, written: core + 2 },
        },
      ],
    },
    {
      name: "a heading whose count is the declaration's but not what it heads",
      files: withFiles({ [COUNTS]: headed(size + 1) }),
      errors: [
        {
          messageId: 'heading-count-differs',
          file: COUNTS,
          line: 5,
          column: 24,
          data: {
            registry: `the metadata keys of ${DECLARATION}`,
            phrase: `Metadata keys (${size})`,
            listed: size + 1,
            written: size,
            count: size,
          },
        },
      ],
    },
  ],
});
