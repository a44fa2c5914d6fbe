/**
 * Reshapes a bundled schema so that json-schema-to-typescript declares types as strict as the
 * schema, where TypeScript can say it. The schema means the same to a validator; only what the
 * type generator reads changes:
 *
 * - an object closed by `unevaluatedProperties: false` is declared closed (the generator reads
 *   only `additionalProperties`, and otherwise adds an index signature that admits anything);
 * - a string `pattern` with literal parts becomes a template literal type (`acme.${string}`), so
 *   a vendor code is not widened to `string` and a misspelt registered one does not compile; a
 *   `format` with fixed separators (`date-time`, `date`, `uri`, `email`, `uuid`) likewise;
 * - conditions that bind a member to the value of another (`if type is "run.started" then
 *   payload is RunStarted`, however they are grouped) become a union discriminated by that value,
 *   each member with its own type, plus a member for the values no condition names.
 *
 * Every type stays at least as wide as the schema: what cannot be expressed is left wider, never
 * narrower, so a valid document always type-checks.
 */
import { isList, isObject } from '../model/index.js';
import { walkSchema } from '../schemas/index.js';

type Schema = Record<string, unknown>;

/** Applies every reshaping to a bundled schema (its root and the documents bundled into it), in place. */
export function reshapeForTypes(bundled: Schema, bundleKey: string): void {
  const documents: Schema[] = [bundled];
  const embedded = bundled[bundleKey];
  if (isObject(embedded)) for (const value of Object.values(embedded)) if (isObject(value)) documents.push(value);
  const resolve = (reference: unknown): Schema | undefined =>
    typeof reference === 'string' ? pointer(bundled, reference) : undefined;
  const references = new Set<string>();
  for (const document of documents) {
    walkSchema(document, [], 'urn:bundle', ({ value }) => {
      closeUnevaluated(value, resolve);
      typePattern(value);
      if (typeof value.$ref === 'string') references.add(value.$ref);
    });
  }
  // The documents bundled in are reached by pointers into them, which a rewrite would break;
  // the root is rewritten, unless something points at the members it would move.
  distributeDispatch(bundled, resolve, (name) =>
    references.has(`#/properties/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`),
  );
}

/**
 * Declares closed what the schema closes: `unevaluatedProperties: false` here, or a part this
 * object is the conjunction with (`$ref`, `allOf`) that is closed, which rejects every property it
 * does not know whatever this level adds.
 */
function closeUnevaluated(node: Schema, resolve: (reference: unknown) => Schema | undefined): void {
  if (node.additionalProperties !== undefined || node.patternProperties !== undefined) return;
  const closed = (schema: Schema | undefined) =>
    schema !== undefined &&
    (schema.additionalProperties === false || schema.unevaluatedProperties === false) &&
    schema.patternProperties === undefined;
  const parts = [
    ...(typeof node.$ref === 'string' ? [resolve(node.$ref)] : []),
    ...(Array.isArray(node.allOf)
      ? node.allOf.map((part) =>
          isObject(part) && typeof part.$ref === 'string' ? resolve(part.$ref) : isObject(part) ? part : undefined,
        )
      : []),
  ];
  if (node.unevaluatedProperties === false) {
    node.additionalProperties = false;
    inlineOpenParts(node, resolve);
  } else if (isObject(node.properties) && parts.some(closed)) node.additionalProperties = false;
}

/** Keywords of a part whose properties can be copied into the closed object that uses it (conditions only narrow; types ignore them). */
const INLINABLE = new Set([
  'type',
  'properties',
  'required',
  'allOf',
  'if',
  'then',
  'else',
  'description',
  'title',
  '$comment',
]);

/**
 * A closed object's open parts (`$ref: fields` beside `unevaluatedProperties: false`) would keep
 * their index signature in the intersection, and the type would admit any property: their
 * properties are copied into the object instead, which closes over them as the schema does.
 */
function inlineOpenParts(node: Schema, resolve: (reference: unknown) => Schema | undefined): void {
  if (!Array.isArray(node.allOf)) return;
  const kept: unknown[] = [];
  for (const part of node.allOf) {
    const target =
      isObject(part) && typeof part.$ref === 'string' && Object.keys(part).length === 1
        ? resolve(part.$ref)
        : undefined;
    const inlinable =
      target !== undefined &&
      target.additionalProperties === undefined &&
      target.unevaluatedProperties === undefined &&
      isObject(target.properties) &&
      Object.keys(target).every((keyword) => INLINABLE.has(keyword)) &&
      (!Array.isArray(target.allOf) ||
        target.allOf.every(
          (inner) =>
            isObject(inner) &&
            Object.keys(inner).every((keyword) => ['if', 'then', 'else', 'description', '$comment'].includes(keyword)),
        ));
    if (!inlinable || !target || !isObject(target.properties)) {
      kept.push(part);
      continue;
    }
    const properties = isObject(node.properties) ? node.properties : {};
    node.properties = { ...target.properties, ...properties };
    const required = new Set([
      ...(isList(target.required) ? target.required : []),
      ...(isList(node.required) ? node.required : []),
    ]);
    if (required.size > 0) node.required = [...required];
    if (node.type === undefined && target.type !== undefined) node.type = target.type;
  }
  if (kept.length > 0) node.allOf = kept;
  else delete node.allOf;
}

