import type { Blockquote, Paragraph, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { DECLARATION_PATH, declarationFamilies } from '../../core/registries/index.js';
import { closest } from '../../core/output/index.js';
import { HOUSE_STYLE_DOCUMENT, isGeneratedDocument } from '../../core/markdown/index.js';

const STATUS = /^\*\*Status: (Stable|Draft)\.\*\*/;
const NORMATIVE_HOME = /^\*\*Normative home:\*\*\s*(.*)$/;
const SOURCES = /^Sources: (.*)$/s;
/** The status line before 2.42.8: a version, a date and the RFCs after the status word. */
const OLD_STATUS = /^\*\*Status: (Stable|Draft)(?!\.\*\*)([^*]*)\*\*/;

export default defineCheck({
  id: 'docs/structure',
  summary: 'A core document follows the house style: one H1, a Status line, "Why this exists" first, a sorted Sources footer last',
  description:
    'The house style is the one upstream moved its core documents to at 2.42.8: `**Status: Stable.**` or `**Status: Draft.**` alone, the RFCs of the old status line (`**Status: Stable · v2.0.10 (2026-09-10) · RFC 0177.**`) in an italic *Sources: …* footer. An old status line is one finding, the footer that lacks its RFCs being part of the same migration; its fix merges the RFCs into the footer first and then rewrites the line, so that no RFC is lost between passes.',
  severity: 'error',
  fixable: true,
  messages: {
    'no-title': 'a core document starts with its title as a level-1 heading ("# Title")',
    'second-title': 'second level-1 heading "{{heading}}"; a document has one title',
    'no-status': 'the title is followed by the status blockquote: "> **Status: Stable.**" or "> **Status: Draft.**"',
    'first-section': 'the first section is "{{heading}}"; it must be "## Why this exists"',
    'no-why': 'the document has no "## Why this exists" section',
    'status-form': 'status line must be "> **Status: Stable.**" or "> **Status: Draft.**"; found "{{found}}"',
    'rfc-in-status': '"{{rfc}}" in the status block; RFC numbers belong in the closing *Sources: …* line',
    'unknown-family': `Normative home names \`{{family}}\`, which is not a family of ${DECLARATION_PATH}`,
    'old-status': 'status line "{{found}}" is the form before 2.42.8; it is "**Status: {{status}}.**"',
    'old-status-with-rfcs': 'status line "{{found}}" is the form before 2.42.8; it is "**Status: {{status}}.**", with its RFCs in the *Sources: …* footer',
    'sources-not-last': 'the *Sources: …* line is the last line of the document, and there is one',
    'sources-not-italic': 'the Sources line is set in italics: *Sources: RFC 0137, RFC 0177.*',
    'sources-item': '"{{item}}" in the Sources line is not of the form "RFC NNNN"',
    'sources-twice': '{{rfc}} is listed twice in the Sources line',
    'sources-order': 'the Sources line is not in ascending order: {{before}} comes before {{after}}',
  },
  run(corpus, report) {
    const families = declarationFamilies(corpus);
    for (const file of corpus.markdownFiles()) {
      if (!HOUSE_STYLE_DOCUMENT.test(file.path)) continue;
      checkDocument(file, families?.map((family) => family.key), report);
    }
  },
});

function checkDocument(file: MarkdownFile, families: string[] | undefined, report: Report): void {
  const at = (node: { position?: { start: { line: number; column: number } } } | undefined) => ({
    file: file.path,
    line: node?.position?.start.line ?? 1,
    column: node?.position?.start.column ?? 1,
  });
  const children = file.tree.children.filter((node) => node.type !== 'html' || !node.value.startsWith('<!--'));
  const titleIndex = children.findIndex((node) => node.type === 'heading' && node.depth === 1);
  const title = children[titleIndex];
  if (titleIndex !== 0) {
    report({ ...at(children[0]), messageId: 'no-title', hint: titleIndex > 0 ? 'move the title to the top' : 'begin the document with its title: "# Title"' });
  }
  for (const heading of file.headings.filter((h) => h.depth === 1).slice(1)) {
    report({ file: file.path, line: heading.line, column: heading.column, messageId: 'second-title', data: { heading: oneLine(heading.text) }, hint: 'make it a "##" section' });
  }

  const status = titleIndex === -1 ? undefined : children[titleIndex + 1];
  if (status?.type !== 'blockquote') {
    report({ ...at(status ?? title), messageId: 'no-status', hint: 'put "> **Status: Stable.**" or "> **Status: Draft.**" on the line after a blank one below the title' });
  } else {
    checkStatus(file, status, children, families, report);
  }

  const firstSection = file.headings.find((heading) => heading.depth === 2);
  if (firstSection && firstSection.text !== 'Why this exists') {
    report({ file: file.path, line: firstSection.line, column: firstSection.column, messageId: 'first-section', data: { heading: oneLine(firstSection.text) }, hint: 'open the document with "## Why this exists", saying what it is for' });
  } else if (!firstSection) {
    report({ ...at(title), messageId: 'no-why', hint: 'add "## Why this exists" as its first section, saying what the document is for' });
  }

  checkSources(file, children, report, at);
}

function checkStatus(file: MarkdownFile, quote: Blockquote, children: RootContent[], families: string[] | undefined, report: Report): void {
  const start = quote.position?.start.line ?? 1;
  const end = quote.position?.end.line ?? start;
  const lines = [];
  for (let line = start; line <= end; line++) {
    const from = file.lines.lineStart(line);
    const to = line < file.lines.lineCount ? file.lines.lineStart(line + 1) - 1 : file.text.length;
    lines.push({ line, text: file.text.slice(from, to).replace(/^\s*>\s?/, '') });
  }
  const status = lines[0];
  const old = status ? OLD_STATUS.exec(status.text) : null;
  if (status && old) {
    migrateStatus(file, status, old, children, report);
  } else if (!status || !STATUS.test(status.text)) {
    // A blockquote has a first line, so there is always a line found.
    report({ file: file.path, line: start, column: 1, messageId: 'status-form', data: { found: status?.text.slice(0, 60) ?? '' }, hint: 'write the first line of the blockquote as "> **Status: Stable.**" or "> **Status: Draft.**"' });
  }
  for (const { line, text } of lines) {
    if (old && line === status?.line) continue;
    const rfc = /RFC\s*\d+/.exec(text);
    if (rfc) {
      report({ file: file.path, line, column: text.indexOf(rfc[0]) + 3, messageId: 'rfc-in-status', data: { rfc: rfc[0] }, hint: 'move it to the Sources footer' });
    }
    const home = NORMATIVE_HOME.exec(text);
    if (home && families) {
      for (const match of (home[1] ?? '').matchAll(/`([^`]+)`/g)) {
        const family = match[1] ?? '';
        if (!families.includes(family)) {
          const suggestion = closest(family, families);
          report({ file: file.path, line, column: text.indexOf(match[0]) + 3, messageId: 'unknown-family', data: { family }, hint: suggestion ? `did you mean \`${suggestion}\`?` : 'add the family to the declaration, or correct the name' });
        }
      }
    }
  }
}

