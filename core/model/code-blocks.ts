/**
 * The data in fenced `json`/`jsonc`/`yaml` blocks of the prose, parsed once per block however many
 * gates read it (event names, error codes), with positions relative to the block's first line.
 */
import type { Code } from 'mdast';
import { parseJsonText, parseYamlText, type ParsedData } from './structured.js';

const parsed = new WeakMap<Code, ParsedData>();

export function codeBlockData(node: Code): ParsedData {
  let data = parsed.get(node);
  if (!data) {
    data = /^ya?ml$/i.test(node.lang ?? '') ? parseYamlText(node.value) : parseJsonText(node.value);
    parsed.set(node, data);
  }
  return data;
}
