import { ASYNCAPI_PATH, describeOperation, isRecord, openApiModel, siteLocation, type OperationView } from '../../core/api/index.js';
import { type Corpus, type DataFile, Location, type PathSegment } from '../../core/model/index.js';
import type { Report } from '../../core/output/index.js';
import { defineCheck } from '../../core/run/index.js';
import { REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';
import { scopeVocabulary, SCOPES_PATH } from '../../core/registries/index.js';

export default defineCheck({
  id: 'api/security',
  summary: 'Every security scheme an API document names is defined; each operation is public (security: []) or names every scheme with the same scopes; every scope is in the scope vocabulary',
  severity: 'error',
  messages: {
    'undefined-scheme': 'security requirement names `{{scheme}}`, which components.securitySchemes does not define',
    'undefined-scheme-ref': 'security names {{scheme}}, which components.securitySchemes does not define',
    'partial-schemes': '{{operation}} requires {{required}} but not {{missing}}; an operation is public or accepts every scheme',
    'partial-schemes-inherited': '{{operation}} requires {{required}} but not {{missing}} (through the document-level security); an operation is public or accepts every scheme',
    'different-scopes': '{{operation}} asks different scopes of different schemes ({{scopes}})',
    'different-scopes-inherited': '{{operation}} asks different scopes of different schemes ({{scopes}}) (through the document-level security)',
    'unknown-scope': 'scope `{{scope}}` is not in the scope vocabulary {{target}}',
    ...REGISTRY_MESSAGES,
  },
  options: {
    vocabulary: { type: 'string', default: SCOPES_PATH, description: 'the registry of scopes an operation may require' },
  },
  run(corpus, report, { options }) {
    const model = openApiModel(corpus);
    if (!model) return; // corpus/parse and api/valid say why
    const root = isRecord(model.file.value) ? model.file.value : {};
    const schemes = definedSchemes(root);
    const used: Array<{ scope: string; at: Location }> = [];

    checkRequirements(model.file, ['security'], root.security, schemes, report);
    for (const operation of model.operations) {
      const own = Array.isArray(operation.value.security);
      const path: PathSegment[] = own ? [...operation.site.segments, 'security'] : ['security'];
      if (own) checkRequirements(model.file, path, operation.value.security, schemes, report);
      checkOperation(model.file, operation, path, own, schemes, report);
      operation.security.forEach((requirement, index) => {
        if (!isRecord(requirement)) return;
        for (const [name, scopes] of Object.entries(requirement)) {
          if (!Array.isArray(scopes)) continue;
          scopes.forEach((scope, at) => {
            if (typeof scope === 'string') used.push({ scope, at: Location.pointer(model.file, [...path, index, name, at], 'value') });
          });
        }
      });
    }
    checkAsyncApi(corpus, report);
    checkVocabulary(corpus, options.vocabulary as string, used, report);
  },
});

function definedSchemes(root: Record<string, unknown>): Set<string> {
  const components = isRecord(root.components) ? root.components : {};
  return new Set(isRecord(components.securitySchemes) ? Object.keys(components.securitySchemes) : []);
}

/** Each requirement names only defined schemes (OpenAPI: by name, in components.securitySchemes). */
function checkRequirements(file: DataFile, path: PathSegment[], requirements: unknown, schemes: ReadonlySet<string>, report: Report): void {
  if (!Array.isArray(requirements)) return;
  requirements.forEach((requirement, index) => {
    if (!isRecord(requirement)) return;
    for (const name of Object.keys(requirement)) {
      if (schemes.has(name)) continue;
      report({
        location: Location.pointer(file, [...path, index, name], 'key'),
        messageId: 'undefined-scheme',
        data: { scheme: name },
        hint: schemes.size > 0 ? `use one of ${[...schemes].map((s) => `\`${s}\``).join(', ')}, or define \`${name}\`` : `define \`${name}\` under components.securitySchemes`,
      });
    }
  });
}

/**
 * An operation is public (`security: []`) or accepts every scheme the API defines, each with the
 * same scopes: a scheme left out, or a scope list that differs between schemes, grants different
 * rights to the same caller depending on how it authenticates.
 */
