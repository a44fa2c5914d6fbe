import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/index.js';
import coreWords from '../../generators/core-words.js';
import { doc, words } from '../helpers.js';

describe('core-words generator', () => {
  it('fills every count/core-words region with the grouped total, leaving generated region contents out of it', () => {
    const region = '<!-- generated: count/core-words -->**0**<!-- /generated: count/core-words -->';
    const corpus = corpusFromFiles('/nonexistent-root', {
      'spec/v2/core/a.md': doc('A', `The core holds ${region} words.`),
      'spec/v2/core/b.md': `${words(1200)}\n`,
    });
    const outputs = coreWords.generate(corpus, () => {}, { contentOf: () => undefined });
    expect(outputs).toEqual([{ path: 'spec/v2/core/a.md', region: 'count/core-words', content: '**1,221**' }]);
  });
});
