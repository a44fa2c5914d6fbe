/**
 * Reading one config file as data, whatever its format: JSON and JSONC (comments and trailing
 * commas, by jsonc-parser), YAML (by yaml). A syntax error is one line at `file:line:column`; the
 * parsed file can say where any key or value is written, so that a schema error points there too.
 */
import { getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import { isMap, isScalar, isSeq, parseDocument, type Node as YamlNode } from 'yaml';
import { LineIndex } from '../output/index.js';

/** 1-based line and column, with the column just past the value when known. */
export interface TextPosition {
  line: number;
  column: number;
  endColumn: number;
}

export interface ConfigText {
  value: unknown;
  /** Where the value at this path is written (or, with `key`, its key), or undefined when not written. */
  at(path: ReadonlyArray<string | number>, part?: 'value' | 'key'): TextPosition | undefined;
}

/** A config text that does not parse: `line:column: what`. */
export class ConfigSyntaxError extends Error {}

/** `.yaml`/`.yml` are YAML; anything else is JSON with comments and trailing commas allowed. */
export function parseConfigText(text: string, file: string): ConfigText {
  return /\.ya?ml$/i.test(file) ? parseYamlConfig(text) : parseJsoncConfig(text);
}

function parseJsoncConfig(text: string): ConfigText {
  // Most configs are plain JSON: JSON.parse reads them natively, and jsonc-parser's tree (the
  // positions a schema error points at) is built only when a position is asked for. The value is
  // made of prototype-less objects, as jsonc-parser's getNodeValue builds them, so that both read alike.
  const plain = plainJson(text);
  const tree = plain === undefined ? jsoncTree(text) : undefined;
  let positioned = tree;
  let lines: LineIndex | undefined;
  const bom = text.startsWith('\uFEFF') ? 1 : 0;
  return {
    value: plain === undefined ? getNodeValue(tree as Node) : plain.value,
    at(path, part = 'value') {
      positioned ??= jsoncTree(text);
      lines ??= new LineIndex(text);
      const found = nodeAt(positioned, path);
      // A property's key is the first child of the property node the value hangs from.
      const node = part === 'key' && found?.parent?.type === 'property' ? found.parent.children?.[0] : found;
      if (!node) return undefined;
      const start = lines.position(node.offset + bom);
      const end = lines.position(node.offset + bom + node.length);
      return { ...start, endColumn: end.line === start.line ? end.column : start.column + 1 };
    },
  };
}

/** The value of a config that is strict JSON (no comments, no trailing commas, no BOM), objects without a prototype; else undefined. */
function plainJson(text: string): { value: unknown } | undefined {
  try {
    return {
      value: JSON.parse(text, (_key, value: unknown) =>
        typeof value === 'object' && value !== null && !Array.isArray(value)
          ? Object.assign(Object.create(null) as object, value)
          : value,
      ),
    };
  } catch {
    return undefined;
  }
}

/** jsonc-parser's tree of a config text; a syntax error is a ConfigSyntaxError at its line and column. */
function jsoncTree(text: string): Node {
  const errors: ParseError[] = [];
  const tree = parseTree(text.replace(/^\uFEFF/, ''), errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: false,
  });
  const first = errors[0];
  if (first || !tree) {
    const where = new LineIndex(text).position(first?.offset ?? 0);
    throw new ConfigSyntaxError(
      `${where.line}:${where.column}: is not JSON: ${first ? describeJsonError(printParseErrorCode(first.error)) : 'empty'}`,
    );
  }
  return tree;
}

/** The node at a path of keys and indices, either given as a string (as a JSON pointer has them). */
function nodeAt(tree: Node, path: ReadonlyArray<string | number>): Node | undefined {
  let node: Node | undefined = tree;
  for (const key of path) {
    if (node?.type === 'object')
      node = node.children?.find((property) => property.children?.[0]?.value === String(key))?.children?.[1];
    else if (node?.type === 'array') node = node.children?.[Number(key)];
    else return undefined;
  }
  return node;
}

/** jsonc-parser's codes (`CommaExpected`) in words. */
function describeJsonError(code: string): string {
  return code.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}

function parseYamlConfig(text: string): ConfigText {
  const doc = parseDocument(text, { prettyErrors: false, uniqueKeys: true });
  const lines = new LineIndex(text);
  const problem = doc.errors[0];
  if (problem) {
    const where = lines.position(problem.pos[0]);
    throw new ConfigSyntaxError(`${where.line}:${where.column}: is not YAML: ${problem.message.split('\n')[0]}`);
  }
  return {
    value: doc.toJS({ maxAliasCount: 100 }) ?? {},
    at(path, part = 'value') {
      let node: unknown = doc.contents;
      for (const [index, key] of path.entries()) {
        if (isMap(node)) {
          const pair = node.items.find(
            (item) => (isScalar(item.key) ? String(item.key.value) : String(item.key)) === String(key),
          );
          node = part === 'key' && index === path.length - 1 ? pair?.key : pair?.value;
        } else if (isSeq(node)) node = node.get(Number(key), true);
        else return undefined;
      }
      const range = (node as YamlNode | undefined)?.range;
      if (!range) return undefined;
      const start = lines.position(range[0]);
      const end = lines.position(range[1]);
      return { ...start, endColumn: end.line === start.line ? end.column : start.column + 1 };
    },
  };
}
