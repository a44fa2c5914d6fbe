/**
 * Examples in the prose: a fenced block preceded by `<!-- example: schemas/v2/x.schema.json#/$defs/Name -->`
 * claims to be an instance of that schema. This module reads the claims and decides, per block,
 * whether it can be validated and, when it cannot, why.
 */
import type { Html } from 'mdast';
import { parseFile, type DataFile, type MarkdownFile } from './corpus.js';
import type { MarkdownCodeBlock } from '../markdown/index.js';

export interface ExampleAnnotation {
  /** Root-relative path of the schema file. */
  schema: string;
  /** JSON pointer inside it ('' for the whole schema). */
  pointer: string;
  node: Html;
}

export type ExamplePlan =
  /** An annotated block to validate: `data` is the parsed instance (its problems, if any, are parse errors). */
  | { status: 'validate'; block: MarkdownCodeBlock; annotation: ExampleAnnotation; data: DataFile }
  | { status: 'skipped'; block: MarkdownCodeBlock; annotation: ExampleAnnotation; reason: string }
  /** Annotated, but the fence's language is one this gate cannot read. */
  | { status: 'unreadable'; block: MarkdownCodeBlock; annotation: ExampleAnnotation }
  /** A complete-JSON block that claims no schema. */
  | { status: 'unannotated'; block: MarkdownCodeBlock };

const ANNOTATION = /^<!--\s*example:\s*([^\s#]+)(?:#(\S*))?\s*-->$/;
const LOOKS_LIKE_ANNOTATION = /^<!--\s*example\b/;
const ELISION = '…';

/** The annotation an HTML comment states; `malformed` when it starts like one but does not parse. */
function parseExampleAnnotation(node: Html): ExampleAnnotation | 'malformed' | undefined {
  const value = node.value.trim();
  if (!LOOKS_LIKE_ANNOTATION.test(value)) return undefined;
  const match = ANNOTATION.exec(value);
  if (!match?.[1]) return 'malformed';
  const pointer = match[2] ?? '';
  if (pointer !== '' && !pointer.startsWith('/')) return 'malformed';
  return { schema: match[1].replace(/^\.?\//, ''), pointer, node };
}

/** The example plan of every fenced block of `file` that is annotated or is `json`. */
export function examplePlans(file: MarkdownFile): ExamplePlan[] {
  const plans: ExamplePlan[] = [];
  for (const block of file.codeBlocks) {
    const html = block.annotation === undefined ? undefined : annotationNode(file, block);
    const annotation = html ? parseExampleAnnotation(html) : undefined;
    const language = (block.lang ?? '').toLowerCase();
    if (annotation === undefined || annotation === 'malformed') {
      if (language === 'json') plans.push({ status: 'unannotated', block });
      continue;
    }
    if (language !== 'json' && language !== 'jsonc' && language !== 'yaml' && language !== 'yml') {
      plans.push({ status: 'unreadable', block, annotation });
      continue;
    }
    if (language === 'jsonc') {
      if (block.value.includes(ELISION)) {
        plans.push({
          status: 'skipped',
          block,
          annotation,
          reason: `it elides content with ${ELISION}, so it is not a complete instance`,
        });
        continue;
      }
      plans.push({
        status: 'validate',
        block,
        annotation,
        data: asData(`${file.path}.example.json`, stripJsonComments(block.value)),
      });
      continue;
    }
    const extension = language === 'json' ? 'json' : 'yaml';
    plans.push({
      status: 'validate',
      block,
      annotation,
      data: asData(`${file.path}.example.${extension}`, block.value),
    });
  }
  return plans;
}

/** Example-looking comments that no fenced block follows: an annotation that annotates nothing. */
export function strayAnnotations(file: MarkdownFile): Html[] {
  const attached = new Set(
    file.codeBlocks.map((block) => (block.annotation === undefined ? undefined : annotationNode(file, block))),
  );
  return file.htmlNodes.filter((node) => !attached.has(node) && parseExampleAnnotation(node) !== undefined);
}

function annotationNode(file: MarkdownFile, block: MarkdownCodeBlock): Html | undefined {
  let found: Html | undefined;
  for (const node of file.htmlNodes) {
    if (node.value !== block.annotation) continue;
    const end = node.position?.end.line ?? 0;
    if (end <= block.line && (!found || end > (found.position?.end.line ?? 0))) found = node;
  }
  return found;
}

function asData(path: string, text: string): DataFile {
  return parseFile(path, Buffer.from(text, 'utf8')) as DataFile;
}

/**
 * JSON with comments and trailing commas as plain JSON. Comments and the commas become spaces
 * (newlines kept), so every position in the result is the position in the original.
 */
export function stripJsonComments(text: string): string {
  let out = '';
  let i = 0;
  let inString = false;
  while (i < text.length) {
    const c = text[i] as string;
    if (inString) {
      out += c;
      if (c === '\\' && i + 1 < text.length) {
        out += text[i + 1];
        i += 2;
        continue;
      }
      if (c === '"') inString = false;
      i++;
      continue;
    }
    if (c === '"') {
      inString = true;
      out += c;
      i++;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end === -1 ? text.length : end + 2;
      for (; i < stop; i++) out += text[i] === '\n' ? '\n' : ' ';
    } else {
      out += c;
      i++;
    }
  }
  return dropTrailingCommas(out);
}

function dropTrailingCommas(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (inString) {
      if (c === '\\') {
        out += c + (text[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === '"') inString = false;
    } else if (c === '"') {
      inString = true;
    } else if (c === ',' && /^\s*[}\]]/.test(text.slice(i + 1))) {
      out += ' ';
      continue;
    }
    out += c;
  }
  return out;
}
