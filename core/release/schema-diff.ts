/**
 * What changed in the JSON Schemas of a release, by what it does to instances. Schemas are
 * compared after resolving `$ref` (within and across files) and flattening `allOf`: a schema is
 * the conjunction of its parts, so moving constraints behind a `$ref`, into `$defs` or into an
 * `allOf`, or reordering them, changes nothing an instance can tell and is not reported; `const`
 * is an enum of one. What is left is classified: a change that can reject an instance the old
 * schema accepted is breaking (a property removed or newly required, an object closed, an enum
 * member removed, a type narrowed, a constraint tightened); one that only accepts more is
 * additive. Annotations (titles, descriptions, examples, `x-*`) are neither.
 *
 * Every change names its place in both releases: the file and JSON path of the keyword in the
 * old schema and in the new (for something removed, the new place is where it would be).
 */
import { compareStrings, jcs } from '../output/index.js';
import { isList, isObject, type PathSegment } from '../model/index.js';
import { expectedSchemaId, pointerSegments, resolveUri } from '../schemas/index.js';
import { apiSchemaEntries, type ApiSchemaEntry, type Flow } from './api-schemas.js';

/** Who writes what a schema change constrains: clients (`request`), hosts (`response`), both, or no API says. */
type Direction = Flow | 'both' | 'unknown';
type Level = 'breaking' | 'additive' | 'editorial';

export interface SchemaPlace {
  file: string;
  at: PathSegment[];
}

export interface SchemaChange {
  rule: string;
  level: 'breaking' | 'additive' | 'editorial';
  before: SchemaPlace | undefined;
  after: SchemaPlace | undefined;
  message: string;
  /** For an enum member added or removed: the member. */
  member?: unknown;
  /** For a `$defs` entry added or removed: its name. */
  definition?: string;
  /** Whether what changed is sent by clients, by hosts, both, or is reached by no API entry point. */
  direction: Direction;
}

export const SCHEMA_RULES: Record<string, { level: 'breaking' | 'additive' | 'editorial'; summary: string }> = {
  'schema/property-removed': { level: 'breaking', summary: 'a property was removed' },
  'schema/property-added': { level: 'additive', summary: 'a property was added' },
  'schema/required-added': { level: 'breaking', summary: 'a property became required' },
  'schema/required-removed': { level: 'additive', summary: 'a property is no longer required' },
  'schema/closed': {
    level: 'breaking',
    summary: 'an open object was closed (additionalProperties or unevaluatedProperties false)',
  },
  'schema/opened': { level: 'additive', summary: 'a closed object was opened' },
  'schema/enum-removed': { level: 'breaking', summary: 'an enum member was removed' },
  'schema/enum-added': { level: 'additive', summary: 'an enum member was added' },
  'schema/type-changed': { level: 'breaking', summary: 'a type was narrowed or changed' },
  'schema/type-widened': { level: 'additive', summary: 'a type was widened' },
  'schema/definition-removed': {
    level: 'editorial',
    summary:
      'a $defs entry was removed or moved; what instances must satisfy is compared through the references that use it',
  },
  'schema/definition-added': {
    level: 'editorial',
    summary: 'a $defs entry was added; it constrains nothing until a reference uses it',
  },
  'schema/variant-removed': { level: 'breaking', summary: 'an anyOf/oneOf branch was removed' },
  'schema/variant-added': { level: 'additive', summary: 'an anyOf/oneOf branch was added' },
  'schema/constraint-tightened': {
    level: 'breaking',
    summary: 'a validation keyword now rejects more (pattern, format, bounds, a condition, a new allOf part, ...)',
  },
  'schema/constraint-relaxed': { level: 'additive', summary: 'a validation keyword now rejects less' },
};

type Rule = keyof typeof SCHEMA_RULES;

/** A subschema where it is written: its value, file, JSON path and the base URI in force there. */
interface Node {
  value: unknown;
  file: string;
  at: PathSegment[];
  base: string;
}

/** Every schema of one release, by `$id`, for resolving references. */
export class SchemaSet {
  private readonly byId = new Map<string, { file: string; value: unknown }>();
  private readonly canonicalCache = new Map<string, string>();

  constructor(readonly files: ReadonlyMap<string, unknown>) {
    for (const [file, value] of files) this.byId.set(idOf(file, value), { file, value });
  }

  root(file: string): Node | undefined {
    const value = this.files.get(file);
    return value === undefined ? undefined : { value, file, at: [], base: idOf(file, value) };
  }

  /** The files of the set that the `$ref`s in `files` point into (other than themselves). */
  referencedFrom(files: Iterable<string>): Set<string> {
    const referenced = new Set<string>();
    for (const file of files) {
      const root = this.root(file);
      if (!root) continue;
      // Every object, not only subschemas: an API document holds its schemas under paths and components.
      const stack: Array<{ value: unknown; base: string }> = [{ value: root.value, base: root.base }];
      for (let item = stack.pop(); item; item = stack.pop()) {
        const { value } = item;
        if (Array.isArray(value)) for (const entry of value) stack.push({ value: entry, base: item.base });
        if (!isObject(value)) continue;
        const base = typeof value.$id === 'string' ? resolveUri(value.$id, item.base) : item.base;
        if (typeof value.$ref === 'string') {
          const target = this.byId.get(resolveUri(value.$ref, base).split('#')[0] ?? '');
          if (target && target.file !== file) referenced.add(target.file);
        }
        for (const entry of Object.values(value))
          if (typeof entry === 'object' && entry !== null) stack.push({ value: entry, base });
      }
    }
    return referenced;
  }

  /** The node at a place of one of the set's files. */
  at(where: SchemaPlace): Node | undefined {
    const root = this.root(where.file);
    return root && child(root, ...where.at);
  }

