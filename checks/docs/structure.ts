import type { Blockquote, Paragraph, RootContent } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { MarkdownFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { declarationFamilies } from '../../core/registries/index.js';
import { closest } from '../../core/output/index.js';

/** The documents held to the house style: the normative core. */
const CORE_DOCUMENT = /^spec\/v2\/core\/[^/]+\.md$/;
const STATUS = /^\*\*Status: (Stable|Draft)\.\*\*/;
const NORMATIVE_HOME = /^\*\*Normative home:\*\*\s*(.*)$/;
const SOURCES = /^Sources: (.*)$/s;

export default defineCheck({
  id: 'docs/structure',
  summary: 'A core document follows the house style: one H1, a Status line, "Why this exists" first, a sorted Sources footer last',
  severity: 'error',
  run(corpus, report) {
    const families = declarationFamilies(corpus);
    for (const file of corpus.markdownFiles()) {
      if (!CORE_DOCUMENT.test(file.path)) continue;
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
    report({ ...at(children[0]), message: 'a core document starts with its title as a level-1 heading ("# Title")', hint: titleIndex > 0 ? 'move the title to the top' : undefined });
  }
  for (const heading of file.headings.filter((h) => h.depth === 1).slice(1)) {
    report({ file: file.path, line: heading.line, column: heading.column, message: `second level-1 heading "${oneLine(heading.text)}"; a document has one title`, hint: 'make it a "##" section' });
  }

  const status = titleIndex === -1 ? undefined : children[titleIndex + 1];
  if (status?.type !== 'blockquote') {
    report({ ...at(status ?? title), message: 'the title is followed by the status blockquote: "> **Status: Stable.**" or "> **Status: Draft.**"' });
  } else {
    checkStatus(file, status, families, report);
  }

  const firstSection = file.headings.find((heading) => heading.depth === 2);
  if (firstSection && firstSection.text !== 'Why this exists') {
    report({ file: file.path, line: firstSection.line, column: firstSection.column, message: `the first section is "${oneLine(firstSection.text)}"; it must be "## Why this exists"` });
  } else if (!firstSection) {
    report({ ...at(title), message: 'the document has no "## Why this exists" section' });
  }

  checkSources(file, children, report, at);
}

function checkStatus(file: MarkdownFile, quote: Blockquote, families: string[] | undefined, report: Report): void {
  const start = quote.position?.start.line ?? 1;
  const end = quote.position?.end.line ?? start;
  const lines = [];
  for (let line = start; line <= end; line++) {
    const from = file.lines.lineStart(line);
    const to = line < file.lines.lineCount ? file.lines.lineStart(line + 1) - 1 : file.text.length;
    lines.push({ line, text: file.text.slice(from, to).replace(/^\s*>\s?/, '') });
  }
  const status = lines[0];
  if (!status || !STATUS.test(status.text)) {
    report({ file: file.path, line: start, column: 1, message: `status line must be "> **Status: Stable.**" or "> **Status: Draft.**"${status ? `; found "${status.text.slice(0, 60)}"` : ''}` });
  }
  for (const { line, text } of lines) {
    const rfc = /RFC\s*\d+/.exec(text);
    if (rfc) {
      report({ file: file.path, line, column: text.indexOf(rfc[0]) + 3, message: `"${rfc[0]}" in the status block; RFC numbers belong in the closing *Sources: …* line`, hint: 'move it to the Sources footer' });
    }
    const home = NORMATIVE_HOME.exec(text);
    if (home && families) {
      for (const match of (home[1] ?? '').matchAll(/`([^`]+)`/g)) {
        const family = match[1] ?? '';
        if (!families.includes(family)) {
          const suggestion = closest(family, families);
          report({ file: file.path, line, column: text.indexOf(match[0]) + 3, message: `Normative home names \`${family}\`, which is not a family of spec/v2/declaration.json`, hint: suggestion ? `did you mean \`${suggestion}\`?` : 'add the family to the declaration, or correct the name' });
        }
      }
    }
  }
}

function checkSources(file: MarkdownFile, children: RootContent[], report: Report, at: (node: RootContent | undefined) => { file: string; line: number; column: number }): void {
  const sources = children.filter((node): node is Paragraph => node.type === 'paragraph' && SOURCES.test(toString(node)));
  if (sources.length === 0) return;
  const last = children[children.length - 1];
  for (const paragraph of sources) {
    if (paragraph !== last || sources.length > 1) {
      report({ ...at(paragraph), message: 'the *Sources: …* line is the last line of the document, and there is one' });
    }
    const only = paragraph.children.length === 1 ? paragraph.children[0] : undefined;
    if (only?.type !== 'emphasis') report({ ...at(paragraph), message: 'the Sources line is set in italics: *Sources: RFC 0137, RFC 0177.*' });
    const list = (SOURCES.exec(toString(paragraph))?.[1] ?? '').replace(/\.\s*$/, '');
    const items = list.split(',').map((item) => item.trim());
    const numbers: number[] = [];
    for (const item of items) {
      if (!/^RFC \d{4}$/.test(item)) {
        report({ ...at(paragraph), message: `"${item}" in the Sources line is not of the form "RFC NNNN"` });
        continue;
      }
      numbers.push(Number(item.slice(4)));
    }
    for (let i = 1; i < numbers.length; i++) {
      const [a, b] = [numbers[i - 1] ?? 0, numbers[i] ?? 0];
      if (a === b) report({ ...at(paragraph), message: `RFC ${String(b).padStart(4, '0')} is listed twice in the Sources line` });
      else if (a > b) report({ ...at(paragraph), message: `the Sources line is not in ascending order: RFC ${String(a).padStart(4, '0')} comes before RFC ${String(b).padStart(4, '0')}` });
    }
  }
}

function oneLine(text: string): string {
  const folded = text.replace(/\s+/g, ' ').trim();
  return folded.length > 60 ? `${folded.slice(0, 57)}...` : folded;
}
