import type { InlineCode, Text } from 'mdast';
import { inlineCodes, proseTexts } from '../../core/markdown/index.js';
import { authoredMarkdown, Location, outsideRegions, type MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';

export default defineCheck({
  id: 'docs/v1-mentions',
  summary: 'Mentions of v1 in v2 prose are held to a recorded count that may only go down',
  description:
    'Every `v1` the prose says counts, in running text and in inline code, outside code blocks and generated text. Without a recorded count (the `v1Mentions` option) the rule says nothing; above it the run fails, below it a warning asks for the count to be lowered so that it holds.',
  severity: 'error',
  options: {
    paths: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the prose held to this rule (generated documents and regions are skipped)' },
    v1Mentions: { type: ['integer', 'null'], minimum: 0, default: null, description: 'the recorded count of `v1` mentions in this prose, which may only go down (null: not held to a count)' },
  },
  messages: {
    'v1-mentions-up': '{{count}} mentions of v1 in v2 prose, above the recorded {{recorded}}: the count may only go down ({{shares}})',
    'v1-mentions-down': '{{count}} mentions of v1 in v2 prose, below the recorded {{recorded}}',
  },
  run(corpus, report, { options }) {
    const recorded = options.v1Mentions as number | null;
    if (recorded === null) return;
    const mentions = authoredMarkdown(corpus, options.paths as string[]).flatMap((file) => v1Mentions(file, outsideRegions(file)));
    checkV1Count(mentions, recorded, report);
  },
});

const V1 = /(?<![\w.-])v1(?![\w-])/g;

/**
 * Every `v1` the prose says, in running text and in inline code, outside code blocks: the text
 * nodes and code spans other gates have already listed (proseTexts, inlineCodes), merged back into
 * document order, so that this gate walks no tree of its own.
 */
function v1Mentions(file: MarkdownFile, outside: (offset: number | undefined) => boolean): Location[] {
  // Kept per parsed file: the language server runs this gate after every edit, and only the edited
  // document is parsed again.
  const kept = mentionsOf.get(file);
  if (kept) return kept;
  const found: Location[] = [];
  const visit = (node: Text | InlineCode): void => {
    if (!node.value.includes('v1')) return;
    const start = node.position?.start.offset;
    if (start === undefined || !outside(start)) return;
    const verbatim = node.type === 'text' && file.text.slice(start, node.position?.end.offset) === node.value;
    for (const match of node.value.matchAll(V1)) found.push(Location.text(file, verbatim ? start + (match.index ?? 0) : start));
  };
  const texts = proseTexts(file.tree, file.text);
  const codes = inlineCodes(file.tree);
  // Both lists are leaves in document order, and leaves never overlap: merged by where they start.
  let t = 0;
  let c = 0;
  while (t < texts.length || c < codes.length) {
    const text = texts[t]?.node;
    const code = codes[c];
    if (code === undefined || (text !== undefined && startOf(text) <= startOf(code))) {
      visit(text as Text);
      t++;
    } else {
      visit(code);
      c++;
    }
  }
  mentionsOf.set(file, found);
  return found;
}

const mentionsOf = new WeakMap<MarkdownFile, Location[]>();

/** Where a node starts; a node without a position (none the parser builds) sorts first. */
function startOf(node: Text | InlineCode): number {
  return node.position?.start.offset ?? -1;
}

function checkV1Count(mentions: readonly Location[], recorded: number, report: Report): void {
  const count = mentions.length;
  if (count === recorded) return;
  const perFile = new Map<string, number>();
  for (const mention of mentions) perFile.set(mention.file, (perFile.get(mention.file) ?? 0) + 1);
  const shares = [...perFile].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([file, n]) => `${file} ${n}`).join(', ');
  const place = mentions[mentions.length - 1] ?? Location.file('spec/v2');
  if (count > recorded) {
    report({
      location: place,
      messageId: 'v1-mentions-up', data: { count, recorded, shares },
      hint: 'say what v2 requires instead of how it differs from v1; a v1 mention belongs in the migration notes',
    });
  } else {
    report({
      location: place,
      severity: 'warning',
      messageId: 'v1-mentions-down', data: { count, recorded },
      hint: `lower the recorded count (rules: {"docs/v1-mentions": ["error", {"v1Mentions": ${count}}]}) so that it holds`,
    });
  }
}
