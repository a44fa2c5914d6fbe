/**
 * What changed in one JSON Schema, by what it does to instances: a change that can reject an
 * instance the old schema accepted is breaking (a property removed or newly required, an object
 * closed, an enum member removed, a type narrowed or changed, a constraint tightened); one that
 * only accepts more is additive. Annotations (titles, descriptions, examples) are neither.
 */
import { jcs } from '../output/index.js';
import { isObject } from '../registries/index.js';
import type { PathSegment } from '../model/index.js';


export interface SchemaChange {
  rule: string;
  level: 'breaking' | 'additive';
  /** Where in the schema, as path segments (of the new schema, or of the old for a removal). */
  at: PathSegment[];
  /** Whether `at` addresses the old schema (the thing is gone from the new one). */
  inOld: boolean;
  message: string;
}

export const SCHEMA_RULES: Record<string, { level: 'breaking' | 'additive'; summary: string }> = {
  'schema/property-removed': { level: 'breaking', summary: 'a property was removed' },
  'schema/property-added': { level: 'additive', summary: 'a property was added' },
  'schema/required-added': { level: 'breaking', summary: 'a property became required' },
  'schema/required-removed': { level: 'additive', summary: 'a property is no longer required' },
  'schema/closed': { level: 'breaking', summary: 'an open object was closed (additionalProperties or unevaluatedProperties false)' },
  'schema/opened': { level: 'additive', summary: 'a closed object was opened' },
  'schema/enum-removed': { level: 'breaking', summary: 'an enum member was removed' },
  'schema/enum-added': { level: 'additive', summary: 'an enum member was added' },
  'schema/type-changed': { level: 'breaking', summary: 'a type was narrowed or changed (or a $ref retargeted)' },
  'schema/type-widened': { level: 'additive', summary: 'a type was widened' },
  'schema/definition-removed': { level: 'breaking', summary: 'a $defs entry others may $ref was removed' },
  'schema/definition-added': { level: 'additive', summary: 'a $defs entry was added' },
  'schema/variant-removed': { level: 'breaking', summary: 'an anyOf/oneOf branch was removed' },
  'schema/variant-added': { level: 'additive', summary: 'an anyOf/oneOf branch was added' },
  'schema/constraint-tightened': { level: 'breaking', summary: 'a validation keyword now rejects more (pattern, format, bounds, const, allOf, ...)' },
  'schema/constraint-relaxed': { level: 'additive', summary: 'a validation keyword now rejects less' },
};

type Emit = (rule: keyof typeof SCHEMA_RULES, at: PathSegment[], message: string, inOld?: boolean) => void;

export function compareSchemas(before: unknown, after: unknown): SchemaChange[] {
  const changes: SchemaChange[] = [];
  const emit: Emit = (rule, at, message, inOld = false) => changes.push({ rule, level: SCHEMA_RULES[rule]?.level ?? 'breaking', at, inOld, message });
  compareNode(before, after, [], emit);
  return changes;
}

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'] as const;
const EXACT = ['pattern', 'format', 'multipleOf', 'const', 'contentMediaType', 'contentEncoding'] as const;
const SUBSCHEMAS = ['items', 'contains', 'not', 'if', 'then', 'else', 'propertyNames', 'additionalItems', 'unevaluatedItems'] as const;

function compareNode(before: unknown, after: unknown, at: PathSegment[], emit: Emit): void {
  if (typeof before === 'boolean' || typeof after === 'boolean') {
    if (before === after || (!isObject(before) && typeof before !== 'boolean') || (!isObject(after) && typeof after !== 'boolean')) return;
    // `true` and `{}` accept everything, `false` nothing.
    const accepts = (schema: unknown) => (schema === true || (isObject(schema) && Object.keys(schema).length === 0) ? 'all' : schema === false ? 'none' : 'some');
    const [was, is] = [accepts(before), accepts(after)];
    if (was === is) return;
    const tighter = is === 'none' || (was === 'all' && is === 'some');
    emit(tighter ? 'schema/constraint-tightened' : 'schema/constraint-relaxed', at, `${describe(at)} now accepts ${is === 'all' ? 'anything' : is === 'none' ? 'nothing' : 'only what its schema allows'} (it accepted ${was === 'all' ? 'anything' : was === 'none' ? 'nothing' : 'what its schema allowed'})`);
    return;
  }
  if (!isObject(before) || !isObject(after)) return;

  if (typeof before.$ref === 'string' && typeof after.$ref === 'string' && before.$ref !== after.$ref) {
    emit('schema/type-changed', [...at, '$ref'], `${describe(at)} now refers to ${after.$ref} instead of ${before.$ref}`);
  }
  compareTypes(before.type, after.type, at, emit);
  compareEnum(before.enum, after.enum, at, emit);
  compareProperties(before, after, at, emit);
  compareRequired(before.required, after.required, at, emit);
  for (const keyword of ['additionalProperties', 'unevaluatedProperties'] as const) compareClosure(before[keyword], after[keyword], at, keyword, emit);
  compareDefinitions(before, after, at, emit);
  compareBranches(before, after, at, emit);
  compareConstraints(before, after, at, emit);
  for (const keyword of SUBSCHEMAS) if (before[keyword] !== undefined && after[keyword] !== undefined) compareNode(before[keyword], after[keyword], [...at, keyword], emit);
  if (Array.isArray(before.prefixItems) && Array.isArray(after.prefixItems)) {
    const length = Math.min(before.prefixItems.length, after.prefixItems.length);
    for (let i = 0; i < length; i++) compareNode(before.prefixItems[i], after.prefixItems[i], [...at, 'prefixItems', i], emit);
  }
  if (isObject(before.patternProperties) && isObject(after.patternProperties)) {
    for (const [pattern, schema] of Object.entries(after.patternProperties)) {
      if (pattern in before.patternProperties) compareNode(before.patternProperties[pattern], schema, [...at, 'patternProperties', pattern], emit);
    }
  }
}