  /** The node a `$ref` names, or undefined when it points outside the release or nowhere. */
  resolve(reference: string, base: string): Node | undefined {
    const target = resolveUri(reference, base);
    const hash = target.indexOf('#');
    const document = (hash === -1 ? target : target.slice(0, hash)).replace(/#$/, '');
    const fragment = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1));
    const entry = this.byId.get(document);
    if (!entry) return undefined;
    const segments = pointerSegments(fragment);
    if (!segments) return undefined;
    let node: Node = { value: entry.value, file: entry.file, at: [], base: document };
    for (const segment of segments) {
      const next = child(node, Array.isArray(node.value) ? Number(segment) : segment);
      if (!next) return undefined;
      node = next;
    }
    return node;
  }

  /**
   * A string equal for two subschemas exactly when they are the same after resolution and
   * normalisation (annotations dropped, `$ref`s followed, one-part `allOf`s unwrapped, sets
   * sorted): what matching conditions and branches across releases compares.
   */
  canonical(node: Node, stack: Set<string> = new Set()): string {
    const key = placeKey(node);
    const cached = this.canonicalCache.get(key);
    if (cached !== undefined) return cached;
    const text = jcs(this.expand(node, stack));
    if (stack.size === 0) this.canonicalCache.set(key, text);
    return text;
  }

  private expand(node: Node, stack: Set<string>): unknown {
    if (!isObject(node.value)) return node.value;
    const key = placeKey(node);
    if (stack.has(key)) return { $cycle: key };
    stack.add(key);
    const out: Record<string, unknown> = {};
    const conjuncts: unknown[] = [];
    for (const [keyword, value] of Object.entries(node.value)) {
      if (isAnnotation(keyword)) continue;
      if (keyword === '$ref' && typeof value === 'string') {
        const target = this.resolve(value, node.base);
        conjuncts.push(target ? this.expand(target, stack) : { $ref: resolveUri(value, node.base) });
      } else if (keyword === 'allOf' && Array.isArray(value)) {
        value.forEach((_, i) => conjuncts.push(this.expand(child(node, keyword, i) as Node, stack)));
      } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
        const items = value.map((_, i) => this.expand(child(node, keyword, i) as Node, stack));
        out[keyword] = keyword === 'prefixItems' ? items : items.map((item) => jcs(item)).sort();
      } else if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
        out[keyword] = Object.fromEntries(
          Object.keys(value).map((name) => [name, this.expand(child(node, keyword, name) as Node, stack)]),
        );
      } else if (SCHEMA_SINGLES.has(keyword)) {
        out[keyword] = this.expand(child(node, keyword) as Node, stack);
      } else if (keyword === 'const') {
        out.enum = [jcs(value)];
      } else if (keyword === 'enum' && Array.isArray(value)) {
        out.enum = value.map((member) => jcs(member)).sort();
      } else if (
        (keyword === 'required' || keyword === 'type') &&
        (Array.isArray(value) || typeof value === 'string')
      ) {
        out[keyword] = [...new Set((isList(value) ? value : [value]).map(String))].sort(compareStrings);
      } else out[keyword] = value;
    }
    stack.delete(key);
    const flat = conjuncts.flatMap((part) =>
      isObject(part) && Object.keys(part).length === 1 && isList(part.allOf) ? part.allOf : [part],
    );
    if (flat.length === 0) return out;
    if (Object.keys(out).length === 0 && flat.length === 1) return flat[0];
    return { ...out, allOf: flat.map((part) => jcs(part)).sort() };
  }
}

function idOf(file: string, value: unknown): string {
  const declared = isObject(value) ? value.$id : undefined;
  return (typeof declared === 'string' ? declared : expectedSchemaId(file)).replace(/#$/, '');
}

const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_SINGLES = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
  'contentSchema',
]);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems']);
const ANNOTATIONS = new Set([
  'title',
  'description',
  '$comment',
  'examples',
  'default',
  'deprecated',
  'readOnly',
  'writeOnly',
  '$id',
  '$schema',
  '$anchor',
  '$dynamicAnchor',
  '$defs',
  'definitions',
  '$vocabulary',
]);

function isAnnotation(keyword: string): boolean {
  return ANNOTATIONS.has(keyword) || keyword.startsWith('x-') || keyword.startsWith('_');
}

