import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Nodes } from 'mdast';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { MAX_BLOCK_DEPTH, MAX_TREE_DEPTH } from '../../core/markdown/from-lezer.js';
import { parseMarkdown, parseMarkdownTree } from '../../core/markdown/index.js';
import { REPO, run, where } from '../helpers.js';
import { UPSTREAM, upstreamPresent } from '../upstream-corpus.js';

// remark is the reference the tree must match: the gates were written against its mdast.
const remark = unified().use(remarkParse).use(remarkGfm).freeze();
const FIELDS = [
  'value',
  'url',
  'title',
  'depth',
  'ordered',
  'start',
  'checked',
  'spread',
  'lang',
  'meta',
  'identifier',
  'label',
  'referenceType',
  'alt',
  'align',
] as const;

/** The first differences between two trees: type, position and every field the gates read. */
function differences(expected: Nodes, actual: Nodes | undefined, at = '', found: string[] = []): string[] {
  if (found.length >= 5) return found;
  const span = (node: Nodes) =>
    `${node.position?.start.line}:${node.position?.start.column}-${node.position?.end.line}:${node.position?.end.column}@${node.position?.start.offset}`;
  if (!actual) return [...found, `${at}: ${expected.type} ${span(expected)} missing`];
  if (expected.type !== actual.type)
    return [...found, `${at}: ${expected.type} ${span(expected)} became ${actual.type}`];
  if (span(expected) !== span(actual) || expected.position?.end.offset !== actual.position?.end.offset)
    found.push(`${at} ${expected.type}: at ${span(expected)}, not ${span(actual)}`);
  for (const field of FIELDS) {
    const want = JSON.stringify((expected as unknown as Record<string, unknown>)[field]);
    const got = JSON.stringify((actual as unknown as Record<string, unknown>)[field]);
    if (want !== got) found.push(`${at} ${expected.type} ${span(expected)}: ${field} ${want} not ${got}`);
  }
  const wanted = 'children' in expected ? expected.children : [];
  const got = 'children' in actual ? actual.children : [];
  for (let index = 0; index < Math.max(wanted.length, got.length); index++) {
    const child = wanted[index] as Nodes | undefined;
    if (!child) {
      found.push(`${at}/${actual.type}[${index}]: extra ${(got[index] as Nodes).type}`);
      break;
    }
    differences(child, got[index], `${at}/${expected.type}[${index}]`, found);
  }
  return found;
}

function markdownFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) out.push(full);
    }
  };
  if (existsSync(root)) walk(root);
  return out.sort();
}

function parity(text: string): string[] {
  return differences(remark.parse(text), parseMarkdownTree(text).tree);
}

describe('the markdown tree', () => {
  const sameAsRemark = (files: readonly string[]): void => {
    // A guard against a walk that found nothing, not a count of this repository's files.
    expect(files.length).toBeGreaterThan(10);
    const failures = files
      .map((file) => ({ file: path.relative(REPO, file), diff: parity(readFileSync(file, 'utf8')) }))
      .filter((result) => result.diff.length > 0);
    expect(failures).toEqual([]);
  };

  it(
    'is the mdast remark builds, node for node, on every markdown file of this repository',
    { timeout: 120_000 },
    () => {
      sameAsRemark([
        ...['spec', 'docs', 'conformance', 'SECURITY', 'test/fixtures'].flatMap((dir) =>
          markdownFiles(path.join(REPO, dir)),
        ),
        path.join(REPO, 'README.md'),
      ]);
    },
  );

  it.skipIf(!upstreamPresent(import.meta.url))(
    'is the mdast remark builds, node for node, on every markdown file of the upstream corpus',
    { timeout: 120_000 },
    () => {
      sameAsRemark(markdownFiles(UPSTREAM));
    },
  );

  it.each([
    ['nested block quotes', '> a\n> > b\n> c\n'],
    ['a list item holding a quote and a fence', '- a\n  > b\n  > c\n\n  ```js\n  x\n    y\n  ```\n'],
    ['a loose ordered list', '1. a\n\n   b\n2. c\n'],
    ['an empty item', '* a\n*\n* b\n'],
    ['an ATX heading with markup and closing hashes', '# Heading `code` *em* [link](u) <a id="x"></a> #\n'],
    ['a setext heading over two lines', 'Setext\nmulti\n===\n'],
    [
      'references: full, collapsed, shortcut, image, undefined',
      '[foo]: /url "title"\n\n[foo] [Foo][] [bar][foo] ![img][foo] [nope]\n',
    ],
    [
      'HTML blocks, inline HTML and character references',
      '<div>\n*a*\n</div>\n\ntext <span name="n">x</span> &copy; &bogus; &#x41; \\* \\\\\n',
    ],
    [
      'a table with short and long rows and escaped pipes',
      '| a | b |\n|---|:-:|\n| x |\n| 1 | 2 | 3 |\n| `a\\|b` | \\| |\n',
    ],
    ['a table without outer pipes', 'a | b\n--|--\nc | d\n'],
    ['an empty cell', '| a | b | c |\n|---|---|---|\n| x | | `y` |\n'],
    ['an unclosed fence', '```\nunclosed\n'],
    ['indented code', '    indented\n    code\n\n  para\n'],
    ['a fence in a block quote', '> ```\n> code\n> more\n> ```\n'],
    ['task items', '- [ ] todo\n- [x] done *em*\n- [ ] [a link](u)\n'],
    ['emphasis, strong and strikethrough with one or two tildes', '***bold em*** __strong__ _em_ ~~del~~ ~one~\n'],
    ['hard breaks', 'line one  \nline two\\\nline three\n'],
    ['comments as HTML', '<!-- comment -->\n\n<!-- region start -->\ntext\n<!-- region end -->\n'],
    ['link destinations and titles', "[a](<b c> 'd') [e](f\\)g) [h]( i ) ![alt *x*](y)\n"],
    ['literal autolinks', 'https://example.com/path?q=1. www.example.org, foo@bar.com <http://a.b>\n'],
    ['a literal URL as link text', '[https://example.com/x](https://example.com/x)\n'],
    [
      'brackets without a definition inside link text',
      '[otel_[attr] labels](u.md) and [[1]](https://example.com) [x][y]\n',
    ],
    ['a list in a quote with a lazy line', '> - a\n>   b\n> - c\n'],
    ['tabs', '\t- tab item\n\t\tcontinued\n'],
    ['a link across lines', '[link\nacross](url)\n'],
    ['code spans across lines and with backticks', '`code\nspan` and ``a ` b`` and ` x `\n'],
    ['trailing spaces ending a paragraph', 'some text  \n\nnext\n'],
    ['CRLF line endings', '# T\r\n\r\n> a\r\n> b\r\n\r\n```\r\nx\r\n```\r\n'],
    ['definitions over lines', "[x]: <u>\n[y]:\n  /v\n  'title'\n\n[x][] [y]\n"],
  ])('matches remark on %s', (_, text) => {
    expect(parity(text)).toEqual([]);
  });
});

