import type { Corpus, DataFile, PathSegment } from '../../core/model/index.js';
import { isObject, Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { DECLARATION_PATH, declarationFamilies, vendorOrgs } from '../../core/registries/index.js';
import { IN_PLACE_LISTS, isSchemaPath, schemaGraph, valueAt, walkSchema } from '../../core/schemas/index.js';

const DECLARATION_SCHEMA = 'spec/v2/declaration.schema.json';

export default defineCheck({
  id: 'schemas/closure',
  summary: 'Every object schema under schemas/v2 says whether it is open (additionalProperties or unevaluatedProperties); the named roots are closed; patternProperties use the vendor grammar of the declaration; no capability family record carries `supported`',
  severity: 'error',
  messages: {
    'open-by-default': 'the object schema at {{pointer}} says neither additionalProperties nor unevaluatedProperties, so whether it is closed is left to the default (open)',
    'vendor-pattern': 'patternProperties key `{{pattern}}` is not the vendor-extension grammar ({{source}})',
    'closed-root-open': '{{file}} is a closed root, but its root has {{keyword}} {{value}}',
    'closed-root-unsaid': '{{file}} is a closed root, but its root does not say additionalProperties: false',
    'supported-property': 'the `{{family}}` capability record carries a `supported` property; v2 advertises a family by the presence of its record',
  },
  options: {
    paths: { type: 'array', items: { type: 'string' }, default: ['schemas/v2/'], description: 'path prefixes whose object schemas must declare additionalProperties or unevaluatedProperties' },
    closedRoots: {
      type: 'array',
      items: { type: 'string' },
      default: ['schemas/v2/capabilities.schema.json', 'schemas/v2/certification-bundle.schema.json'],
      description: 'schema files whose root must be closed (additionalProperties or unevaluatedProperties false); absent files are skipped',
    },
    patterns: { type: 'array', items: { type: 'string' }, default: [], description: 'patternProperties keys allowed besides the vendor grammar of the declaration' },
    capabilities: { type: 'string', default: 'schemas/v2/capabilities.schema.json', description: 'the capability document whose family records may not carry `supported`' },
    facets: { type: 'string', default: 'spec/v2/facets/', description: 'the folder of facet schemas composed into the capability records' },
  },
  run(corpus, report, { options }) {
    const paths = options.paths as string[];
    const files = corpus.dataFiles().filter((file) => isSchemaPath(file.path) && paths.some((prefix) => file.path.startsWith(prefix)) && isObject(file.value));
    const grammar = vendorGrammar(corpus, options.patterns as string[]);
    // A mixin may live in another file than the schema that uses it, so every schema's references are read first.
    const decided = new Map<string, ReturnType<typeof decidedElsewhere>>();
    for (const file of corpus.dataFiles()) if (isSchemaPath(file.path) && isObject(file.value)) decided.set(file.path, decidedElsewhere(corpus, file));
    const mixins = new Set([...decided.values()].flatMap((entry) => [...entry.mixins]));
    for (const file of files) checkFile(file, grammar, mixins, decided.get(file.path)?.inherits ?? new Set(), report);
    for (const root of options.closedRoots as string[]) checkClosedRoot(corpus.data(root), report);
    checkNoSupported(corpus, options.capabilities as string, options.facets as string, report);
  },
});

interface Grammar {
  allowed: Set<string>;
  /** What the finding names as the source of the allowed patterns. */
  source: string;
}

/**
 * The key grammars a vendor extension may use: the declaration's `org.name` pattern, and the org
 * pattern its schema puts on the org registry's names (a map keyed by org, such as
 * `extensions.<org>`, uses that one). Undefined when the corpus declares neither, so the rule is silent.
 */
function vendorGrammar(corpus: Corpus, extra: readonly string[]): Grammar | undefined {
  const allowed = new Set(extra);
  const key = vendorOrgs(corpus)?.keyPattern;
  if (key) allowed.add(key);
  const org = valueAt(corpus.data(DECLARATION_SCHEMA)?.value, ['properties', 'extensions', 'propertyNames', 'pattern']);
  if (typeof org === 'string') allowed.add(org);
  if (!key && typeof org !== 'string') return extra.length > 0 ? { allowed, source: 'the rule option `patterns`' } : undefined;
  return { allowed, source: `extensionsKeyPattern of ${DECLARATION_PATH}${typeof org === 'string' ? ` or the org pattern of ${DECLARATION_SCHEMA}` : ''}` };
}

/** An object schema: `type: "object"` (alone or with null), or properties with no type at all. */
function isObjectSchema(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  if (type === 'object') return true;
  if (Array.isArray(type)) return type.includes('object') && type.every((member) => member === 'object' || member === 'null');
  return type === undefined && (isObject(schema.properties) || isObject(schema.patternProperties));
}

const declaresOpenness = (schema: Record<string, unknown>): boolean => 'additionalProperties' in schema || 'unevaluatedProperties' in schema;

/** A branch of allOf/anyOf/oneOf whose parent's unevaluatedProperties decides for it. */
function governedByParent(root: unknown, path: readonly PathSegment[]): boolean {
  let at = path;
  while (at.length >= 2 && (IN_PLACE_LISTS as readonly PathSegment[]).includes(at[at.length - 2] as PathSegment) && typeof at[at.length - 1] === 'number') {
    at = at.slice(0, -2);
    const parent = valueAt(root, at);
    if (isObject(parent) && 'unevaluatedProperties' in parent) return true;
  }
  return false;
}

/**
 * Subschemas whose openness is decided elsewhere: the in-place `$ref` target of a schema with
 * unevaluatedProperties (a mixin, which must stay silent or it would evaluate every member), and
 * a schema whose own `$ref` target says it (the closure is inherited).
 */
function decidedElsewhere(corpus: Corpus, file: DataFile): { mixins: Set<string>; inherits: Set<string> } {
  const mixins = new Set<string>();
  const inherits = new Set<string>();
  const graph = schemaGraph(corpus);
  for (const ref of graph.refs(file.path)) {
    if (!ref.resolved.ok || !isObject(ref.resolved.value)) continue;
    const holder = valueAt(file.value, ref.path);
    if (isObject(holder) && ('unevaluatedProperties' in holder || governedByParent(file.value, ref.path))) mixins.add(`${ref.resolved.target.file}#${pointer(ref.resolved.target.path)}`);
    if (declaresOpenness(ref.resolved.value)) inherits.add(pointer(ref.path));
  }
  return { mixins, inherits };
}

function checkFile(file: DataFile, grammar: Grammar | undefined, mixins: ReadonlySet<string>, inherits: ReadonlySet<string>, report: Report): void {
  walkSchema(file.value, [], '', ({ value, path, conditional }) => {
    const decided = () => governedByParent(file.value, path) || inherits.has(pointer(path)) || mixins.has(`${file.path}#${pointer(path)}`);
    if (!conditional && isObjectSchema(value) && !declaresOpenness(value) && !decided()) {
      report({
        location: Location.pointer(file, path.length > 0 ? path : ['type'], 'key'),
        messageId: 'open-by-default',
        data: { pointer: pointer(path) },
        hint: 'add "additionalProperties": false, or "additionalProperties": true where the object is open on purpose',
      });
    }
    if (grammar && isObject(value.patternProperties)) {
      for (const pattern of Object.keys(value.patternProperties)) {
        if (grammar.allowed.has(pattern)) continue;
        report({
          location: Location.pointer(file, [...path, 'patternProperties', pattern], 'key'),
          messageId: 'vendor-pattern',
          data: { pattern, source: grammar.source },
          hint: `key the map with ${[...grammar.allowed].map((p) => `\`${p}\``).join(' or ')}, or name its members in properties`,
        });
      }
    }
  });
}

function checkClosedRoot(file: DataFile | undefined, report: Report): void {
  if (!file || !isObject(file.value)) return;
  const root = file.value;
  if (root.additionalProperties === false || root.unevaluatedProperties === false) return;
  const keyword = 'unevaluatedProperties' in root ? 'unevaluatedProperties' : 'additionalProperties';
  report({
    location: Location.pointer(file, keyword in root ? [keyword] : [], keyword in root ? 'value' : 'key'),
    ...(keyword in root ? { messageId: 'closed-root-open', data: { file: file.path, keyword, value: JSON.stringify(root[keyword]) } } : { messageId: 'closed-root-unsaid', data: { file: file.path } }),
    hint: 'set "additionalProperties": false (or "unevaluatedProperties": false) at the root; a new member is added to properties, not let through',
  });
}

/** v2 advertises a family by the presence of its record, so a `supported` flag in one contradicts it. */
function checkNoSupported(corpus: Corpus, capabilitiesPath: string, facetsFolder: string, report: Report): void {
  const families = new Set((declarationFamilies(corpus) ?? []).filter((family) => family.anchor === 'core').map((family) => family.key));
  const say = (file: DataFile, path: PathSegment[], family: string) =>
    report({
      location: Location.pointer(file, path, 'key'),
      messageId: 'supported-property',
      data: { family },
      hint: 'remove `supported`: a host that does not support the family leaves its record out',
    });
  const capabilities = corpus.data(capabilitiesPath);
  if (capabilities && isObject(capabilities.value) && isObject(capabilities.value.properties)) {
    const graph = schemaGraph(corpus);
    for (const [name, record] of Object.entries(capabilities.value.properties)) {
      if (!families.has(name) || !isObject(record)) continue;
      if (isObject(record.properties) && 'supported' in record.properties) say(capabilities, ['properties', name, 'properties', 'supported'], name);
      // A record that is a $ref into a facet is judged at the facet below; a local one here.
      if (typeof record.$ref === 'string' && record.$ref.startsWith('#')) {
        const target = graph.resolve(capabilities.path, ['properties', name], record.$ref);
        if (target.ok && isObject(target.value) && isObject(target.value.properties) && 'supported' in target.value.properties) {
          say(capabilities, [...target.target.path, 'properties', 'supported'], name);
        }
      }
    }
  }
  for (const family of families) {
    const facet = corpus.data(`${facetsFolder}${family}.schema.json`);
    if (facet && isObject(facet.value) && isObject(facet.value.properties) && 'supported' in facet.value.properties) say(facet, ['properties', 'supported'], family);
  }
}

function pointer(path: readonly PathSegment[]): string {
  return path.length === 0 ? 'the root' : `/${path.map((segment) => String(segment).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