function child(node: Node, ...segments: PathSegment[]): Node | undefined {
  let current = node;
  for (const segment of segments) {
    const value = current.value;
    let next: unknown;
    if (Array.isArray(value) && typeof segment === 'number') next = value[segment];
    else if (isObject(value) && typeof segment === 'string') next = value[segment];
    if (next === undefined) return undefined;
    const base =
      isObject(next) && typeof next.$id === 'string'
        ? resolveUri(next.$id, current.base).replace(/#$/, '')
        : current.base;
    current = { value: next, file: current.file, at: [...current.at, segment], base };
  }
  return current;
}

function placeKey(node: Node): string {
  return `${node.file}#${node.at.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function place(node: Node, ...extra: PathSegment[]): SchemaPlace {
  return { file: node.file, at: [...node.at, ...extra] };
}

const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties', 'minContains'] as const;
const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties', 'maxContains'] as const;
const EXACT = ['pattern', 'format', 'multipleOf', 'contentMediaType', 'contentEncoding'] as const;
const SINGLE_SUBSCHEMAS = [
  'items',
  'contains',
  'propertyNames',
  'additionalItems',
  'unevaluatedItems',
  'contentSchema',
] as const;

/** A conjunction flattened: what every part says, keyword by keyword, with the part that says it. */
interface View {
  parts: Node[];
  none: Node | undefined;
  types: { set: Set<string>; where: Node } | undefined;
  /** JCS of each admitted value. */
  enum: { set: Set<string>; where: Node } | undefined;
  properties: Map<string, Node[]>;
  required: Map<string, Node>;
  closed: Node | undefined;
  closedBy: string | undefined;
  additional: Map<string, Node[]>;
  lower: Map<string, { value: number; where: Node }>;
  upper: Map<string, { value: number; where: Node }>;
  exact: Map<string, { values: Set<string>; where: Node }>;
  uniqueItems: Node | undefined;
  singles: Map<string, Node[]>;
  prefixItems: Map<number, Node[]>;
  patternProperties: Map<string, Node[]>;
  conditionals: Array<{ owner: Node; if: Node; then: Node | undefined; else: Node | undefined }>;
  disjunctions: Array<{ keyword: 'anyOf' | 'oneOf'; owner: Node; branches: Node[] }>;
  negations: Node[];
  unresolved: Map<string, Node>;
}

class SchemaComparison {
  readonly changes: SchemaChange[] = [];
  private readonly seen = new Set<string>();
  private readonly visited = new Set<string>();
  /** The old release's subschemas some comparison has reached. */
  private readonly reached = new Set<string>();

  constructor(
    readonly before: SchemaSet,
    readonly after: SchemaSet,
  ) {}

  /** Compares a file's root in both releases. */
  compareRoot(file: string): void {
    const was = this.before.root(file);
    const is = this.after.root(file);
    if (was && is) this.compare([was], [is], '');
  }

  /**
   * Compares each `$defs` entry both releases have by the same name and that no comparison
   * reached yet: a definition is compared where it is used, in the context of what uses it (a
   * condition on \`type\` reads differently inside the envelope that has \`type\`), and alone only
   * when nothing compared so far uses it.
   */
  compareDefinitions(file: string): void {
    const was = this.before.root(file);
    const is = this.after.root(file);
    if (!was || !is) return;
    for (const keyword of ['$defs', 'definitions'] as const) {
      const oldDefs = isObject(was.value) && isObject(was.value[keyword]) ? was.value[keyword] : {};
      const newDefs = isObject(is.value) && isObject(is.value[keyword]) ? is.value[keyword] : {};
      for (const name of Object.keys(oldDefs)) {
        const oldDef = child(was, keyword, name) as Node;
        if (name in newDefs) {
          if (!this.reached.has(placeKey(oldDef)))
            this.compare([oldDef], [child(is, keyword, name) as Node], `${keyword}/${name}`);
        } else
          this.emit(
            'schema/definition-removed',
            `definition ${keyword}/${name} was removed (or moved)`,
            place(oldDef),
            place(is),
            name,
          );
      }
      for (const name of Object.keys(newDefs))
        if (!(name in oldDefs))
          this.emit(
            'schema/definition-added',
            `definition ${keyword}/${name} was added`,
            place(was),
            place(child(is, keyword, name) as Node),
            name,
          );
    }
  }

  /** Compares the schema at one API entry point (a request body, a response, a message payload) in both releases. */
  compareEntry(was: SchemaPlace, is: SchemaPlace, route: string): void {
    const oldNode = this.before.at(was);
    const newNode = this.after.at(is);
    if (oldNode && newNode) this.compare([oldNode], [newNode], route);
  }

  private emit(
    rule: Rule,
    message: string,
    before: SchemaPlace | undefined,
    after: SchemaPlace | undefined,
    detail = '',
  ): void {
    // The same keyword can be reached along several routes (a shared $defs entry); it is one change.
    const key = JSON.stringify([rule, before, after, detail]);
    if (this.seen.has(key)) return;
    this.seen.add(key);
    const member =
      rule === 'schema/enum-added' || rule === 'schema/enum-removed' ? (JSON.parse(detail) as unknown) : undefined;
    this.changes.push({
      rule,
      level: SCHEMA_RULES[rule]?.level ?? 'breaking',
      before,
      after,
      message,
      ...(member !== undefined ? { member } : {}),
      ...(rule.startsWith('schema/definition-') ? { definition: detail } : {}),
      direction: 'unknown',
    });
  }

  /** Compares two conjunctions of subschemas (a schema and everything it `$ref`s and `allOf`s). */
  compare(was: Node[], is: Node[], route: string): void {
    const key = `${was.map(placeKey).join(',')}|${is.map(placeKey).join(',')}`;
    if (this.visited.has(key)) return;
    this.visited.add(key);
    const a = this.view(this.before, was);
    const b = this.view(this.after, is);
    const label = route === '' ? 'the document' : `\`${route}\``;

    if (a.none || b.none) {
      if (a.none && !b.none)
        this.emit(
          'schema/constraint-relaxed',
          `${label} accepted nothing and now accepts what its schema allows`,
          place(a.none),
          place(ownerOf(b)),
        );
      else if (b.none && !a.none)
        this.emit('schema/constraint-tightened', `${label} now accepts nothing`, place(ownerOf(a)), place(b.none));
      return;
    }

    this.compareTypes(a, b, label);
    this.compareEnums(a, b, label);

    for (const [name, nodes] of a.properties) {
      const now = b.properties.get(name);
      if (!now)
        this.emit(
          'schema/property-removed',
          `${a.required.has(name) ? 'required ' : ''}property "${name}" of ${label} was removed`,
          place(nodes[0] as Node),
          place(ownerOf(b), 'properties'),
          name,
        );
      else this.compare(nodes, now, `${route}/${name}`);
    }
    // A new property that is also required is one change: a required property was added.
    const newAndRequired = (name: string) =>
      !a.properties.has(name) && b.properties.has(name) && b.required.has(name) && !a.required.has(name);
    for (const [name, nodes] of b.properties)
      if (!a.properties.has(name) && !newAndRequired(name))
        this.emit(
          'schema/property-added',
          `property "${name}" was added to ${label}`,
          place(ownerOf(a), 'properties'),
          place(nodes[0] as Node),
          name,
        );
    for (const [name, where] of b.required) {
      if (a.required.has(name)) continue;
      const message = newAndRequired(name)
        ? `required property "${name}" was added to ${label}`
        : `property "${name}" of ${label} is now required`;
      this.emit('schema/required-added', message, place(ownerOf(a), 'required'), place(where, 'required'), name);
    }
    // A required property removed is one change: the property was removed.
    for (const [name, where] of a.required)
      if (!b.required.has(name) && !(a.properties.has(name) && !b.properties.has(name)))
        this.emit(
          'schema/required-removed',
          `property "${name}" of ${label} is no longer required`,
          place(where, 'required'),
          place(ownerOf(b), 'required'),
          name,
        );

    if (b.closed && !a.closed)
      this.emit(
        'schema/closed',
        `${label} was closed: ${b.closedBy} is now false`,
        place(ownerOf(a)),
        place(b.closed, b.closedBy as string),
      );
    else if (a.closed && !b.closed)
      this.emit(
        'schema/opened',
        `${label} was opened: ${a.closedBy} is no longer false`,
        place(a.closed, a.closedBy as string),
        place(ownerOf(b)),
      );
    for (const keyword of ['additionalProperties', 'unevaluatedProperties'])
      this.compareLists(a.additional.get(keyword), b.additional.get(keyword), a, b, keyword, `${route}/*`, label);

    this.compareBounds(a, b, label);
    for (const keyword of EXACT) {
      const was = a.exact.get(keyword);
      const now = b.exact.get(keyword);
      const show = (entry: { values: Set<string> } | undefined) => (entry ? [...entry.values].join(' and ') : '(none)');
      if (show(was) === show(now)) continue;
      if (!now)
        this.emit(
          'schema/constraint-relaxed',
          `${label} ${keyword} ${show(was)} → (none)`,
          place(was?.where as Node, keyword),
          place(ownerOf(b)),
          keyword,
        );
      else
        this.emit(
          'schema/constraint-tightened',
          `${label} ${keyword} ${show(was)} → ${show(now)}`,
          was ? place(was.where, keyword) : place(ownerOf(a)),
          place(now.where, keyword),
          keyword,
        );
    }
    if (b.uniqueItems && !a.uniqueItems)
      this.emit(
        'schema/constraint-tightened',
        `${label} now requires unique items`,
        place(ownerOf(a)),
        place(b.uniqueItems, 'uniqueItems'),
      );
    else if (a.uniqueItems && !b.uniqueItems)
      this.emit(
        'schema/constraint-relaxed',
        `${label} no longer requires unique items`,
        place(a.uniqueItems, 'uniqueItems'),
        place(ownerOf(b)),
      );

    for (const keyword of SINGLE_SUBSCHEMAS)
      this.compareLists(
        a.singles.get(keyword),
        b.singles.get(keyword),
        a,
        b,
        keyword,
        `${route}/${keyword === 'items' ? '[]' : `(${keyword})`}`,
        label,
      );
    for (const [index, nodes] of a.prefixItems)
      this.compareLists(nodes, b.prefixItems.get(index), a, b, 'prefixItems', `${route}/[${index}]`, label);
    for (const [index, nodes] of b.prefixItems)
      if (!a.prefixItems.has(index))
        this.compareLists(undefined, nodes, a, b, 'prefixItems', `${route}/[${index}]`, label);
    for (const [pattern, nodes] of a.patternProperties)
      this.compareLists(
        nodes,
        b.patternProperties.get(pattern),
        a,
        b,
        'patternProperties',
        `${route}/{${pattern}}`,
        label,
      );
    for (const [pattern, nodes] of b.patternProperties)
      if (!a.patternProperties.has(pattern))
        this.compareLists(undefined, nodes, a, b, 'patternProperties', `${route}/{${pattern}}`, label);

    this.compareConditionals(a, b, route, label);
    this.compareDisjunctions(a, b, route, label);
    this.compareNegations(a, b, label);
    for (const [target, where] of b.unresolved)
      if (!a.unresolved.has(target))
        this.emit(
          'schema/constraint-tightened',
          `${label} now refers to ${target}, which is not in the release`,
          place(ownerOf(a)),
          place(where, '$ref'),
        );
    for (const [target, where] of a.unresolved)
      if (!b.unresolved.has(target))
        this.emit(
          'schema/constraint-relaxed',
          `${label} no longer refers to ${target}`,
          place(where, '$ref'),
          place(ownerOf(b)),
        );
  }

  private view(set: SchemaSet, nodes: readonly Node[]): View {
    const view: View = {
      parts: [],
      none: undefined,
      types: undefined,
      enum: undefined,
      properties: new Map(),
      required: new Map(),
      closed: undefined,
      closedBy: undefined,
      additional: new Map(),
      lower: new Map(),
      upper: new Map(),
      exact: new Map(),
      uniqueItems: undefined,
      singles: new Map(),
      prefixItems: new Map(),
      patternProperties: new Map(),
      conditionals: [],
      disjunctions: [],
      negations: [],
      unresolved: new Map(),
    };
    const included = new Set<string>();
    const push = <K>(map: Map<K, Node[]>, key: K, node: Node) => map.set(key, [...(map.get(key) ?? []), node]);
    const visit = (node: Node) => {
      const key = placeKey(node);
      if (included.has(key)) return;
      included.add(key);
      if (set === this.before) this.reached.add(key);
      view.parts.push(node);
      const value = node.value;
      if (value === false) view.none ??= node;
      if (!isObject(value)) return;
      if (typeof value.$ref === 'string') {
        const target = set.resolve(value.$ref, node.base);
        if (target) visit(target);
        else view.unresolved.set(resolveUri(value.$ref, node.base), node);
      }
      if (Array.isArray(value.allOf)) value.allOf.forEach((_, i) => visit(child(node, 'allOf', i) as Node));

      const types =
        typeof value.type === 'string'
          ? [value.type]
          : Array.isArray(value.type)
            ? value.type.filter((t): t is string => typeof t === 'string')
            : undefined;
      if (types)
        view.types = view.types
          ? {
              set: new Set(
                [...view.types.set].filter((t) => types.includes(t) || (t === 'integer' && types.includes('number'))),
              ),
              where: view.types.where,
            }
          : { set: new Set(types), where: node };
      const members =
        'const' in value
          ? [jcs(value.const)]
          : Array.isArray(value.enum)
            ? value.enum.map((member) => jcs(member))
            : undefined;
      if (members)
        view.enum = view.enum
          ? { set: new Set([...view.enum.set].filter((member) => members.includes(member))), where: view.enum.where }
          : { set: new Set(members), where: node };
      if (isObject(value.properties))
        for (const name of Object.keys(value.properties))
          push(view.properties, name, child(node, 'properties', name) as Node);
      if (Array.isArray(value.required))
        for (const name of value.required)
          if (typeof name === 'string' && !view.required.has(name)) view.required.set(name, node);
      for (const keyword of ['additionalProperties', 'unevaluatedProperties']) {
        if (value[keyword] === false) {
          if (!view.closed) {
            view.closed = node;
            view.closedBy = keyword;
          }
        } else if (value[keyword] !== undefined && value[keyword] !== true)
          push(view.additional, keyword, child(node, keyword) as Node);
      }
      for (const keyword of LOWER_BOUNDS) {
        const bound = value[keyword];
        const held = view.lower.get(keyword);
        if (typeof bound === 'number' && (!held || bound > held.value))
          view.lower.set(keyword, { value: bound, where: node });
      }
      for (const keyword of UPPER_BOUNDS) {
        const bound = value[keyword];
        const held = view.upper.get(keyword);
        if (typeof bound === 'number' && (!held || bound < held.value))
          view.upper.set(keyword, { value: bound, where: node });
      }
      for (const keyword of EXACT) {
        if (value[keyword] === undefined) continue;
        const held = view.exact.get(keyword) ?? { values: new Set<string>(), where: node };
        held.values.add(jcs(value[keyword]));
        view.exact.set(keyword, held);
      }
      if (value.uniqueItems === true) view.uniqueItems ??= node;
      for (const keyword of SINGLE_SUBSCHEMAS)
        if (value[keyword] !== undefined) push(view.singles, keyword, child(node, keyword) as Node);
      if (Array.isArray(value.prefixItems))
        value.prefixItems.forEach((_, i) => push(view.prefixItems, i, child(node, 'prefixItems', i) as Node));
      if (isObject(value.patternProperties))
        for (const pattern of Object.keys(value.patternProperties))
          push(view.patternProperties, pattern, child(node, 'patternProperties', pattern) as Node);
      if (value.if !== undefined)
        view.conditionals.push({
          owner: node,
          if: child(node, 'if') as Node,
          then: child(node, 'then'),
          else: child(node, 'else'),
        });
      for (const keyword of ['anyOf', 'oneOf'] as const) {
        const branches = value[keyword];
        if (Array.isArray(branches))
          view.disjunctions.push({
            keyword,
            owner: node,
            branches: branches.map((_, i) => child(node, keyword, i) as Node),
          });
      }
      if (value.not !== undefined) view.negations.push(child(node, 'not') as Node);
    };
    for (const node of nodes) visit(node);
    // `true` and `{}` parts constrain nothing; the first part stays as the place of the whole.
    return view;
  }

  private compareTypes(a: View, b: View, label: string): void {
    const show = (set: Set<string> | undefined) => (set ? [...set].sort().join(' | ') || 'no type' : 'any type');
    const covers = (set: Set<string> | undefined, type: string) =>
      !set || set.has(type) || (type === 'integer' && set.has('number'));
    const was = a.types?.set;
    const is = b.types?.set;
    if (!was && !is) return;
    const lost = was ? [...was].filter((type) => !covers(is, type)) : is ? ['(any)'] : [];
    const gained = is ? [...is].filter((type) => !covers(was, type)) : was ? ['(any)'] : [];
    const before = a.types ? place(a.types.where, 'type') : place(ownerOf(a));
    const after = b.types ? place(b.types.where, 'type') : place(ownerOf(b));
    if (lost.length > 0)
      this.emit('schema/type-changed', `${label} changed type from ${show(was)} to ${show(is)}`, before, after);
    else if (gained.length > 0)
      this.emit('schema/type-widened', `${label} widened its type from ${show(was)} to ${show(is)}`, before, after);
  }

  private compareEnums(a: View, b: View, label: string): void {
    if (!a.enum && !b.enum) return;
    const before = a.enum ? place(a.enum.where, enumKeyword(a.enum.where)) : place(ownerOf(a));
    const after = b.enum ? place(b.enum.where, enumKeyword(b.enum.where)) : place(ownerOf(b));
    if (!b.enum) return this.emit('schema/constraint-relaxed', `${label} is no longer an enumeration`, before, after);
    if (!a.enum)
      return this.emit(
        'schema/constraint-tightened',
        `${label} is now an enumeration of ${b.enum.set.size} value${b.enum.set.size === 1 ? '' : 's'}`,
        before,
        after,
      );
    for (const member of a.enum.set)
      if (!b.enum.set.has(member))
        this.emit('schema/enum-removed', `${label} no longer admits ${member}`, before, after, member);
    for (const member of b.enum.set)
      if (!a.enum.set.has(member))
        this.emit('schema/enum-added', `${label} now admits ${member}`, before, after, member);
  }

  private compareBounds(a: View, b: View, label: string): void {
    const check = (
      keyword: string,
      was: { value: number; where: Node } | undefined,
      is: { value: number; where: Node } | undefined,
      tighter: (was: number, is: number) => boolean,
    ) => {
      if (was?.value === is?.value) return;
      const before = was ? place(was.where, keyword) : place(ownerOf(a));
      const after = is ? place(is.where, keyword) : place(ownerOf(b));
      const tightened = !was ? true : !is ? false : tighter(was.value, is.value);
      this.emit(
        tightened ? 'schema/constraint-tightened' : 'schema/constraint-relaxed',
        `${label} ${keyword} ${was ? was.value : '(none)'} → ${is ? is.value : '(none)'}`,
        before,
        after,
        keyword,
      );
    };
    for (const keyword of LOWER_BOUNDS)
      check(keyword, a.lower.get(keyword), b.lower.get(keyword), (was, is) => is > was);
    for (const keyword of UPPER_BOUNDS)
      check(keyword, a.upper.get(keyword), b.upper.get(keyword), (was, is) => is < was);
  }

  /** Two lists of subschemas applying to the same part of an instance; one side may have none. */
  private compareLists(
    was: Node[] | undefined,
    is: Node[] | undefined,
    a: View,
    b: View,
    keyword: string,
    route: string,
    label: string,
  ): void {
    const real = (nodes: Node[] | undefined, set: SchemaSet) =>
      (nodes ?? []).filter((node) => set.canonical(node) !== '{}' && set.canonical(node) !== 'true');
    const oldNodes = real(was, this.before);
    const newNodes = real(is, this.after);
    if (oldNodes.length === 0 && newNodes.length === 0) return;
    if (oldNodes.length === 0)
      return this.emit(
        'schema/constraint-tightened',
        `${label} now constrains ${keyword}`,
        place(ownerOf(a)),
        place(newNodes[0] as Node),
        route,
      );
    if (newNodes.length === 0)
      return this.emit(
        'schema/constraint-relaxed',
        `${label} no longer constrains ${keyword}`,
        place(oldNodes[0] as Node),
        place(ownerOf(b)),
        route,
      );
    this.compare(oldNodes, newNodes, route);
  }

  /**
   * Conditions that select on one property's value (`if: {required: [type], properties: {type:
   * {enum: [...]}}}`, as a registry-generated dispatch writes them) are compared value by value:
   * each value's constraints, however the conditions are grouped and nested, against the same
   * value's in the other release. A value only one release binds is a change only when the other
   * release admits that value at all: a binding for a type the old schema rejected anyway
   * constrains nothing that was valid, and belongs to the addition of the type, reported once
   * where the type itself is. Other conditions are matched by their `if`.
   */
  private compareConditionals(a: View, b: View, route: string, label: string): void {
    const oldDispatch = this.dispatch(this.before, a.conditionals);
    const newDispatch = this.dispatch(this.after, b.conditionals);
    for (const property of new Set([...oldDispatch.byValue.keys(), ...newDispatch.byValue.keys()])) {
      const olds = oldDispatch.byValue.get(property) ?? new Map<string, Node[]>();
      const news = newDispatch.byValue.get(property) ?? new Map<string, Node[]>();
      for (const value of [...new Set([...olds.keys(), ...news.keys()])].sort()) {
        const was = olds.get(value);
        const is = news.get(value);
        // Bound on one side only, for a value the other side rejects: nothing valid changed.
        if (!was && admits(this.before, a, property, value) === false) continue;
        if (!is && admits(this.after, b, property, value) === false) continue;
        this.compareLists(
          was,
          is,
          a,
          b,
          `what applies when ${property} is ${value}`,
          `${route} (when ${property} is ${value})`,
          label,
        );
      }
    }
    this.compareOtherConditionals(oldDispatch.others, newDispatch.others, a, b, route, label);
  }

  /** Spreads selector conditions (nested ones included) into the constraints each value gets. */
  private dispatch(
    set: SchemaSet,
    conditionals: View['conditionals'],
  ): { byValue: Map<string, Map<string, Node[]>>; others: View['conditionals'] } {
    const byValue = new Map<string, Map<string, Node[]>>();
    const others: View['conditionals'] = [];
    const spread = (property: string, values: readonly string[], then: Node, depth: number) => {
      const inner = this.view(set, [then]);
      const nested = inner.conditionals.map((conditional) => ({ conditional, selector: selectorOf(conditional.if) }));
      const pure =
        depth < 8 &&
        inner.parts.every(
          (part) =>
            isObject(part.value) &&
            Object.keys(part.value).every((keyword) => DISPATCH_KEYWORDS.has(keyword) || isAnnotation(keyword)),
        );
      if (
        pure &&
        nested.length > 0 &&
        nested.every(
          ({ conditional, selector }) => selector?.property === property && !conditional.else && conditional.then,
        )
      ) {
        for (const { conditional, selector } of nested)
          spread(
            property,
            (selector?.values ?? []).filter((value) => values.includes(value)),
            conditional.then as Node,
            depth + 1,
          );
        return;
      }
      const map = byValue.get(property) ?? new Map<string, Node[]>();
      byValue.set(property, map);
      for (const value of values) map.set(value, [...(map.get(value) ?? []), then]);
    };
    for (const conditional of conditionals) {
      const selector = selectorOf(conditional.if);
      if (!selector || conditional.else) others.push(conditional);
      else if (conditional.then) spread(selector.property, selector.values, conditional.then, 0);
    }
    return { byValue, others };
  }

  private compareOtherConditionals(
    oldList: View['conditionals'],
    newList: View['conditionals'],
    a: View,
    b: View,
    route: string,
    label: string,
  ): void {
    const keyed = (list: View['conditionals'], set: SchemaSet) => {
      const map = new Map<string, View['conditionals']>();
      for (const conditional of list) {
        const key = set.canonical(conditional.if);
        map.set(key, [...(map.get(key) ?? []), conditional]);
      }
      return map;
    };
    const oldByIf = keyed(oldList, this.before);
    const newByIf = keyed(newList, this.after);
    for (const [key, olds] of oldByIf) {
      const news = newByIf.get(key);
      const first = olds[0] as View['conditionals'][number];
      const when = `${route} (when ${describeIf(first.if)})`;
      if (!news) {
        this.emit(
          'schema/constraint-relaxed',
          `${label}: the condition when ${describeIf(first.if)} was removed`,
          place(first.owner, 'if'),
          place(ownerOf(b)),
          key,
        );
        continue;
      }
      const branch = (list: View['conditionals'], which: 'then' | 'else') =>
        list.map((entry) => entry[which]).filter((node): node is Node => node !== undefined);
      this.compareLists(branch(olds, 'then'), branch(news, 'then'), a, b, 'then', when, label);
      this.compareLists(
        branch(olds, 'else'),
        branch(news, 'else'),
        a,
        b,
        'else',
        `${route} (unless ${describeIf(first.if)})`,
        label,
      );
    }
    for (const [key, news] of newByIf) {
      if (oldByIf.has(key)) continue;
      const first = news[0] as View['conditionals'][number];
      this.emit(
        'schema/constraint-tightened',
        `${label} gained a condition: when ${describeIf(first.if)}`,
        place(ownerOf(a)),
        place(first.owner, 'if'),
        key,
      );
    }
  }

  private compareDisjunctions(a: View, b: View, route: string, label: string): void {
    for (const keyword of ['anyOf', 'oneOf'] as const) {
      const olds = a.disjunctions.filter((group) => group.keyword === keyword);
      const news = b.disjunctions.filter((group) => group.keyword === keyword);
      const count = Math.max(olds.length, news.length);
      for (let g = 0; g < count; g++) {
        const was = olds[g];
        const is = news[g];
        if (!was && is) {
          this.emit(
            'schema/constraint-tightened',
            `${label} gained a ${keyword} of ${is.branches.length}`,
            place(ownerOf(a)),
            place(is.owner, keyword),
          );
          continue;
        }
        if (was && !is) {
          this.emit(
            'schema/constraint-relaxed',
            `${label} lost its ${keyword} of ${was.branches.length}`,
            place(was.owner, keyword),
            place(ownerOf(b)),
          );
          continue;
        }
        if (!was || !is) continue;
        // Branches equal after resolution pair first, whatever their order; the rest in order.
        const newKeys = is.branches.map((node) => this.after.canonical(node));
        const unmatchedNew = new Set(is.branches.map((_, i) => i));
        const unmatchedOld: number[] = [];
        was.branches.forEach((node, i) => {
          const key = this.before.canonical(node);
          const j = newKeys.findIndex((candidate, index) => candidate === key && unmatchedNew.has(index));
          if (j === -1) unmatchedOld.push(i);
          else unmatchedNew.delete(j);
        });
        const rest = [...unmatchedNew];
        unmatchedOld.forEach((i, n) => {
          const j = rest[n];
          const oldBranch = was.branches[i] as Node;
          if (j === undefined)
            this.emit(
              'schema/variant-removed',
              `${label} ${keyword} lost a branch`,
              place(oldBranch),
              place(is.owner, keyword),
            );
          else this.compare([oldBranch], [is.branches[j] as Node], `${route} (${keyword} branch ${j})`);
        });
        for (const j of rest.slice(unmatchedOld.length))
          this.emit(
            'schema/variant-added',
            `${label} ${keyword} gained a branch`,
            place(was.owner, keyword),
            place(is.branches[j] as Node),
          );
      }
    }
  }

  private compareNegations(a: View, b: View, label: string): void {
    const oldKeys = new Map(a.negations.map((node) => [this.before.canonical(node), node]));
    const newKeys = new Map(b.negations.map((node) => [this.after.canonical(node), node]));
    for (const [key, node] of oldKeys)
      if (!newKeys.has(key))
        this.emit(
          'schema/constraint-relaxed',
          `${label} no longer excludes what its former \`not\` matched`,
          place(node),
          place(ownerOf(b)),
        );
    for (const [key, node] of newKeys)
      if (!oldKeys.has(key))
        this.emit(
          'schema/constraint-tightened',
          `${label} now excludes what its \`not\` matches`,
          place(ownerOf(a)),
          place(node),
        );
  }
}