describe('nesting', () => {
  const deepList = (depth: number) => Array.from({ length: depth }, (_, i) => `${' '.repeat(2 * i)}- x`).join('\n');
  const deepQuote = (depth: number) => Array.from({ length: depth }, (_, i) => `${'>'.repeat(i + 1)} x`).join('\n');

  // A list level is two containers (the list and its item), a quote one; the place is where the
  // container one past the bound opens.
  it.each([
    ['a 5,000-deep list', deepList(5000), MAX_BLOCK_DEPTH / 2, MAX_BLOCK_DEPTH + 1],
    ['a 5,000-deep block quote nest', deepQuote(5000), MAX_BLOCK_DEPTH, MAX_BLOCK_DEPTH + 2],
    ['`- ` 5,000 times on one line', `${'- '.repeat(5000)}x\n`, 1, MAX_BLOCK_DEPTH + 1],
    ['`> ` 5,000 times on one line', `${'> '.repeat(5000)}x\n`, 1, 2 * MAX_BLOCK_DEPTH + 1],
  ])('%s is a located problem, parsed in under 2 s', (_, text, line, column) => {
    const started = performance.now();
    const { tree, problems } = parseMarkdownTree(text);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(problems).toEqual([
      {
        line,
        column,
        message: `block quotes and lists nest more than ${MAX_BLOCK_DEPTH} levels deep here, so the file is not read as markdown`,
      },
    ]);
    expect(tree.type).toBe('root');
  });

  it('cuts inline nesting deeper than the bound, so walks over the tree stay shallow', () => {
    const text = `start ${'*'.repeat(5000)}x${'*'.repeat(5000)}\n`;
    const model = parseMarkdown(text);
    let deepest = 0;
    const walk = (node: Nodes, depth: number): void => {
      deepest = Math.max(deepest, depth);
      if ('children' in node) for (const child of node.children) walk(child, depth + 1);
    };
    walk(model.tree, 0);
    expect(deepest).toBeLessThanOrEqual(MAX_TREE_DEPTH + 2);
    expect(model.problems).toEqual([
      {
        line: 1,
        column: expect.any(Number),
        message: expect.stringMatching(new RegExp(`more than ${MAX_TREE_DEPTH} levels`)),
      },
    ]);
  });

  it('parses nesting within the bounds as remark does', () => {
    expect(parity(deepList(40))).toEqual([]);
    expect(parity(deepQuote(40))).toEqual([]);
    expect(parseMarkdownTree(deepList(40)).problems).toEqual([]);
  });

  it('is reported by corpus/parse at the line, and the rest of the corpus is read', () => {
    const found = run('corpus/parse', {
      'spec/v2/core/deep.md': `# Deep\n\n${'> '.repeat(200)}x\n`,
      'spec/v2/core/fine.md': '# Fine\n',
    });
    expect(where(found)).toEqual([`spec/v2/core/deep.md:3:${2 * MAX_BLOCK_DEPTH + 1}`]);
    expect(run('corpus/parse', { 'spec/v2/core/fine.md': `# Fine\n\n${'> '.repeat(MAX_BLOCK_DEPTH - 1)}x\n` })).toEqual(
      [],
    );
  });
});

describe('anchors', () => {
  it('are GitHub slugs of the heading text with markup removed, plus id and name attributes', () => {
    const model = parseMarkdown(
      '# A *b* `c` [d](e)\n\n## A b c d\n\n<a id="explicit"></a>\n\nText <span name="inline">x</span>.\n',
    );
    expect([...model.anchors]).toEqual(['a-b-c-d', 'a-b-c-d-1', 'explicit', 'inline']);
  });
});
