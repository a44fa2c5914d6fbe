import type { Nodes, Parent } from 'mdast';
import { isRecord } from '../../core/api/index.js';
import type { PathSegment } from '../../core/model/index.js';
import { Location } from '../../core/model/index.js';
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