/**
 * The subschema that stands for a conjunction as a place: the first part that says something
 * of its own, not a mere `$ref` or `allOf` to others, so that a change reached through several
 * references has one place and is reported once.
 */
function ownerOf(view: View): Node {
  const own = view.parts.find(
    (part) =>
      isObject(part.value) &&
      Object.keys(part.value).some((keyword) => keyword !== '$ref' && keyword !== 'allOf' && !isAnnotation(keyword)),
  );
  return own ?? (view.parts[0] as Node);
}

function enumKeyword(node: Node): string {
  return isObject(node.value) && 'const' in node.value ? 'const' : 'enum';
}

/** Keywords a node may carry and still be only a holder of conditions (a dispatch group). */
const DISPATCH_KEYWORDS = new Set(['allOf', '$ref', 'if', 'then', '$defs', 'definitions']);

/**
 * The property and values an `if` selects on, when it is nothing else: an object that has the
 * property and whose value is a const or one of an enum. Values are in JCS form.
 */
function selectorOf(node: Node): { property: string; values: string[] } | undefined {
  const value = node.value;
  if (!isObject(value) || !isObject(value.properties)) return undefined;
  const names = Object.keys(value.properties);
  if (names.length !== 1) return undefined;
  const property = names[0] as string;
  if (
    Object.keys(value).some(
      (keyword) => !['type', 'required', 'properties'].includes(keyword) && !isAnnotation(keyword),
    )
  )
    return undefined;
  if (value.type !== undefined && value.type !== 'object') return undefined;
  if (
    !Array.isArray(value.required) ||
    !value.required.includes(property) ||
    value.required.some((name) => name !== property)
  )
    return undefined;
  const schema = value.properties[property];
  if (
    !isObject(schema) ||
    Object.keys(schema).some((keyword) => keyword !== 'const' && keyword !== 'enum' && !isAnnotation(keyword))
  )
    return undefined;
  if ('const' in schema) return { property, values: [jcs(schema.const)] };
  return Array.isArray(schema.enum) ? { property, values: schema.enum.map((member) => jcs(member)) } : undefined;
}

