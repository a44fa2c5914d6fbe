import type { Nodes, Parent } from 'mdast';
import { isRecord } from '../../core/api/index.js';
import type { Corpus, PathSegment } from '../../core/model/index.js';
import { documentIndex, Location } from '../../core/model/index.js';
import { CITES_V1, sentenceAt } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';

/**
 * `/v1/runs`, `/v1/{id}`: an operation spelt with its v1 prefix. `spec/v1/x.md` is a file, not an
 * operation; `/v1/v1` names the doubled-prefix defect, not an operation; a closing `.` or `:` is the sentence's.
 */
const V1_OPERATION = /(?<![\w.-])\/v1\/(?!v\d+\b)[A-Za-z{][\w{}/.:-]*(?<![.:])/g;
const DESCRIPTION_KEYS = new Set(['description', 'summary', 'title']);
/** Prose that speaks of the overlap names the v1 twin of a path on purpose. */
const ABOUT_V1 = /\b(?:overlap|dual-stack|twin)\b/i;
/** `§"POST /v1/runs:bulk-cancel"`: a heading of a v1 document, quoted to cite it. */
const QUOTED_HEADING = /§\s*"[^"]*"/g;

/** A document named bare in a description: `run-options.md`, not a path. */
const BARE_DOCUMENT = /(?<![\w/.@-])([\w-][\w.-]*\.md)(?![\w-])/g;
/** A path under a v1 tree the corpus writes (`spec/v1/run-options.md`): the names v1's documents go by. */
const V1_DOCUMENT_PATH = /(?<![\w.-])(?:[\w.-]+\/)*v1\/(?:[\w.-]+\/)*([\w-][\w.-]*\.md)(?![\w-])/g;

/**
 * The v1 documents the corpus names by path (`spec/v1/run-options.md`), by file name: a bare
 * `run-options.md` in a v2 description that is no document of the corpus is one of these.
 */
function v1DocumentNames(corpus: Corpus): Map<string, string> {
  const names = new Map<string, string>();
  for (const file of corpus.textFiles()) {
    if (!file.text.includes('v1/')) continue;
    for (const match of file.text.matchAll(V1_DOCUMENT_PATH)) if (!names.has(match[1] ?? '')) names.set(match[1] ?? '', match[0]);
  }
  return names;
}

export default defineCheck({
  id: 'api/v1-operation-mentions',
  summary: 'v2 prose and the descriptions of the API documents and schemas name an operation by its v2 path or operationId, never by its /v1/ path',
  description: 'A paragraph or table cell that speaks of the overlap (the v1 twin of a path, dual-stack serving) names the v1 path on purpose and is not read; nor is the quoted heading of a v1 document cited after a section sign. A description is located as a whole, so a v1 path it names twice is one finding.',
  severity: 'error',
  options: {
    prose: { type: 'array', items: { type: 'string' }, default: ['spec/v2/'], description: 'path prefixes of the markdown whose /v1/<operation> spellings are findings' },
    described: { type: 'array', items: { type: 'string' }, default: ['api/v2/', 'schemas/v2/', 'spec/v2/facets/'], description: 'path prefixes of the JSON and YAML whose description, summary and title strings are read' },
  },
  messages: {
    'v1-mention-in-prose': '`{{text}}` names an operation by its v1 path; v2 paths are unversioned',
    'v1-mention': '{{key}}: `{{text}}` names an operation by its v1 path; v2 paths are unversioned',
    'v1-document': '{{key}}: {{name}} is no document of this corpus but a v1 document ({{path}}); a v2 description cites the v2 document that states the rule',
  },
  run(corpus, report, { options }) {
    const prose = options.prose as string[];
    for (const file of corpus.markdownFiles()) {
      if (!prose.some((prefix) => file.path.startsWith(prefix))) continue;
      const visit = (node: Nodes): void => {
        if (node.type === 'paragraph' || node.type === 'tableCell') {
          const start = node.position?.start.offset;
          const end = node.position?.end.offset;
          if (start !== undefined && end !== undefined && ABOUT_V1.test(file.text.slice(start, end))) return;
        }
        if (node.type === 'text' || node.type === 'inlineCode') {
          const start = node.position?.start.offset;
          if (start === undefined) return;
          const verbatim = node.type === 'text' && file.text.slice(start, node.position?.end.offset) === node.value;
          for (const match of node.value.matchAll(V1_OPERATION)) {
            if (insideQuotedHeading(node.value, match.index ?? 0)) continue;
            report({ location: Location.text(file, verbatim ? start + (match.index ?? 0) : start), messageId: 'v1-mention-in-prose', data: { text: match[0] }, hint: v1Hint(match[0]) });
          }
          return;
        }
        if (node.type === 'code' || node.type === 'html') return;
        if ('children' in node) for (const child of (node as Parent).children as Nodes[]) visit(child);
      };
      visit(file.tree);
    }
    const described = options.described as string[];
    const documents = documentIndex(corpus);
    let v1Names: Map<string, string> | undefined;
    for (const file of corpus.dataFiles()) {
      if (!described.some((prefix) => file.path.startsWith(prefix))) continue;
      const visit = (value: unknown, path: PathSegment[]): void => {
        if (Array.isArray(value)) value.forEach((item, index) => visit(item, [...path, index]));
        else if (isRecord(value)) {
          for (const [key, child] of Object.entries(value)) {
            if (typeof child === 'string' && DESCRIPTION_KEYS.has(key)) {
              // Every mention is located at the string's start, so a path named twice is one finding.
              const named = new Set([...child.matchAll(V1_OPERATION)].filter((match) => !insideQuotedHeading(child, match.index ?? 0)).map((match) => match[0]));
              for (const text of named) report({ location: Location.pointer(file, [...path, key], 'value'), messageId: 'v1-mention', data: { text, key }, hint: v1Hint(text) });
              // A bare document name of no corpus document that the corpus knows as a v1 document, outside a sentence that cites v1.
              if (!child.includes('.md')) continue;
              for (const match of child.matchAll(BARE_DOCUMENT)) {
                const name = match[1] ?? '';
                const at = match.index ?? 0;
                if (documents.resolve(name, file.path) || CITES_V1.test(sentenceAt(child, at))) continue;
                const v1Path = (v1Names ??= v1DocumentNames(corpus)).get(name);
                if (v1Path === undefined) continue;
                report({
                  location: Location.pointer(file, [...path, key], 'value').chars(at, at + name.length),
                  messageId: 'v1-document',
                  data: { key, name, path: v1Path },
                  hint: `cite the v2 document that holds the rule, or write ${v1Path} where the v1 text is meant`,
                });
              }
            } else visit(child, [...path, key]);
          }
        }
      };
      visit(file.value, []);
    }
  },
});

function v1Hint(spelling: string): string {
  const v2 = spelling.replace(/^\/v1/, '');
  return `write \`${v2}\` (the v2 path) or the operationId; a v1 path belongs in the migration notes`;
}

function insideQuotedHeading(text: string, index: number): boolean {
  for (const quoted of text.matchAll(QUOTED_HEADING)) {
    const from = quoted.index ?? 0;
    if (index > from && index < from + quoted[0].length) return true;
  }
  return false;
}