function checkOperation(file: DataFile, operation: OperationView, path: PathSegment[], own: boolean, schemes: ReadonlySet<string>, report: Report): void {
  const requirements = operation.security.filter(isRecord);
  if (operation.security.length === 0) return;
  // An empty requirement `{}` makes the credential optional: whether that is meant cannot be told here.
  if (requirements.some((requirement) => Object.keys(requirement).length === 0)) return;
  const place = own ? Location.pointer(file, path, 'key') : siteLocation(operation.site);
  const inherited = own ? '' : '-inherited';
  const named = new Map<string, string[]>();
  for (const requirement of requirements) {
    for (const [name, scopes] of Object.entries(requirement)) {
      if (!schemes.has(name)) continue; // reported as undefined
      const list = Array.isArray(scopes) ? scopes.filter((s): s is string => typeof s === 'string').sort() : [];
      const before = named.get(name);
      named.set(name, before ? [...new Set([...before, ...list])].sort() : list);
    }
  }
  const missing = [...schemes].filter((scheme) => !named.has(scheme));
  if (missing.length > 0 && named.size > 0) {
    report({
      location: place,
      messageId: `partial-schemes${inherited}`,
      data: { operation: describeOperation(operation), required: [...named.keys()].map((n) => `\`${n}\``).join(', '), missing: missing.map((n) => `\`${n}\``).join(', ') },
      hint: `add ${missing.map((n) => `{ ${n}: [${(named.values().next().value ?? []).join(', ')}] }`).join(' and ')}, or make it public with security: []`,
    });
  }
  const distinct = new Set([...named.values()].map((scopes) => scopes.join(' ')));
  if (distinct.size > 1) {
    report({
      location: place,
      messageId: `different-scopes${inherited}`,
      data: { operation: describeOperation(operation), scopes: [...named].map(([n, s]) => `${n}: [${s.join(', ')}]`).join('; ') },
      hint: 'give every scheme the same scope list: the right an operation needs does not depend on how the caller authenticated',
    });
  }
}

/** AsyncAPI 3 names schemes by `$ref`; each one points at a defined scheme. */
function checkAsyncApi(corpus: Corpus, report: Report): void {
  const file = corpus.data(ASYNCAPI_PATH);
  if (!file || !isRecord(file.value)) return;
  const root = file.value;
  const schemes = definedSchemes(root);
  const visit = (value: unknown, path: PathSegment[]): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => visit(item, [...path, index]));
      return;
    }
    if (!isRecord(value)) return;
    if (Array.isArray(value.security)) {
      value.security.forEach((entry, index) => {
        const ref = isRecord(entry) && typeof entry.$ref === 'string' ? entry.$ref : undefined;
        const match = ref ? /^#\/components\/securitySchemes\/([^/]+)$/.exec(ref) : null;
        if (!ref || (match && schemes.has(decodeURIComponent(match[1] ?? '')))) return;
        if (!match) return; // an external scheme is resolved by api/valid
        report({
          location: Location.pointer(file, [...path, 'security', index, '$ref'], 'value'),
          messageId: 'undefined-scheme-ref',
          data: { scheme: ref },
          hint: schemes.size > 0 ? `point it at one of ${[...schemes].map((s) => `#/components/securitySchemes/${s}`).join(', ')}` : 'define the scheme under components.securitySchemes',
        });
      });
    }
    for (const [key, child] of Object.entries(value)) if (key !== 'security' && key !== 'components') visit(child, [...path, key]);
  };
  visit(root, []);
}

function checkVocabulary(
  corpus: Corpus,
  path: string,
  used: ReadonlyArray<{ scope: string; at: Location }>,
  report: Report,
): void {
  const schema = path.replace(/\.json$/, '.schema.json');
  if (corpus.data(schema)) {
    const invalid = validateRegistry(corpus, path, schema);
    for (const finding of invalid) report({ ...unworded(finding), hint: 'fix the vocabulary so that it matches its schema; scopes are not checked until it does' });
    if (invalid.length > 0) return;
  }
  const vocabulary = scopeVocabulary(corpus, path);
  // A corpus without a vocabulary (upstream keeps its scopes as prose in a scheme description)
  // gives nothing to judge a scope against, and no sign that it should have one.
  if (!vocabulary) return;
  const known = new Set(vocabulary.scopes.map((entry) => entry.scope));
  for (const { scope, at } of used) {
    if (known.has(scope)) continue;
    report({ location: at, messageId: 'unknown-scope', data: { scope, target: path }, hint: `register \`${scope}\` in ${path}, or use a registered scope` });
  }
}