/**
 * Whether the schema seen in `view` admits `value` (JCS) for `property`: false only when it
 * certainly rejects it, undefined when it cannot tell (a keyword this reading does not evaluate).
 */
function admits(set: SchemaSet, view: View, property: string, value: string): boolean | undefined {
  const nodes = view.properties.get(property);
  if (!nodes) return view.closed ? false : undefined;
  const instance: unknown = JSON.parse(value);
  let unknown = false;
  for (const node of nodes) {
    const verdict = satisfies(set, node, instance, 0);
    if (verdict === false) return false;
    if (verdict === undefined) unknown = true;
  }
  return unknown ? undefined : true;
}

/** A small evaluator of the keywords that decide whether a scalar value is admitted. */
function satisfies(set: SchemaSet, node: Node, instance: unknown, depth: number): boolean | undefined {
  const schema = node.value;
  if (schema === true) return true;
  if (schema === false) return false;
  if (!isObject(schema) || depth > 32) return undefined;
  let unknown = false;
  const all = (verdicts: Array<boolean | undefined>): boolean => {
    if (verdicts.includes(false)) return false;
    if (verdicts.includes(undefined)) unknown = true;
    return true;
  };
  const sub = (keyword: string, index?: number) =>
    satisfies(
      set,
      (index === undefined ? child(node, keyword) : child(node, keyword, index)) as Node,
      instance,
      depth + 1,
    );
  if ('const' in schema && jcs(schema.const) !== jcs(instance)) return false;
  if (Array.isArray(schema.enum) && !schema.enum.some((member) => jcs(member) === jcs(instance))) return false;
  const types = typeof schema.type === 'string' ? [schema.type] : Array.isArray(schema.type) ? schema.type : undefined;
  if (types && !types.some((type) => hasType(instance, type))) return false;
  if (typeof instance === 'string') {
    const length = [...instance].length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) return false;
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return false;
    if (typeof schema.pattern === 'string') {
      try {
        if (!new RegExp(schema.pattern, 'u').test(instance)) return false;
      } catch {
        unknown = true;
      }
    }
  }
  if (typeof schema.$ref === 'string') {
    const target = set.resolve(schema.$ref, node.base);
    if (!target || !all([satisfies(set, target, instance, depth + 1)])) {
      if (!target) unknown = true;
      else return false;
    }
  }
  if (Array.isArray(schema.allOf) && !all(schema.allOf.map((_, i) => sub('allOf', i)))) return false;
  if (Array.isArray(schema.anyOf)) {
    const verdicts = schema.anyOf.map((_, i) => sub('anyOf', i));
    if (!verdicts.includes(true)) {
      if (verdicts.includes(undefined)) unknown = true;
      else return false;
    }
  }
  if (Array.isArray(schema.oneOf)) {
    const verdicts = schema.oneOf.map((_, i) => sub('oneOf', i));
    if (verdicts.includes(undefined)) unknown = true;
    else if (verdicts.filter((verdict) => verdict === true).length !== 1) return false;
  }
  if (schema.not !== undefined) {
    const verdict = sub('not');
    if (verdict === true) return false;
    if (verdict === undefined) unknown = true;
  }
  if (schema.if !== undefined) unknown = true;
  return unknown ? undefined : true;
}

