import { type Corpus, Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import { type Report, closest } from '../../core/output/index.js';
import {
  ID_BINDINGS,
  ID_BINDINGS_SCHEMA,
  IDS_SCHEMA,
  idBindingsRegistry,
  idFields,
  idKinds,
  kindRef,
  kindsReached,
  type IdBindingsRegistry,
  type IdField,
  type IdKind,
  CARRIED_ID_BINDINGS_SCHEMA,
} from '../../core/registries/index.js';
import { REGISTRY_MESSAGES, unworded, schemaGraph, validateRegistry } from '../../core/schemas/index.js';

export default defineCheck({
  id: 'ids/bindings',
  summary:
    'Every *Id / *Ids field of a v2 schema or API document is classified in id-field-bindings.json, and a bound one $refs its kind',
  description:
    'ids.schema.json says what a kind is: the kind an id field (`*Id`) `$ref`s, and one that records who mints it. A `$defs` entry that is neither (upstream\'s `opaque`, the grammar its host-minted kinds share) is a building block, held to nothing a kind is. id-field-bindings.json classifies `*Id` names (its own comment: "every *Id property MUST appear here exactly once"), so a list of ids it does not name (`runIds`) is held to what its singular is: its items $ref the kind `runId` is bound to, and nothing is asked of a list whose singular is recorded in notAKind.',
  severity: 'error',
  messages: {
    ...REGISTRY_MESSAGES,
    'bindings-missing': '{{target}} is missing, so none of the {{count}} id fields of the corpus is classified',
    'kinds-missing': '{{target}} is missing or has no $defs, so no binding can name a kind',
    'unknown-kind': `\`{{field}}\` is bound to \`{{kind}}\`, which is not a kind of ${IDS_SCHEMA}`,
    'bound-and-not-a-kind': '`{{field}}` is both bound to `{{kind}}` and recorded in notAKind',
    'stale-entry': '`{{field}}` names no id field of any v2 schema or API document; the entry is stale',
    'malformed-kind': 'the kind `{{kind}}` has {{problems}}',
    unclassified: `{{field}} is an id field that ${ID_BINDINGS} does not classify`,
    'not-a-kind-refs-kind': '{{field}} is recorded in notAKind, yet it $refs the kind `{{kinds}}`',
    'binding-mismatch': '{{field}} is bound to the kind `{{kind}}`, but {{problem}}',
  },
  run(corpus, report) {
    const fields = idFields(corpus);
    if (!corpus.exists(ID_BINDINGS)) {
      if (fields.length > 0) {
        report({
          file: ID_BINDINGS,
          messageId: 'bindings-missing',
          data: { target: ID_BINDINGS, count: fields.length },
          hint: 'create it: { "bindings": { "<field>": "<kind>" }, "notAKind": { "<field>": "<reason>" } }',
        });
      }
      return;
    }
    for (const finding of validateRegistry(corpus, ID_BINDINGS, ID_BINDINGS_SCHEMA, CARRIED_ID_BINDINGS_SCHEMA))
      report(unworded(finding));
    // Whatever its schema says, the entries that are strings are read and checked.
    const registry = idBindingsRegistry(corpus);
    if (!registry) return;
    const kinds = idKinds(corpus);
    if (!kinds) {
      report({
        file: ID_BINDINGS,
        messageId: 'kinds-missing',
        data: { target: IDS_SCHEMA },
        hint: 'define the kinds of identity.md §5 there',
      });
      return;
    }

    checkKinds(corpus, kinds, report);
    const fieldNames = new Set(fields.map((field) => field.name));
    for (const entry of registry.bindings.values()) {
      if (!kinds.has(entry.value)) {
        const suggestion = closest(entry.value, [...kinds.keys()]);
        report({
          location: Location.pointer(registry.file, entry.path, 'value'),
          messageId: 'unknown-kind',
          data: { field: entry.name, kind: String(entry.value) },
          hint: suggestion ? `did you mean \`${suggestion}\`?` : `bind it to one of ${[...kinds.keys()].join(', ')}`,
        });
      }
      if (registry.notAKind.has(entry.name)) {
        report({
          location: Location.pointer(registry.file, ['notAKind', entry.name]),
          messageId: 'bound-and-not-a-kind',
          data: { field: entry.name, kind: String(entry.value) },
          hint: 'keep exactly one of the two entries',
        });
      }
    }
    // An entry names a field of a schema the corpus may not hold: while a $ref of the corpus leads
    // to a schema that is not there, no entry can be called stale.
    const complete = corpusComplete(corpus);
    for (const entry of [...registry.bindings.values(), ...registry.notAKind.values()]) {
      if (complete && !fieldNames.has(entry.name)) {
        report({
          location: Location.pointer(registry.file, entry.path),
          messageId: 'stale-entry',
          data: { field: entry.name },
          hint: 'remove it, or correct the field name',
        });
      }
    }

    for (const field of fields) checkField(corpus, field, registry, kinds, report);
  },
});

function corpusComplete(corpus: Corpus): boolean {
  const graph = schemaGraph(corpus);
  return [...graph.documents.keys()].every((file) => graph.refs(file).every((ref) => ref.resolved.ok));
}

const MINTERS = ['host', 'author', 'registry'];

/** A kind is a string grammar that says who mints it: what a binding promises a reader. */
function checkKinds(corpus: Corpus, kinds: ReadonlyMap<string, IdKind>, report: Report): void {
  const file = corpus.data(IDS_SCHEMA);
  if (!file) return;
  for (const kind of kinds.values()) {
    const problems = [
      kind.pattern === undefined ? 'no pattern' : undefined,
      kind.minted === undefined || !MINTERS.includes(kind.minted)
        ? `x-openwop-minted ${kind.minted === undefined ? 'missing' : JSON.stringify(kind.minted)} (host, author or registry)`
        : undefined,
    ].filter((problem): problem is string => problem !== undefined);
    if (problems.length === 0) continue;
    report({
      location: Location.pointer(file, kind.path),
      messageId: 'malformed-kind',
      data: { kind: kind.name, problems: problems.join(' and ') },
      hint: 'each kind is { "type": "string", "pattern": …, "x-openwop-minted": "host" | "author" | "registry" } (identity.md §5)',
    });
  }
}

function checkField(
  corpus: Corpus,
  field: IdField,
  registry: IdBindingsRegistry,
  kinds: ReadonlyMap<string, unknown>,
  report: Report,
): void {
  const file = corpus.data(field.file);
  if (!file) return;
  // Worked out when a finding is collected: only a field with a finding needs its position (and the positioned parse behind it).
  const at = Location.pointer(file, field.at, field.kind === 'property' ? 'key' : 'value');
  const what = `${field.kind === 'parameter' ? 'parameter' : 'property'} \`${field.name}\`${field.plural ? ' (a list of ids)' : ''}`;
  // Upstream's registry classifies `*Id` names ("every *Id property MUST appear here exactly once"):
  // a list it does not name is classified by its singular, so `runIds` is held to `runId`'s kind.
  const singular =
    field.plural && !registry.bindings.has(field.name) && !registry.notAKind.has(field.name)
      ? field.name.slice(0, -1)
      : field.name;
  const bound = registry.bindings.get(singular);
  const recorded = registry.notAKind.get(singular);
  const reached = field.schema ? kindsReached(corpus, field.schema, field.plural) : new Set<string>();

  // A name in both maps is reported once, at the map entry; one whose entry cannot be read, by the schema.
  if ((bound && recorded) || registry.unreadable.has(singular)) return;
  if (!bound && !recorded) {
    // A list whose items already $ref one kind has nothing left to decide: the items carry the
    // kind, and the registry classifies `*Id` names, which a list of them is not.
    if (field.plural && reached.size === 1) return;
    report({
      location: at,
      messageId: 'unclassified',
      data: { field: what },
      hint: `classify it: bind it to a kind in \`bindings\` (and $ref ${kindRef(field.file, '<kind>')}), or record why no kind governs it in \`notAKind\``,
    });
    return;
  }
  if (recorded) {
    if (reached.size > 0) {
      report({
        location: at,
        messageId: 'not-a-kind-refs-kind',
        data: { field: what, kinds: [...reached].sort().join('`, `') },
        hint: `move \`${singular}\` to \`bindings\` in ${ID_BINDINGS}`,
      });
    }
    return;
  }
  if (!bound || !kinds.has(bound.value) || reached.has(bound.value)) return;
  const ref = kindRef(field.file, bound.value);
  const subject = field.plural ? 'its items' : 'its schema';
  let problem: string;
  if (!field.schema) problem = 'it has no schema';
  else if (reached.size > 0)
    problem = `${subject} $ref${field.plural ? '' : 's'} \`${[...reached].sort().join('`, `')}\` instead`;
  else problem = `${subject} ${field.plural ? 'do' : 'does'} not $ref it`;
  report({
    location: at,
    messageId: 'binding-mismatch',
    data: { field: what, kind: String(bound.value), problem },
    hint: field.plural ? `give it "items": { "$ref": "${ref}" }` : `make its schema { "$ref": "${ref}" }`,
  });
}
