/**
 * Services: a value worked out once per corpus model, under a name, in place of a memo table
 * keyed by the corpus in each folder.
 */
import { describe, expect, it } from 'vitest';
import { corpusFromFiles, defineService, documentIndex, type Corpus } from '../../core/model/index.js';
import { DocumentIndexService } from '../../core/model/documents.js';

const twoDocCorpus = (): Corpus => corpusFromFiles('/nonexistent-root', { 'spec/a.md': '# A\n', 'spec/b.md': '# B\n' });

describe('a service', () => {
  it('is built on first use and the same value is given after, once per corpus', () => {
    let builds = 0;
    const Sizes = defineService('file count', (corpus) => {
      builds++;
      return { files: corpus.files.size };
    });
    const corpus = twoDocCorpus();
    expect(builds).toBe(0);
    const first = corpus.service(Sizes);
    expect(first).toEqual({ files: 2 });
    expect(corpus.service(Sizes)).toBe(first);
    expect(builds).toBe(1);
    // Another model (an edit, a fix pass) builds its own.
    const other = twoDocCorpus();
    expect(other.service(Sizes)).not.toBe(first);
    expect(builds).toBe(2);
  });

  it('is built again after a build that threw, and one that asks for itself is an error naming it', () => {
    let fail = true;
    const Flaky = defineService('flaky value', () => {
      if (fail) throw new Error('not yet');
      return 1;
    });
    const corpus = twoDocCorpus();
    expect(() => corpus.service(Flaky)).toThrow('not yet');
    fail = false;
    expect(corpus.service(Flaky)).toBe(1);

    const Loop: ReturnType<typeof defineService<number>> = defineService(
      'looping value',
      (c: Corpus): number => c.service(Loop) + 1,
    );
    expect(() => corpus.service(Loop)).toThrow('the looping value asks for itself while it is being built');
  });

  it("the folders' readers are services: documentIndex is the DocumentIndexService of its corpus", () => {
    const corpus = twoDocCorpus();
    expect(documentIndex(corpus)).toBe(corpus.service(DocumentIndexService));
    expect(documentIndex(corpus).resolve('b.md', 'spec/a.md')).toBe('spec/b.md');
    expect(documentIndex(corpus).resolve('c.md', 'spec/a.md')).toBeUndefined();
  });
});
