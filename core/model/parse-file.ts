/** One file's bytes made into a file of the model: text or binary, markdown indexed, JSON and YAML parsed (positions on demand). */
import path from 'node:path';
import { findRegions } from './regions.js';
import { indexMarkdown, parseMarkdownTree, type ParsedMarkdown } from '../markdown/index.js';
import { ContentCache } from '../cache/index.js';
import { LineIndex, textStyleOf } from '../output/index.js';
import {
  parseJsonText,
  parseJsonValue,
  parseYamlText,
  parseYamlValue,
  type ParsedData,
  type ParseProblem,
} from './structured.js';
import type { CorpusFile, DataFile, TextBase } from './corpus.js';
import { isParseEntry, isParsedMarkdown, isPlainJson } from './cache-entries.js';

const TEXT_EXTENSIONS = /\.(md|json|ya?ml|txt|csv|ts|js|mjs|html)$/i;

export function parseFile(relative: string, bytes: Buffer, cache?: ContentCache): CorpusFile {
  const extension = path.posix.extname(relative).toLowerCase();
  if (looksBinary(bytes)) {
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    const problems = TEXT_EXTENSIONS.test(relative)
      ? [
          {
            message: utf16
              ? `a ${extension} file in UTF-16 (its byte order mark says so); save it as UTF-8`
              : `binary content in a ${extension} file (a NUL byte); it cannot be read as text`,
            line: 1,
            column: 1,
          },
        ]
      : [];
    return { kind: 'binary', path: relative, bytes, problems };
  }
  let text: string;
  try {
    // ignoreBOM keeps a byte order mark in the text, so that what is removed below is known exactly.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return {
      kind: 'binary',
      path: relative,
      bytes,
      problems: [
        {
          message:
            'not valid UTF-8 text: the byte here cannot start or continue a UTF-8 character; save the file as UTF-8',
          ...invalidUtf8At(bytes),
          kind: 'encoding',
        },
      ],
    };
  }
  const style = textStyleOf(text);
  if (style.bom) text = text.slice(1);
  const crlf = text.includes('\r\n');
  if (crlf) text = text.replace(/\r\n/g, '\n');
  const lines = new LineIndex(text);
  // A text file's bytes are its text encoded again (valid UTF-8 round-trips exactly), so the model
  // keeps one copy of the content, not two; a file whose line ends the model rewrote keeps its bytes.
  const kept = crlf ? bytes : undefined;
  const base: TextBase = {
    path: relative,
    text,
    lines,
    style,
    bytesAreText: kept === undefined && !style.bom,
    problems: [],
    get bytes(): Buffer {
      return kept ?? Buffer.from(style.bom ? `\uFEFF${text}` : text, 'utf8');
    },
  };

  if (extension === '.md') {
    try {
      const model = indexMarkdown(cachedTree(text, cache));
      const { regions, problems: regionProblems } = findRegions(text, model.htmlNodes);
      return withText(base, { kind: 'markdown', ...model, regions, regionProblems });
    } catch (error) {
      // A document the markdown layer cannot take (nesting that exhausts its stack) is a finding at
      // that file; read as plain text, it stays out of every markdown gate and the run goes on.
      const message =
        error instanceof RangeError
          ? 'nested too deeply to be parsed as markdown (block quotes or lists thousands of levels deep)'
          : `cannot be parsed as markdown: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
      return withText({ ...base, problems: [{ message, line: 1, column: 1 }] }, { kind: 'text' as const });
    }
  }
  if (extension === '.json' || extension === '.yaml' || extension === '.yml') {
    return withText(base, dataFile(extension === '.json' ? 'json' : 'yaml', text, cache));
  }
  return withText(base, { kind: 'text' as const });
}

/** A file of the model: what every text file has, and what its kind adds (getters kept as getters). */
function withText<T extends object>(base: TextBase, own: T): TextBase & T {
  return Object.defineProperties(
    Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)),
    Object.getOwnPropertyDescriptors(own),
  ) as TextBase & T;
}

function cachedTree(text: string, cache: ContentCache | undefined): ParsedMarkdown {
  if (!cache) return parseMarkdownTree(text);
  const key = ContentCache.key('md', text);
  const hit = cache.get(key, isParsedMarkdown);
  if (hit) return hit;
  const tree = parseMarkdownTree(text);
  cache.set(key, tree);
  return tree;
}

/**
 * A JSON or YAML file. A JSON file's value comes from JSON.parse, which is native and as fast as
 * reading a cached copy, so JSON is never cached; a YAML file's value and problems come from the
 * parse cache, or on a miss from parseYamlValue (js-yaml for a plain document, else yaml's own
 * parse). The positioned document is parsed only if a gate asks where something is (usually: never).
 */
function dataFile(
  kind: 'json' | 'yaml',
  text: string,
  cache: ContentCache | undefined,
): Omit<DataFile, keyof TextBase> & { problems: ParseProblem[] } {
  // `yaml2`: entries whose problems carry their kind (ParseProblem.kind); older ones are not read.
  const key = cache && kind === 'yaml' ? ContentCache.key('yaml2', text) : '';
  let found = key ? cache?.get(key, isParseEntry) : undefined;
  if (!found) {
    found = kind === 'json' ? parseJsonValue(text) : parseYamlValue(text);
    if (key && isPlainJson(found.value)) cache?.set(key, found);
  }
  const { value, problems } = found;
  let parsed: ParsedData | undefined;
  const positioned = (): ParsedData => (parsed ??= kind === 'json' ? parseJsonText(text) : parseYamlText(text));
  return {
    kind,
    problems,
    value,
    get doc() {
      return problems.length > 0 ? undefined : positioned().doc;
    },
    get lineCounter() {
      return positioned().lineCounter;
    },
  };
}

/** The line and column (in characters of the valid text before it) of the first byte that is not UTF-8. */
function invalidUtf8At(bytes: Buffer): { line: number; column: number } {
  let line = 1;
  let column = 1;
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    const length =
      b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (length === 0 || i + length > bytes.length) break;
    let valid = true;
    for (let k = 1; k < length; k++) if (((bytes[i + k] as number) & 0xc0) !== 0x80) valid = false;
    const second = bytes[i + 1] as number;
    if (length === 3 && ((b === 0xe0 && second < 0xa0) || (b === 0xed && second > 0x9f))) valid = false;
    if (length === 4 && ((b === 0xf0 && second < 0x90) || (b === 0xf4 && second > 0x8f))) valid = false;
    if (!valid) break;
    if (b === 10) {
      line++;
      column = 1;
    } else column += length === 4 ? 2 : 1;
    i += length;
  }
  return { line, column };
}

function looksBinary(bytes: Buffer): boolean {
  const limit = Math.min(bytes.length, 8000);
  for (let i = 0; i < limit; i++) if (bytes[i] === 0) return true;
  return false;
}
