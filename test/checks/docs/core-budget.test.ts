import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../../core/model/index.js';
import coreWords from '../../../generators/core-words.js';
import { doc, run, where } from '../../helpers.js';
import { runWithOptions } from '../options.js';

const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');

describe('docs/core-budget', () => {
  const files = {
    'spec/v2/core/a.md': `${words(60)}\n`,
    'spec/v2/core/b.md': `${words(30)}\n`,
    'spec/v2/core/sub/c.md': `${words(500)}\n`,
    'spec/v2/ext/x/README.md': `${words(500)}\n`,
  };

  it('is quiet while the core documents stay within the budget', () => {
    expect(run('docs/core-budget', files)).toEqual([]);
    expect(runWithOptions('docs/core-budget', files, { budget: 90 })).toEqual([]);
  });

  it('fires at the largest document when the words go over, naming each share', () => {
    const found = runWithOptions('docs/core-budget', files, { budget: 89 });
    expect(where(found)).toEqual(['spec/v2/core/a.md:1:1']);
    expect(found[0]?.message).toBe('spec/v2/core/ holds 90 words, 1 over its budget of 89; by document: a.md 60 (66.7%), b.md 30 (33.3%)');
  });

  it('leaves the content of generated regions out: the registries restated are not the core\'s words', () => {
    const region = '<!-- generated: t from x; do not edit -->\n| a | b |\n<!-- /generated: t -->\n';
    const found = runWithOptions('docs/core-budget', { 'spec/v2/core/a.md': `one two\n${region}` }, { budget: 1 });
    expect(found[0]?.message).toContain('holds 15 words');
  });

  it('counts as wc -w does: every run of non-space characters, markup included', () => {
    const found = runWithOptions('docs/core-budget', { 'spec/v2/core/a.md': '# Title\n\n| a | b |\n```js\nx = 1\n```\n' }, { budget: 1 });
    expect(found[0]?.message).toContain('holds 12 words');
  });
});

describe('core-words generator', () => {
  it('fills every count/core-words region with the grouped total, leaving generated region contents out of it', () => {
    const region = '<!-- generated: count/core-words -->**0**<!-- /generated: count/core-words -->';
    const corpus = corpusFromFiles('/nonexistent-root', { 'spec/v2/core/a.md': doc('A', `The core holds ${region} words.`), 'spec/v2/core/b.md': `${words(1200)}\n` });
    const outputs = coreWords.generate(corpus, () => {}, { contentOf: () => undefined });
    expect(outputs).toEqual([{ path: 'spec/v2/core/a.md', region: 'count/core-words', content: '**1,221**' }]);
  });
});