/**
 * The pre-2.42.8 status line (`**Status: Stable · v2.0.10 (2026-09-10) · RFC 0177, RFC 0137.**`)
 * becomes `**Status: Stable.**`, and its RFCs move to the Sources footer, as 2.42.8 did by hand.
 * That is one defect, so one finding, at the status line. Its fix works in two steps, each an edit
 * of its own line, so that no fix rewrites the text between them: while the footer lacks some of
 * the line's RFCs it merges them in (or adds the footer), and once it lists them all, it rewrites
 * the status line. The RFCs never leave the status line before the footer holds them.
 */
function migrateStatus(file: MarkdownFile, status: { line: number; text: string }, old: RegExpExecArray, children: RootContent[], report: Report): void {
  const lineStart = file.lines.lineStart(status.line);
  const lineText = file.text.slice(lineStart, file.text.indexOf('\n', lineStart) === -1 ? file.text.length : file.text.indexOf('\n', lineStart));
  const from = lineStart + lineText.indexOf(old[0]);
  const rfcs = statusRfcs(old[2] ?? '');
  const finding = {
    file: file.path,
    line: status.line,
    column: from - lineStart + 1,
    messageId: rfcs.length > 0 ? 'old-status-with-rfcs' : 'old-status',
    data: { found: oneLine(old[0]), status: old[1] ?? '' },
    hint: 'run `openwop-spec check --fix` to migrate it',
  };
  // A generated document's status line is its generator's output: an edit here would be undone by
  // the next regeneration, so the finding says where the change belongs and carries no fix.
  if (isGeneratedDocument(file)) {
    report({ ...finding, hint: 'this document is generated: change the status line its generator writes, then regenerate it' });
    return;
  }
  const footer = [...children].reverse().find((node): node is Paragraph => node.type === 'paragraph' && SOURCES.test(toString(node)));
  const listed = footer ? footerNumbers(toString(footer)) : [];
  if (rfcs.every((number) => listed.includes(number))) {
    report({ ...finding, fix: { start: from, end: from + old[0].length, text: `**Status: ${old[1]}.**` } });
    return;
  }
  const merged = [...new Set([...listed, ...rfcs])].sort((a, b) => a - b);
  const start = footer?.position?.start.offset;
  const end = footer?.position?.end.offset;
  if (footer && start !== undefined && end !== undefined) {
    report({ ...finding, fix: { start, end, text: sourcesLine(merged, /^Sources: RFCs\b/.test(toString(footer))) } });
    return;
  }
  // After everything, a closing generated-region marker included: never inside a region.
  const last = file.tree.children[file.tree.children.length - 1];
  const at = last?.position?.end.offset ?? file.text.replace(/\s+$/, '').length;
  report({ ...finding, fix: { start: at, end: at, text: `\n\n${sourcesLine(merged, false)}` } });
}

