import type { Nodes } from 'mdast';
import { authoredMarkdown, Location, outsideRegions, type MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { HOUSE_STYLE_DOCUMENT, plainText, proseTexts } from '../../core/markdown/index.js';

export default defineCheck({
  id: 'docs/rfc-numbers',
  summary: "v2 prose names no RFC number of the project outside the closing Sources footer: the prose says what the rule is",
  description:
    'A number that labels a link to the RFC cites the document itself and is left alone, and so is one that restates a family\'s owning RFC (a field of spec/v2/declaration.json the document carries). The status block of a core document is docs/structure\'s, which moves its RFC numbers to the footer. A document under any banner of the "generated … do not edit" family is its generator\'s and is not read.',
  severity: 'error',
  options: {
    paths: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the prose held to this rule (generated documents and regions are skipped)' },
    rfcPattern: { type: 'string', default: '\\bRFC[ -]?0\\d{3}\\b', description: "how the project's own RFC numbers are written (IETF RFCs such as RFC 8785 are standards, cited where they are used)" },
  },
  messages: {
    'rfc-in-prose': '{{text}} in {{where}}; RFC numbers belong in the Sources footer, and the prose says what the rule is',
  },
  run(corpus, report, { options }) {
    const rfc = new RegExp(options.rfcPattern as string, 'g');
    for (const file of authoredMarkdown(corpus, options.paths as string[])) checkRfcNumbers(file, rfc, outsideRegions(file), report);
  },
});

/** The `*Sources: RFC …*` paragraph that closes a document: the one place RFC numbers belong. */
function isSourcesFooter(node: Nodes): boolean {
  return node.type === 'paragraph' && plainText(node).trim().startsWith('Sources:');
}

function checkRfcNumbers(file: MarkdownFile, rfc: RegExp, outside: (offset: number | undefined) => boolean, report: Report): void {
  const footer = file.tree.children.filter(isSourcesFooter).at(-1);
  const footerStart = footer?.position?.start.offset ?? Infinity;
  const statusBlock = file.tree.children.find((node) => node.type === 'blockquote');
  const statusEnd = statusBlock?.position?.end.offset ?? -1;
  const inStatus = (offset: number) => offset <= statusEnd && statusBlock?.position !== undefined && offset >= (statusBlock.position.start.offset ?? 0);
  // docs/structure reports every RFC number in a core document's status block, with the fix that
  // moves it to the footer: said here too, one defect would be two findings.
  const statusOwned = HOUSE_STYLE_DOCUMENT.test(file.path);
  const tables = file.tree.children.filter((node) => node.type === 'table');
  const inTable = (offset: number) => tables.some((table) => offset >= (table.position?.start.offset ?? 0) && offset < (table.position?.end.offset ?? 0));
  for (const text of proseTexts(file.tree, file.text)) {
    if (text.offset === undefined || !outside(text.offset) || text.offset >= footerStart) continue;
    // A number that labels a link to the RFC cites the document itself, as migrated documents keep doing.
    if (text.link) continue;
    for (const match of text.node.value.matchAll(rfc)) {
      const offset = text.offset + (match.index ?? 0);
      if (statusOwned && inStatus(offset)) continue;
      if (restatesOwner(tables, text.node.value.slice(0, match.index ?? 0), offset)) continue;
      const where = text.inHeading ? 'a heading' : inStatus(offset) ? 'the status banner' : inTable(offset) ? 'a table cell' : 'running text';
      report({
        location: Location.text(file, offset, offset + match[0].length),
        messageId: 'rfc-in-prose', data: { text: match[0], where },
        hint: `state the rule without the RFC number, and list ${match[0]} in the closing "*Sources: …*" line`,
      });
    }
  }
}

/**
 * A family's owning RFC is a field of its spec/v2/declaration.json row (`owningRfc`); the sentence
 * under a family heading ("owner RFC 0193"), an extension's "owning RFC" field row and an "Owner"
 * column restate that field, which is data the document is made to carry, not prose citing a source.
 */
const OWNER_FIELD = /^(?:owner|owning RFCs?):?$/i;

function restatesOwner(tables: readonly Nodes[], before: string, offset: number): boolean {
  if (/\bowner\s+$/.test(before)) return true;
  for (const table of tables) {
    if (table.type !== 'table' || offset < (table.position?.start.offset ?? 0) || offset >= (table.position?.end.offset ?? 0)) continue;
    const row = table.children.find((candidate) => offset >= (candidate.position?.start.offset ?? 0) && offset < (candidate.position?.end.offset ?? 0));
    const index = row?.children.findIndex((cell) => offset >= (cell.position?.start.offset ?? 0) && offset < (cell.position?.end.offset ?? 0)) ?? -1;
    if (!row || index < 0) return false;
    // The row's label ("| **owning RFC** | RFC 0144 |") or the column's ("| Path | Owner | What |") says the cell is that field.
    const label = index > 0 ? row.children[0] : undefined;
    const column = table.children[0] !== row ? table.children[0]?.children[index] : undefined;
    return [label, column].some((cell) => cell !== undefined && OWNER_FIELD.test(plainText(cell).trim()));
  }
  return false;
}
