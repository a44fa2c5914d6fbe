/**
 * The `$defs` of the payload registry (schemas/v2/run-event-payloads.schema.json): which entries
 * are closed, and which entries each composes. A payload is closed by `additionalProperties: false`
 * (or `unevaluatedProperties: false`), or by `$ref` composition of a closed entry that adds no
 * property of its own: approvals are the interrupt payloads with `kind` fixed, not copies of them.
 */
import { isObject, type PathSegment, walkData } from '../model/index.js';

const LOCAL_DEF = /^#\/\$defs\/([^/]+)$/;

interface OpenPayload {
  name: string;
  /** Where to point: the offending member of the entry. */
  at: PathSegment[];
  /** What is wrong, as a message id, and the values its words need. */
  kind: 'not-a-schema' | 'open-payload' | 'unclosed-payload' | 'unknown-base' | 'widens-base' | 'open-base';
  data: Record<string, string>;
  message: string;
  hint: string;
}

export interface PayloadDefs {
  names: string[];
  /** `$defs` entries each entry references, directly or anywhere inside it. */
  references(name: string): string[];
  open: OpenPayload[];
}

export function analysePayloadDefs(defs: Record<string, unknown>): PayloadDefs {
  const names = Object.keys(defs);
  const references = new Map(names.map((name) => [name, localReferences(defs[name])]));
  const memo = new Map<string, boolean>();

  const baseOf = (entry: Record<string, unknown>): string | undefined => {
    const direct = typeof entry.$ref === 'string' ? LOCAL_DEF.exec(entry.$ref)?.[1] : undefined;
    if (direct) return direct;
    if (!Array.isArray(entry.allOf)) return undefined;
    for (const part of entry.allOf) {
      const ref = isObject(part) && typeof part.$ref === 'string' ? LOCAL_DEF.exec(part.$ref)?.[1] : undefined;
      if (ref) return ref;
    }
    return undefined;
  };

  const isClosed = (name: string, visiting: Set<string>): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const entry = defs[name];
    let closed = false;
    if (isObject(entry)) {
      if (entry.additionalProperties === false || entry.unevaluatedProperties === false) {
        closed = true;
      } else if (entry.additionalProperties === undefined && entry.unevaluatedProperties === undefined) {
        const base = baseOf(entry);
        if (base && !visiting.has(base) && base in defs) {
          closed = isClosed(base, new Set([...visiting, name])) && extraProperties(entry, defs[base]).length === 0;
        }
      }
    }
    memo.set(name, closed);
    return closed;
  };

  const open: OpenPayload[] = [];
  for (const name of names) {
    if (isClosed(name, new Set())) continue;
    const entry = defs[name];
    if (!isObject(entry)) {
      open.push({
        name,
        at: [name],
        kind: 'not-a-schema',
        data: { payload: name },
        message: `payload \`${name}\` is not a schema object`,
        hint: 'make it an object schema with additionalProperties: false',
      });
      continue;
    }
    for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) {
      if (entry[keyword] !== undefined && entry[keyword] !== false) {
        open.push({
          name,
          at: [name, keyword],
          kind: 'open-payload',
          data: { payload: name, keyword, value: JSON.stringify(entry[keyword]) },
          message: `payload \`${name}\` is open: ${keyword} is ${JSON.stringify(entry[keyword])}; every payload is closed (events.md §"Payloads")`,
          hint: `set ${keyword} to false and list every property the payload carries`,
        });
      }
    }
    if (open.some((problem) => problem.name === name)) continue;
    const base = baseOf(entry);
    if (base === undefined) {
      open.push({
        name,
        at: [name],
        kind: 'unclosed-payload',
        data: { payload: name },
        message: `payload \`${name}\` is not closed: it has no additionalProperties: false and composes no closed payload`,
        hint: 'add "additionalProperties": false',
      });
    } else if (!(base in defs)) {
      open.push({
        name,
        at: [name, '$ref'],
        kind: 'unknown-base',
        data: { payload: name, base },
        message: `payload \`${name}\` composes \`${base}\`, which is not a $defs entry`,
        hint: 'point $ref at an existing payload',
      });
    } else if (extraProperties(entry, defs[base]).length > 0) {
      const extra = extraProperties(entry, defs[base]);
      open.push({
        name,
        at: [name, 'properties', extra[0] ?? ''],
        kind: 'widens-base',
        data: { payload: name, base, extra: extra.map((p) => `\`${p}\``).join(', ') },
        message: `payload \`${name}\` composes the closed \`${base}\` but adds ${extra.map((p) => `\`${p}\``).join(', ')}, which \`${base}\` does not allow`,
        hint: `composition may only narrow \`${base}\`; add the property to \`${base}\`, or define a payload of its own`,
      });
    } else {
      open.push({
        name,
        at: [name, '$ref'],
        kind: 'open-base',
        data: { payload: name, base },
        message: `payload \`${name}\` composes \`${base}\`, which is not closed`,
        hint: `close \`${base}\``,
      });
    }
  }
  return { names, references: (name) => references.get(name) ?? [], open };
}

/** Entries reachable from `roots` through `$ref`s, roots included. */
export function reachable(analysis: PayloadDefs, roots: Iterable<string>): Set<string> {
  const seen = new Set<string>();
  const queue = [...roots];
  for (let name = queue.pop(); name !== undefined; name = queue.pop()) {
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...analysis.references(name));
  }
  return seen;
}

function extraProperties(entry: Record<string, unknown>, base: unknown): string[] {
  const own = isObject(entry.properties) ? Object.keys(entry.properties) : [];
  const allowed =
    isObject(base) && isObject(base.properties) ? new Set(Object.keys(base.properties)) : new Set<string>();
  return own.filter((property) => !allowed.has(property));
}

function localReferences(value: unknown): string[] {
  const found: string[] = [];
  walkData(value, (node, path) => {
    if (typeof node !== 'string' || path[path.length - 1] !== '$ref') return;
    const name = LOCAL_DEF.exec(node)?.[1];
    if (name) found.push(name);
  });
  return found;
}