/** The RFC numbers of an old status line's tail: every four-digit number from the first "RFC" on (the version and date come before it). */
function statusRfcs(tail: string): number[] {
  const from = tail.search(/\bRFCs?\b/);
  if (from === -1) return [];
  return [...new Set([...tail.slice(from).matchAll(/(?<![\w.§-])(\d{4})(?![\w])/g)].map((match) => Number(match[1])))];
}

function footerNumbers(text: string): number[] {
  return [...(SOURCES.exec(text)?.[1] ?? '').matchAll(/\b(\d{4})\b/g)].map((match) => Number(match[1]));
}

const rfcName = (number: number): string => `RFC ${String(number).padStart(4, '0')}`;

/** In the form the document's footer already uses: `RFCs 0002, 0007.` or the house form `RFC 0002, RFC 0007.` */
function sourcesLine(numbers: number[], plural: boolean): string {
  const padded = numbers.map((number) => String(number).padStart(4, '0'));
  return plural && numbers.length > 1 ? `*Sources: RFCs ${padded.join(', ')}.*` : `*Sources: ${padded.map((n) => `RFC ${n}`).join(', ')}.*`;
}

/**
 * The items of a Sources line: the house form `RFC 0137, RFC 0177`, or the form of documents
 * migrated upstream, `RFCs 0002, 0007, 0022`, where the word is written once.
 */
function sourceItems(list: string): string[] {
  const plural = /^RFCs (\d{4})(.*)$/s.exec(list);
  if (!plural) return list.split(',').map((item) => item.trim());
  const rest = (plural[2] ?? '').split(',').slice(1).map((item) => item.trim());
  return [`RFC ${plural[1]}`, ...rest.map((item) => (/^\d{4}$/.test(item) ? `RFC ${item}` : item))];
}

function checkSources(file: MarkdownFile, children: RootContent[], report: Report, at: (node: RootContent | undefined) => { file: string; line: number; column: number }): void {
  const sources = children.filter((node): node is Paragraph => node.type === 'paragraph' && SOURCES.test(toString(node)));
  if (sources.length === 0) return;
  const last = children[children.length - 1];
  for (const paragraph of sources) {
    if (paragraph !== last || sources.length > 1) {
      report({ ...at(paragraph), messageId: 'sources-not-last', hint: 'keep one Sources line, as the last line of the document' });
    }
    const only = paragraph.children.length === 1 ? paragraph.children[0] : undefined;
    if (only?.type !== 'emphasis') report({ ...at(paragraph), messageId: 'sources-not-italic', hint: 'wrap the whole line in single asterisks' });
    const list = (SOURCES.exec(toString(paragraph))?.[1] ?? '').replace(/\.\s*$/, '');
    const items = sourceItems(list);
    const numbers: number[] = [];
    for (const item of items) {
      if (!/^RFC \d{4}$/.test(item)) {
        report({ ...at(paragraph), messageId: 'sources-item', data: { item }, hint: 'list each source as "RFC" and its four-digit number' });
        continue;
      }
      numbers.push(Number(item.slice(4)));
    }
    for (let i = 1; i < numbers.length; i++) {
      const [a, b] = [numbers[i - 1] ?? 0, numbers[i] ?? 0];
      if (a === b) report({ ...at(paragraph), messageId: 'sources-twice', data: { rfc: rfcName(b) }, hint: 'list it once' });
      else if (a > b) report({ ...at(paragraph), messageId: 'sources-order', data: { before: rfcName(a), after: rfcName(b) }, hint: 'list the RFCs by ascending number' });
    }
  }
}

function oneLine(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > 60 ? `${folded.slice(0, 57)}...` : folded;
}