function hasType(instance: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof instance === 'string';
    case 'number':
      return typeof instance === 'number';
    case 'integer':
      return Number.isInteger(instance);
    case 'boolean':
      return typeof instance === 'boolean';
    case 'null':
      return instance === null;
    case 'array':
      return Array.isArray(instance);
    case 'object':
      return isObject(instance);
    default:
      return true;
  }
}

/** A short reading of a condition: `type is "a.b"`, else its place. */
function describeIf(node: Node): string {
  const value = node.value;
  if (isObject(value) && isObject(value.properties)) {
    const entries = Object.entries(value.properties).filter(
      ([, schema]) => isObject(schema) && ('const' in schema || Array.isArray(schema.enum)),
    );
    if (entries.length === 1) {
      const [name, schema] = entries[0] as [string, Record<string, unknown>];
      if ('const' in schema) return `${name} is ${JSON.stringify(schema.const)}`;
      const members = schema.enum as unknown[];
      return members.length <= 3
        ? `${name} is one of ${members.map((member) => JSON.stringify(member)).join(', ')}`
        : `${name} is one of ${members.length} values`;
    }
  }
  return placeKey(node);
}

/** A release's schemas, and its API documents (which use them). */
export interface SchemaRelease {
  schemas: ReadonlyMap<string, unknown>;
  api: ReadonlyMap<string, unknown>;
}

