/**
 * The data in fenced `json`/`jsonc`/`yaml` blocks of the prose, parsed once per block however many
 * gates read it (event names, error codes), with positions relative to the block's first line.
 */
import type { Code } from 'mdast';
import {
  parseJsonText,
  parseJsonValue,
  parseYamlText,
  parseYamlValue,
  type ParsedData,
  type ParseProblem,
} from './structured.js';

const parsed = new WeakMap<Code, ParsedData>();
const values = new WeakMap<Code, { value: unknown; problems: ParseProblem[] }>();

export function codeBlockData(node: Code): ParsedData {
  let data = parsed.get(node);
  if (!data) {
    data = /^ya?ml$/i.test(node.lang ?? '') ? parseYamlText(node.value) : parseJsonText(node.value);
    parsed.set(node, data);
  }
  return data;
}

/** A block's value without positions (JSON.parse for JSON): what a reader needs until a finding asks where. */
export function codeBlockValue(node: Code): { value: unknown; problems: ParseProblem[] } {
  let data = values.get(node) ?? parsed.get(node);
  if (!data) {
    data = /^ya?ml$/i.test(node.lang ?? '') ? parseYamlValue(node.value) : parseJsonValue(node.value);
    values.set(node, data);
  }
  return data;
}