/**
 * The template literal types a `format` guarantees: only the separators every valid value has
 * (a `date-time` always has its `-`, `-` and `T`; an absolute `uri` its scheme's `:`).
 */
const FORMAT_TEMPLATES: Readonly<Record<string, string>> = {
  'date-time': '`${string}-${string}-${string}T${string}:${string}`',
  date: '`${string}-${string}-${string}`',
  uri: '`${string}:${string}`',
  email: '`${string}@${string}`',
  uuid: '`${string}-${string}-${string}-${string}-${string}`',
};

function typePattern(node: Schema): void {
  if (node.type !== 'string' || node.tsType !== undefined || node.enum !== undefined || 'const' in node) return;
  const templates = typeof node.pattern === 'string' ? patternTemplates(node.pattern) : undefined;
  const format = typeof node.format === 'string' ? FORMAT_TEMPLATES[node.format] : undefined;
  if (templates) node.tsType = templates.join(' | ');
  else if (format) node.tsType = format;
}

const WILD = Symbol('any text');
type Part = string | typeof WILD;

/**
 * The template literal types a pattern's matches all belong to, or undefined when it has no
 * literal part to keep (`^[0-9a-f]{64}$` is just `string`). Reads the pattern from its `^`:
 * literal characters and escapes stay, an alternation of literals multiplies the templates, a
 * lookahead of literals at the start gives the prefix, and anything else (a class, a quantified
 * part, a group that is not plain literals) is `${string}`, which admits more, never less.
 */
export function patternTemplates(pattern: string): string[] | undefined {
  if (!pattern.startsWith('^')) return undefined;
  const alternatives = sequence(pattern.slice(1));
  if (!alternatives || alternatives.length > 64) return undefined;
  const rendered = alternatives.map(render).filter((text): text is string => text !== undefined);
  if (rendered.length !== alternatives.length) return undefined;
  return [...new Set(rendered)];
}

/**
 * The templates of a regular expression read from its start: each a list of literal text and
 * any-text parts. Without a final `$`, any text may follow.
 */
function sequence(source: string): Part[][] | undefined {
  let alternatives: Part[][] = [[]];
  const append = (options: Part[][]) => {
    alternatives = alternatives.flatMap((prefix) => options.map((option) => [...prefix, ...option]));
  };
  let i = 0;
  let anchored = false;
  while (i < source.length) {
    const char = source[i] as string;
    if (char === '$' && i === source.length - 1) {
      anchored = true;
      break;
    }
    if (char === '|') return undefined;
    if (char === '(') {
      const end = closingParen(source, i);
      if (end === -1) return undefined;
      const body = source.slice(i + 1, end);
      i = end + 1;
      if (body.startsWith('?!') || body.startsWith('?<')) continue; // a look-behind or negative lookahead only narrows
      if (body.startsWith('?=')) {
        // A lookahead at the start fixes how every match starts; what follows is read as any text.
        const ahead = alternatives.every((parts) => parts.length === 0) ? sequence(body.slice(2)) : undefined;
        if (ahead) return ahead.map((parts) => [...parts, WILD]);
        continue;
      }
      const quantified = quantifierAt(source, i);
      const options = quantified === 0 || source[i] === '+' ? literalAlternatives(body.replace(/^\?:/, '')) : undefined;
      // Once or more (`+`): the first repetition is read, the rest is any text.
      append(options ? (quantified === 0 ? options : options.map((option) => [...option, WILD])) : [[WILD]]);
      i += quantified;
      continue;
    }
    if (char === '[') {
      const end = classEnd(source, i);
      if (end === -1) return undefined;
      i = end + 1;
      i += quantifierAt(source, i);
      append([[WILD]]);
      continue;
    }
    let literal: string | undefined;
    if (char === '\\') {
      const next = source[i + 1];
      if (next === undefined) return undefined;
      literal = /[A-Za-z0-9]/.test(next) ? undefined : next;
      i += 2;
    } else {
      literal = char === '.' ? undefined : char;
      i += 1;
    }
    const quantified = quantifierAt(source, i);
    i += quantified;
    append([[literal !== undefined && quantified === 0 ? literal : WILD]]);
  }
  if (!anchored) append([[WILD]]);
  return alternatives;
}