function typeSet(type: unknown): Set<string> | undefined {
  if (typeof type === 'string') return new Set([type]);
  if (Array.isArray(type)) return new Set(type.filter((t): t is string => typeof t === 'string'));
  return undefined;
}

function compareTypes(before: unknown, after: unknown, at: PathSegment[], emit: Emit): void {
  const was = typeSet(before);
  const is = typeSet(after);
  if (!was && !is) return;
  const show = (set: Set<string> | undefined) => (set ? [...set].sort().join(' | ') : 'any type');
  if (!is) {
    emit('schema/type-widened', at, `${describe(at)} no longer restricts its type (was ${show(was)})`);
    return;
  }
  if (!was) {
    emit('schema/type-changed', [...at, 'type'], `${describe(at)} is now restricted to ${show(is)}`);
    return;
  }
  // An integer is a number: widening integer to number loses nothing.
  const covers = (set: Set<string>, type: string) => set.has(type) || (type === 'integer' && set.has('number'));
  const lost = [...was].filter((type) => !covers(is, type));
  const gained = [...is].filter((type) => !covers(was, type));
  if (lost.length > 0) emit('schema/type-changed', [...at, 'type'], `${describe(at)} changed type from ${show(was)} to ${show(is)}`);
  else if (gained.length > 0) emit('schema/type-widened', [...at, 'type'], `${describe(at)} widened its type from ${show(was)} to ${show(is)}`);
}

function compareEnum(before: unknown, after: unknown, at: PathSegment[], emit: Emit): void {
  if (!Array.isArray(before) && !Array.isArray(after)) return;
  if (!Array.isArray(after)) {
    emit('schema/constraint-relaxed', at, `${describe(at)} is no longer an enumeration`);
    return;
  }
  if (!Array.isArray(before)) {
    emit('schema/constraint-tightened', [...at, 'enum'], `${describe(at)} is now an enumeration of ${after.length} value${after.length === 1 ? '' : 's'}`);
    return;
  }
  const was = new Map(before.map((member) => [jcs(member), member]));
  const is = new Map(after.map((member) => [jcs(member), member]));
  for (const [key] of was) if (!is.has(key)) emit('schema/enum-removed', [...at, 'enum'], `${describe(at)} no longer admits ${key}`);
  for (const [key] of is) if (!was.has(key)) emit('schema/enum-added', [...at, 'enum'], `${describe(at)} now admits ${key}`);
}

function compareProperties(before: Record<string, unknown>, after: Record<string, unknown>, at: PathSegment[], emit: Emit): void {
  const was = isObject(before.properties) ? before.properties : {};
  const is = isObject(after.properties) ? after.properties : {};
  for (const name of Object.keys(was)) {
    if (!(name in is)) emit('schema/property-removed', [...at, 'properties', name], `property "${name}" of ${describe(at)} was removed`, true);
    else compareNode(was[name], is[name], [...at, 'properties', name], emit);
  }
  for (const name of Object.keys(is)) if (!(name in was)) emit('schema/property-added', [...at, 'properties', name], `property "${name}" was added to ${describe(at)}`);
}

function compareRequired(before: unknown, after: unknown, at: PathSegment[], emit: Emit): void {
  const was = new Set(Array.isArray(before) ? before : []);
  const is = new Set(Array.isArray(after) ? after : []);
  for (const name of is) if (!was.has(name)) emit('schema/required-added', [...at, 'required'], `property "${String(name)}" of ${describe(at)} is now required`);
  for (const name of was) if (!is.has(name)) emit('schema/required-removed', at, `property "${String(name)}" of ${describe(at)} is no longer required`);
}

