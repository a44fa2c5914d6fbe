import { describe, expect, it } from 'vitest';
import type { Nodes, Parent } from 'mdast';
import { inlineCodes, parseMarkdown, plainText, proseWordCount, whitespaceTokens } from '../../core/markdown/index.js';

describe('whitespaceTokens', () => {
  it('counts the runs that \\s does not match, for every white space \\s knows', () => {
    const spaces = [...Array(0x10000).keys()]
      .map((code) => String.fromCharCode(code))
      .filter((char) => /\s/.test(char));
    expect(spaces.length).toBeGreaterThan(20);
    const text = spaces.map((space, index) => `w${index}${space}${space}`).join('');
    expect(whitespaceTokens(text)).toBe(text.split(/\s+/).filter(Boolean).length);
    expect(whitespaceTokens(text)).toBe(spaces.length);
  });

  it('counts nothing in an empty or blank text, and a lone dash or a surrogate pair as a token', () => {
    expect(whitespaceTokens('')).toBe(0);
    expect(whitespaceTokens(' \n\t ')).toBe(0);
    expect(whitespaceTokens(' - 😀 a')).toBe(3);
  });

  it('counts an inline code span as one word of prose', () => {
    const { tree } = parseMarkdown('Use `tenantId, scopeId` here.\n');
    const paragraph = tree.children[0];
    expect(paragraph?.type).toBe('paragraph');
    expect(proseWordCount(paragraph as never)).toBe(3);
  });

  it('counts every node as the tokens of its plain text with each code span one word, joins and boundaries alike', () => {
    const { tree } = parseMarkdown(
      [
        '# Title `code`word',
        '',
        'Run`x`on and **bold**text, a [link `y`](a.md)here, `  ` blank code, <b>html</b>after.',
        '',
        '- item one',
        '  continued`z`',
        '  - nested *em*',
        '    ```',
        '    fenced words',
        '    ```',
        '- 😀 - two',
        '',
        '> quoted `q` text',
        '> second\\',
        '> line',
        '',
        '| a b | `c d`e |',
        '| --- | --- |',
        '| f | g `h` i |',
        '',
      ].join('\n'),
    );
    const nodes: Nodes[] = [];
    const collect = (node: Nodes): void => {
      nodes.push(node);
      if ('children' in node) for (const child of (node as Parent).children as Nodes[]) collect(child);
    };
    collect(tree);
    expect(nodes.length).toBeGreaterThan(40);
    for (const node of nodes)
      expect([node.type, proseWordCount(node)]).toEqual([
        node.type,
        whitespaceTokens(plainText(node, (value) => (value.trim() === '' ? '' : 'x'))),
      ]);
    expect(proseWordCount(tree)).toBe(30);
  });
});

describe('inlineCodes', () => {
  it('lists the code spans of a tree in document order, in tables, links and lists too', () => {
    const { tree } = parseMarkdown('# `a`\n\n- item `b`\n\n| x |\n| - |\n| `c` |\n\n[`d`](x.md)\n\n```\n`not`\n```\n');
    expect(inlineCodes(tree).map((node) => node.value)).toEqual(['a', 'b', 'c', 'd']);
    expect(inlineCodes(tree)).toBe(inlineCodes(tree));
  });

  it('finds none in a tree without code spans', () => {
    expect(inlineCodes(parseMarkdown('plain text\n').tree)).toEqual([]);
  });
});