/** `` `acme.${string}` ``, or undefined when the template has no literal text. */
function render(parts: Part[]): string | undefined {
  const merged: Part[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (part === WILD && last === WILD) continue;
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  if (!merged.some((part) => typeof part === 'string' && part !== '')) return undefined;
  return `\`${merged.map((part) => (part === WILD ? '${string}' : part.replace(/[`\\]/g, (c) => `\\${c}`).replace(/\$\{/g, '\\${'))).join('')}\``;
}

/** `a|b\.c` -> [['a'], ['b.c']]: each alternative of a group read as a sequence of its own (split at its top level). */
function literalAlternatives(body: string): Part[][] | undefined {
  const options: Part[][] = [];
  for (const option of splitTopLevel(body)) {
    const read = sequence(`${option}$`);
    if (!read) return undefined;
    options.push(...read);
  }
  // An option that is any text admits the others too: the group is any text.
  return options.some((option) => option.every((part) => part === WILD)) ? [[WILD]] : options;
}

/** A group body split at its top-level `|`. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const char = body[i];
    if (char === '\\') i++;
    else if (char === '[') i = Math.max(i, classEnd(body, i));
    else if (char === '(') depth++;
    else if (char === ')') depth--;
    else if (char === '|' && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}

function quantifierAt(pattern: string, i: number): number {
  const char = pattern[i];
  let length = 0;
  if (char === '*' || char === '+' || char === '?') length = 1;
  else if (char === '{') {
    const match = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i));
    if (match) length = match[0].length;
  }
  if (length > 0 && pattern[i + length] === '?') length++;
  return length;
}

function closingParen(pattern: string, open: number): number {
  let depth = 0;
  for (let i = open; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') i++;
    else if (char === '[') {
      i = classEnd(pattern, i);
      if (i === -1) return -1;
    } else if (char === '(') depth++;
    else if (char === ')' && --depth === 0) return i;
  }
  return -1;
}

function classEnd(pattern: string, open: number): number {
  for (let i = open + 1; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === ']' && i > open + 1) return i;
  }
  return -1;
}

/** The property and values an `if` selects on, when it is nothing else. */
function selector(condition: unknown): { property: string; values: unknown[] } | undefined {
  if (!isObject(condition) || !isObject(condition.properties)) return undefined;
  const names = Object.keys(condition.properties);
  if (
    names.length !== 1 ||
    Object.keys(condition).some(
      (keyword) => !['type', 'required', 'properties', 'description', '$comment'].includes(keyword),
    )
  )
    return undefined;
  const property = names[0] as string;
  if (!Array.isArray(condition.required) || !condition.required.includes(property)) return undefined;
  const schema = condition.properties[property];
  if (!isObject(schema)) return undefined;
  if ('const' in schema) return { property, values: [schema.const] };
  return Array.isArray(schema.enum) ? { property, values: schema.enum } : undefined;
}

/**
 * Rewrites an object schema whose `allOf` dispatches on one property into a union: for each
 * value, a closed member with that value and the members the conditions bind to it; for the
 * other values of the property, a member with the property narrowed to them and the members as
 * the schema declares them.
 */