/**
 * Compares the schemas two releases both hold: first where the API documents of `apiFiles` use
 * them (request bodies, parameters, responses, message payloads, paired by operation), then the
 * roots of the schema `files`, then what of their `$defs` nothing compared so far used. Each
 * change is then judged by its direction (see `levelOf`).
 */
export function compareSchemaSets(
  before: SchemaRelease,
  after: SchemaRelease,
  files: Iterable<string>,
  apiFiles: Iterable<string> = [],
): SchemaChange[] {
  const oldSet = new SchemaSet(new Map([...before.schemas, ...before.api]));
  const newSet = new SchemaSet(new Map([...after.schemas, ...after.api]));
  const comparison = new SchemaComparison(oldSet, newSet);
  const oldEntries = entriesOf(before.api);
  const newEntries = entriesOf(after.api);
  const oldByKey = new Map(oldEntries.map((entry) => [entry.key, entry]));
  const changedApi = new Set(apiFiles);
  for (const entry of newEntries) {
    const old = oldByKey.get(entry.key);
    if (old && changedApi.has(entry.file)) comparison.compareEntry(old, entry, entry.key);
  }
  const list = [...files];
  for (const file of list) comparison.compareRoot(file);
  for (const file of list) comparison.compareDefinitions(file);
  const oldFlows = flowMarks(oldSet, oldEntries);
  const newFlows = flowMarks(newSet, newEntries);
  for (const change of comparison.changes) {
    const flows = new Set([...flowsAt(oldFlows, change.before), ...flowsAt(newFlows, change.after)]);
    change.direction = flows.size === 0 ? 'unknown' : flows.size === 2 ? 'both' : ([...flows][0] as Flow);
    change.level = levelOf(change.rule, change.direction);
  }
  return comparison.changes;
}

