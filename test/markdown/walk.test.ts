/** walkMarkdown: a visitor by node kind over a markdown tree, in document order, with each node's parent, index and ancestors. */
import { describe, expect, it } from 'vitest';
import { parseMarkdown, walkMarkdown } from '../../core/markdown/index.js';

const { tree } = parseMarkdown('# Title `code`\n\nSome *text* and `more`.\n\n- item `last`\n');

describe('walkMarkdown', () => {
  it('calls the visitor of each kind in document order, with parent, index and the ancestors', () => {
    const codes: Array<{ value: string; parent: string | undefined; index: number | undefined; ancestors: string[] }> =
      [];
    walkMarkdown(tree, {
      inlineCode(node, parent, index, ancestors) {
        codes.push({ value: node.value, parent: parent?.type, index, ancestors: ancestors.map((a) => a.type) });
      },
    });
    expect(codes).toEqual([
      { value: 'code', parent: 'heading', index: 1, ancestors: ['root', 'heading'] },
      { value: 'more', parent: 'paragraph', index: 3, ancestors: ['root', 'paragraph'] },
      { value: 'last', parent: 'paragraph', index: 1, ancestors: ['root', 'list', 'listItem', 'paragraph'] },
    ]);
  });

  it('does not go inside a node whose visitor says skip, and ends on stop', () => {
    const texts: string[] = [];
    walkMarkdown(tree, {
      heading: () => 'skip',
      text(node) {
        texts.push(node.value);
      },
    });
    expect(texts).toEqual(['Some ', 'text', ' and ', '.', 'item ']);

    const firstOnly: string[] = [];
    expect(walkMarkdown(tree, { inlineCode: (node) => (firstOnly.push(node.value), 'stop') })).toBe(false);
    expect(firstOnly).toEqual(['code']);
  });
});
