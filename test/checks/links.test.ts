import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../helpers.js';

const LINKS = fixture('defects/links');

describe('links/file', () => {
  it('fires on a missing target, a definition to nowhere, and a link out of the root', () => {
    const found = run('links/file', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:3:5', 'spec/v2/core/a.md:3:39', 'spec/v2/core/a.md:14:1']);
    expect(found[1]?.message).toMatch(/climbs out of the corpus root/);
  });

  it('is quiet on existing files, directories, external URLs and same-file fragments', () => {
    expect(run('links/file', fixture('good'))).toEqual([]);
    const files = { 'spec/v2/core/x.md': doc('X', '[dir](../core/) [web](https://example.com/a.md) [mail](mailto:a@b.c) [top](#x) [self](x.md)') };
    expect(run('links/file', files)).toEqual([]);
  });
});

describe('links/anchor', () => {
  it('fires on a missing heading, a case slip, a missing same-file anchor and a wrong JSON pointer', () => {
    const found = run('links/anchor', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:4:18', 'spec/v2/core/a.md:4:65', 'spec/v2/core/a.md:5:67', 'spec/v2/core/a.md:6:66']);
    expect(found[1]?.hint).toBe('did you mean #real-heading?');
  });

  it('accepts explicit ids, duplicate-heading suffixes and GitHub line anchors', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', '<a id="pinned"></a>\n\n## Notes\n\n## Notes\n\n[a](#pinned) [b](#notes-1) [c](y.md#L10-L12) [d](y.md#why-this-exists)'),
      'spec/v2/core/y.md': doc('Y', 'text'),
    };
    expect(run('links/anchor', files)).toEqual([]);
    expect(run('links/anchor', fixture('good'))).toEqual([]);
  });
});

describe('links/section-ref', () => {
  it('fires where each unresolved citation is written, and on a link that stops at the document', () => {
    const found = run('links/section-ref', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:9:7', 'spec/v2/core/a.md:9:71', 'spec/v2/core/a.md:10:7']);
    expect(found[0]?.message).toBe('spec/v2/core/b.md has no section §"Imaginary"');
    expect(found[1]?.message).toBe('spec/v2/core/b.md has no section §7');
    expect(found[2]?.fix).toBeDefined();
  });

  it('resolves quoted, numbered, appendix, word and same-document citations', () => {
    const files = {
      'spec/v2/core/x.md': doc(
        'X',
        [
          '[y.md §"Layer 1: Idempotency-Key"](y.md#layer-1-idempotency-key), [y.md §1.4](y.md#14-response-version-header),',
          '[y.md §6](y.md#6-errors), [y.md §B.2](y.md#b2-extra), [y.md §Snapshot](y.md#snapshot), [§"Why this exists"](#why-this-exists).',
          'Ranges follow their document: [y.md](y.md) §1.4 and §6; RFC 9110 §8.8.3 and BCP 47 §2 are external standards.',
        ].join('\n'),
      ),
      'spec/v2/core/y.md': doc('Y', '## Layer 1: `Idempotency-Key`\n\n## Snapshot\n\n## 1. Negotiation\n\n### 1.4 Response version header\n\n## 6. Errors\n\n## B.2 Extra'),
    };
    expect(run('links/section-ref', files)).toEqual([]);
    expect(run('links/section-ref', fixture('good'))).toEqual([]);
  });

  it('names the heading a wrong fragment should have been', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', 'See [y.md §"Two"](y.md#one).'),
      'spec/v2/core/y.md': doc('Y', '## One\n\n## Two'),
    };
    const [finding] = run('links/section-ref', files);
    expect(finding?.message).toBe('the link for §"Two" points at #one, but the cited heading is #two');
    expect(finding?.fix?.text).toBe('y.md#two');
  });
});

describe('links/bare-doc-reference', () => {
  it('fires on a corpus document named in prose, as a file name or a path', () => {
    const found = run('links/bare-doc-reference', LINKS);
    expect(where(found)).toEqual(['spec/v2/core/a.md:9:66', 'spec/v2/core/a.md:11:17', 'spec/v2/core/a.md:11:31']);
    expect(found.map((d) => d.fix?.text)).toEqual(['[b.md](b.md)', '[b.md](b.md)', '[spec/v2/core/b.md](b.md)']);
  });

  it('links from the citing file, wherever the target lives', () => {
    const files = { 'docs/guide.md': '# G\n\nSee packs.md.\n', 'spec/v2/core/packs.md': doc('Packs', 'x') };
    const [finding] = run('links/bare-doc-reference', files);
    expect(finding?.fix?.text).toBe('[packs.md](../spec/v2/core/packs.md)');
  });

  it('is quiet on code, links, headings, unknown documents and non-corpus names', () => {
    const files = {
      'spec/v2/core/x.md': doc('X', '`y.md` and [y.md](y.md) and [see](y.md), README.md, spec/v1/old.md, notes.mdx, ```y.md```.\n\n```text\ny.md\n```'),
      'spec/v2/core/y.md': doc('Y', 'y'),
    };
    expect(run('links/bare-doc-reference', files)).toEqual([]);
    expect(run('links/bare-doc-reference', fixture('good'))).toEqual([]);
  });
});
