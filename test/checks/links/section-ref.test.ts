import { describe, expect, it } from 'vitest';
import { doc, fixture, run, where } from '../../helpers.js';
import { LINKS } from './helpers.js';

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