function entriesOf(api: ReadonlyMap<string, unknown>): ApiSchemaEntry[] {
  return [...api].flatMap(([file, document]) => apiSchemaEntries(file, document));
}

/**
 * How each schema change reads in each direction. A client's request that tightens is a
 * request some client already sends and a host now rejects; a host's response that loosens is
 * a value some client must now accept. The protocol's growth rule (overview.md §0: a consumer
 * accepts a registered member it does not recognize and ignores what it does not understand)
 * makes a new enum member, a new property, an opened object and a new variant additive for
 * readers of responses too; a member is never deleted within a major, so a removal is breaking
 * in either direction.
 */
export const DIRECTIONAL_LEVELS: Record<string, { request: Level; response: Level }> = {
  'schema/property-removed': { request: 'breaking', response: 'breaking' },
  'schema/property-added': { request: 'additive', response: 'additive' },
  'schema/required-added': { request: 'breaking', response: 'additive' },
  'schema/required-removed': { request: 'additive', response: 'breaking' },
  'schema/closed': { request: 'breaking', response: 'additive' },
  'schema/opened': { request: 'additive', response: 'additive' },
  'schema/enum-removed': { request: 'breaking', response: 'breaking' },
  'schema/enum-added': { request: 'additive', response: 'additive' },
  'schema/type-changed': { request: 'breaking', response: 'breaking' },
  'schema/type-widened': { request: 'additive', response: 'breaking' },
  'schema/variant-removed': { request: 'breaking', response: 'breaking' },
  'schema/variant-added': { request: 'additive', response: 'additive' },
  'schema/constraint-tightened': { request: 'breaking', response: 'additive' },
  'schema/constraint-relaxed': { request: 'additive', response: 'breaking' },
};

const SEVERITY: Record<Level, number> = { editorial: 0, additive: 1, breaking: 2 };

/**
 * The impact of a schema change in its direction; used in both, the worse of the two. A schema
 * no API entry point uses (a document format, a pack manifest) is read as what its reader
 * validates and accepts: the request reading, where what rejects more is breaking.
 */
function levelOf(rule: string, direction: Direction): Level {
  const levels = DIRECTIONAL_LEVELS[rule];
  if (!levels) return SCHEMA_RULES[rule]?.level ?? 'breaking';
  if (direction === 'unknown') return levels.request;
  if (direction !== 'both') return levels[direction];
  return SEVERITY[levels.request] >= SEVERITY[levels.response] ? levels.request : levels.response;
}

/** Every subschema reachable from the API entry points, with the directions it is reached in. */
function flowMarks(set: SchemaSet, entries: readonly ApiSchemaEntry[]): Map<string, Set<Flow>> {
  const marks = new Map<string, Set<Flow>>();
  const visit = (node: Node, flow: Flow) => {
    const key = placeKey(node);
    const held = marks.get(key) ?? new Set<Flow>();
    if (held.has(flow)) return;
    held.add(flow);
    marks.set(key, held);
    const value = node.value;
    if (!isObject(value)) return;
    if (typeof value.$ref === 'string') {
      const target = set.resolve(value.$ref, node.base);
      if (target) visit(target, flow);
    }
    for (const [keyword, sub] of Object.entries(value)) {
      // `$defs` are reached through the references that use them, not because their document is.
      if (SCHEMA_MAPS.has(keyword) && keyword !== '$defs' && keyword !== 'definitions' && isObject(sub))
        for (const name of Object.keys(sub)) visit(child(node, keyword, name) as Node, flow);
      else if (SCHEMA_LISTS.has(keyword) && Array.isArray(sub))
        sub.forEach((_, i) => visit(child(node, keyword, i) as Node, flow));
      else if (SCHEMA_SINGLES.has(keyword)) visit(child(node, keyword) as Node, flow);
    }
  };
  for (const entry of entries) {
    const node = set.at(entry);
    if (node) visit(node, entry.flow);
  }
  return marks;
}

/** The directions of the nearest marked subschema at or above a place. */
function flowsAt(marks: ReadonlyMap<string, Set<Flow>>, where: SchemaPlace | undefined): Set<Flow> {
  if (!where) return new Set();
  for (let length = where.at.length; length >= 0; length--) {
    const held = marks.get(placeKey({ value: undefined, file: where.file, at: where.at.slice(0, length), base: '' }));
    if (held) return held;
  }
  return new Set();
}