function compareClosure(before: unknown, after: unknown, at: PathSegment[], keyword: string, emit: Emit): void {
  if (after === false && before !== false) emit('schema/closed', [...at, keyword], `${describe(at)} was closed: ${keyword} is now false`);
  else if (before === false && after !== false) emit('schema/opened', at, `${describe(at)} was opened: ${keyword} is no longer false`);
  else if (before !== undefined && after !== undefined) compareNode(before, after, [...at, keyword], emit);
}

function compareDefinitions(before: Record<string, unknown>, after: Record<string, unknown>, at: PathSegment[], emit: Emit): void {
  for (const keyword of ['$defs', 'definitions'] as const) {
    const was = isObject(before[keyword]) ? before[keyword] : {};
    const is = isObject(after[keyword]) ? after[keyword] : {};
    for (const name of Object.keys(was)) {
      if (!(name in is)) emit('schema/definition-removed', [...at, keyword, name], `definition ${keyword}/${name} was removed`, true);
      else compareNode(was[name], is[name], [...at, keyword, name], emit);
    }
    for (const name of Object.keys(is)) if (!(name in was)) emit('schema/definition-added', [...at, keyword, name], `definition ${keyword}/${name} was added`);
  }
}

function compareBranches(before: Record<string, unknown>, after: Record<string, unknown>, at: PathSegment[], emit: Emit): void {
  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const was = Array.isArray(before[keyword]) ? before[keyword] : [];
    const is = Array.isArray(after[keyword]) ? after[keyword] : [];
    const length = Math.min(was.length, is.length);
    for (let i = 0; i < length; i++) compareNode(was[i], is[i], [...at, keyword, i], emit);
    if (was.length === is.length) continue;
    // allOf: every member must hold, so one more member rejects more; anyOf/oneOf: the opposite.
    const more = is.length > was.length;
    const narrowing = keyword === 'allOf' ? more : !more;
    const rule = keyword === 'allOf' ? (narrowing ? 'schema/constraint-tightened' : 'schema/constraint-relaxed') : narrowing ? 'schema/variant-removed' : 'schema/variant-added';
    emit(rule, [...at, keyword], `${describe(at)} ${keyword} went from ${was.length} to ${is.length} member${is.length === 1 ? '' : 's'}`, !more);
  }
}

function compareConstraints(before: Record<string, unknown>, after: Record<string, unknown>, at: PathSegment[], emit: Emit): void {
  const bound = (keyword: string, tighterWhen: (was: number, is: number) => boolean) => {
    const was = before[keyword];
    const is = after[keyword];
    if (was === is) return;
    const wasNumber = typeof was === 'number' ? was : undefined;
    const isNumber = typeof is === 'number' ? is : undefined;
    if (wasNumber === undefined && isNumber === undefined) return;
    const tighter = wasNumber === undefined ? true : isNumber === undefined ? false : tighterWhen(wasNumber, isNumber);
    emit(tighter ? 'schema/constraint-tightened' : 'schema/constraint-relaxed', [...at, keyword], `${describe(at)} ${keyword} ${show(was)} → ${show(is)}`, isNumber === undefined);
  };
  for (const keyword of LOWER_BOUNDS) bound(keyword, (was, is) => is > was);
  for (const keyword of UPPER_BOUNDS) bound(keyword, (was, is) => is < was);
  for (const keyword of EXACT) {
    const was = before[keyword];
    const is = after[keyword];
    if (was === undefined && is === undefined) continue;
    if (was !== undefined && is !== undefined && jcs(was) === jcs(is)) continue;
    const relaxed = is === undefined;
    emit(relaxed ? 'schema/constraint-relaxed' : 'schema/constraint-tightened', [...at, keyword], `${describe(at)} ${keyword} ${show(was)} → ${show(is)}`, relaxed);
  }
  if (before.uniqueItems !== after.uniqueItems && (before.uniqueItems === true || after.uniqueItems === true)) {
    const tighter = after.uniqueItems === true;
    emit(tighter ? 'schema/constraint-tightened' : 'schema/constraint-relaxed', [...at, 'uniqueItems'], `${describe(at)} uniqueItems ${show(before.uniqueItems)} → ${show(after.uniqueItems)}`, !tighter);
  }
}

function show(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** `/properties/owner` -> `#/properties/owner`; the root is `the schema`. */
export function describe(at: readonly PathSegment[]): string {
  return at.length === 0 ? 'the schema' : `#/${at.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}