function distributeDispatch(
  node: Schema,
  resolve: (reference: unknown) => Schema | undefined,
  referenced: (property: string) => boolean,
): void {
  if (!Array.isArray(node.allOf) || !isObject(node.properties)) return;
  const properties = node.properties;
  const byValue = new Map<string, { value: unknown; members: Schema }>();
  let property: string | undefined;
  const rest: unknown[] = [];
  const spread = (part: unknown, values: unknown[] | undefined, depth: number): boolean => {
    const schema =
      isObject(part) && typeof part.$ref === 'string' && Object.keys(part).length === 1 ? resolve(part.$ref) : part;
    if (!isObject(schema) || depth > 8) return false;
    if (schema.if !== undefined) {
      const chosen = selector(schema.if);
      if (
        !chosen ||
        schema.else !== undefined ||
        !isObject(schema.then) ||
        (property !== undefined && chosen.property !== property)
      )
        return false;
      property = chosen.property;
      const within = values
        ? chosen.values.filter((value) => values.some((outer) => JSON.stringify(outer) === JSON.stringify(value)))
        : chosen.values;
      const then = schema.then;
      const target = typeof then.$ref === 'string' && Object.keys(then).length === 1 ? resolve(then.$ref) : then;
      if (
        isObject(target) &&
        Array.isArray(target.allOf) &&
        !isObject(target.properties) &&
        target.allOf.every((inner) => spread(inner, within, depth + 1))
      )
        return true;
      if (
        !isObject(target) ||
        !isObject(target.properties) ||
        Object.keys(target).some((keyword) => !['type', 'properties', 'required', 'description'].includes(keyword))
      )
        return false;
      for (const value of within) {
        const key = JSON.stringify(value);
        const entry = byValue.get(key) ?? { value, members: {} };
        Object.assign(entry.members, target.properties);
        byValue.set(key, entry);
      }
      return true;
    }
    if (
      Array.isArray(schema.allOf) &&
      Object.keys(schema).every((keyword) => ['allOf', 'description', '$comment', '$defs'].includes(keyword))
    )
      return schema.allOf.every((inner) => spread(inner, values, depth + 1));
    return false;
  };
  for (const part of node.allOf) if (!spread(part, undefined, 0)) rest.push(part);
  if (property === undefined || byValue.size === 0 || rest.length === node.allOf.length) return;
  const discriminant = property;
  const bound = new Set([...byValue.values()].flatMap((entry) => Object.keys(entry.members)));
  if ([discriminant, ...bound].some(referenced)) return;
  const required = Array.isArray(node.required)
    ? node.required.filter((name): name is string => typeof name === 'string')
    : [];
  const memberSchema = (members: Record<string, unknown>, discriminantSchema: unknown): Schema => ({
    type: 'object',
    additionalProperties: false,
    required: [discriminant, ...required.filter((name) => bound.has(name))],
    properties: { [discriminant]: discriminantSchema, ...members },
  });
  const branches: Schema[] = [...byValue.values()].map(({ value, members }) => memberSchema(members, { const: value }));
  const others = otherValues(properties[discriminant], new Set(byValue.keys()), resolve);
  if (others !== null)
    branches.push(
      memberSchema(
        Object.fromEntries([...bound].filter((name) => name in properties).map((name) => [name, properties[name]])),
        others,
      ),
    );
  node.properties = Object.fromEntries(
    Object.entries(properties).filter(([name]) => name !== discriminant && !bound.has(name)),
  );
  node.required = required.filter((name) => name !== discriminant && !bound.has(name));
  node.allOf = [...rest, { anyOf: branches }];
}

/**
 * The schema of the property's values that no condition names: its branches other than an
 * enumeration of named values (a vendor pattern beside the registered list), the whole schema
 * when it cannot be split, or null when nothing is left.
 */
function otherValues(
  schema: unknown,
  named: ReadonlySet<string>,
  resolve: (reference: unknown) => Schema | undefined,
): unknown {
  const target = unwrap(schema, resolve);
  if (!isObject(target)) return schema;
  const coveredBy = (branch: unknown) => {
    const resolved = unwrap(branch, resolve);
    if (!isObject(resolved)) return false;
    if ('const' in resolved) return named.has(JSON.stringify(resolved.const));
    return Array.isArray(resolved.enum) && resolved.enum.every((member) => named.has(JSON.stringify(member)));
  };
  if (coveredBy(target)) return null;
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const branches = target[keyword];
    if (!Array.isArray(branches)) continue;
    const left = branches.filter((branch) => !coveredBy(branch));
    if (left.length === branches.length) return schema;
    if (left.length === 0) return null;
    return left.length === 1 ? left[0] : { anyOf: left };
  }
  return schema;
}

/** What a schema that only refers to another (`$ref`, or a one-part `allOf`, beside annotations) stands for. */
function unwrap(schema: unknown, resolve: (reference: unknown) => Schema | undefined): unknown {
  let current = schema;
  for (let hops = 0; hops < 8 && isObject(current); hops++) {
    const own = Object.keys(current).filter((keyword) => !['description', '$comment', 'title'].includes(keyword));
    if (own.length === 1 && own[0] === '$ref') current = resolve(current.$ref);
    else if (own.length === 1 && own[0] === 'allOf' && Array.isArray(current.allOf) && current.allOf.length === 1)
      current = current.allOf[0];
    else break;
  }
  return current;
}

/** The subschema a `#/...` reference names inside the bundled document. */
function pointer(root: Schema, reference: string): Schema | undefined {
  if (!reference.startsWith('#')) return undefined;
  let value: unknown = root;
  for (const segment of reference.slice(1).split('/').filter(Boolean)) {
    const key = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
    value = isObject(value) ? value[key] : Array.isArray(value) ? value[Number(key)] : undefined;
  }
  return isObject(value) ? value : undefined;
}
