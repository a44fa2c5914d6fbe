import type { ErrorObject } from 'ajv';
import { collectRefs, follow, isRecord, resolveRef, siteLocation, typedSegments,asyncApiSchema,openApiSchema,publishedAsyncApiVersions,salientErrors,type OfficialSchema,describeOperation,openApiModel } from '../../core/api/index.js';
import type { Corpus, DataFile } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { instancePathSegments } from '../../core/schemas/index.js';
import { Location } from '../../core/model/index.js';

/**
 * Every API document under api/ is valid against the official schema of its kind and version, every
 * `$ref` it writes resolves, and (beyond what those schemas can say) operationIds are unique and
 * every path template variable is a declared path parameter.
 */
export default defineCheck({
  id: 'api/valid',
  summary: 'API documents validate against the official OpenAPI 3.1 / AsyncAPI schemas, every $ref resolves, operationIds are unique',
  severity: 'error',
  messages: {
    'unknown-version': '{{kind}} version "{{version}}" has no published schema to validate against',
    'schema-mismatch': 'does not match {{schema}}: {{error}}',
    'remote-ref': '$ref names a remote document ({{ref}}), which is never fetched, so what it names cannot be checked',
    'unresolved-ref': '$ref does not resolve: {{reason}}',
    'circular-ref': '$ref is circular: {{reason}}',
    'no-operation-id': '{{operation}} has no operationId',
    'duplicate-operation-id': 'operationId {{operationId}} is also the operationId of {{previous}}',
    'undeclared-path-parameter': '{{operation}} does not declare the path parameter {{{parameter}}} its path uses',
    'unused-path-parameter': 'path parameter {{parameter}} does not appear in the path {{path}} of {{operation}}',
  },
  run(corpus, report) {
    for (const file of apiDocuments(corpus)) {
      const root = file.value as Record<string, unknown>;
      if ('openapi' in root) validateAgainst(file, 'openapi', openApiSchema(String(root.openapi), corpus.cacheDir), ['3.1.x'], report);
      else validateAgainst(file, 'asyncapi', asyncApiSchema(String(root.asyncapi), corpus.cacheDir), publishedAsyncApiVersions(), report);
      checkRefs(corpus, file, report);
      if ('openapi' in root) checkOperations(corpus, file, report);
    }
  },
});

/** The OpenAPI and AsyncAPI documents of the corpus: data files under api/ with an `openapi` or `asyncapi` member. */
function apiDocuments(corpus: Corpus): DataFile[] {
  return corpus.dataFiles().filter((file) => file.path.startsWith('api/') && isRecord(file.value) && ('openapi' in file.value || 'asyncapi' in file.value));
}

function validateAgainst(file: DataFile, kind: 'openapi' | 'asyncapi', schema: OfficialSchema | undefined, versions: string[], report: Report): void {
  if (!schema) {
    report({
      location: Location.pointer(file, [kind], 'value'),
      messageId: 'unknown-version',
      data: { kind, version: String((file.value as Record<string, unknown>)[kind]) },
      hint: `use one of: ${versions.join(', ')}`,
    });
    return;
  }
  if (schema.validate(file.value)) return;
  for (const error of salientErrors(schema.validate.errors ?? [])) {
    report({ location: locateError(file, error), messageId: 'schema-mismatch', data: { schema: schema.label, error: describe(error) }, hint: hintFor(error) });
  }
}

/** The property ajv reports as not allowed here (unevaluated or additional), when there is one. */
function extraProperty(error: ErrorObject): string | undefined {
  const extra: unknown = error.params.unevaluatedProperty ?? error.params.additionalProperty;
  return typeof extra === 'string' ? extra : undefined;
}

function locateError(file: DataFile, error: ErrorObject): Location {
  const segments = typedSegments(file.value, instancePathSegments(error.instancePath));
  const extra = extraProperty(error);
  if (extra !== undefined) return Location.pointer(file, [...segments, extra], 'key');
  return Location.pointer(file, segments, segments.length === 0 ? 'value' : 'key');
}

function describe(error: ErrorObject): string {
  const where = error.instancePath || '(root)';
  const extra = extraProperty(error);
  if (extra !== undefined) return `${where}: property "${extra}" is not allowed here`;
  if (error.keyword === 'required') return `${where}: required property "${String(error.params.missingProperty)}" is missing`;
  if (error.keyword === 'enum') return `${where}: must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'const') return `${where}: must be ${JSON.stringify(error.params.allowedValue)}`;
  return `${where}: ${error.message ?? error.keyword}`;
}

function hintFor(error: ErrorObject): string {
  const extra = extraProperty(error);
  if (extra !== undefined) return extra.startsWith('x-') ? 'check the extension name' : 'check the spelling, or move the property where the specification allows it (extensions start with x-)';
  return 'see the specification of this object';
}

function checkRefs(corpus: Corpus, file: DataFile, report: Report): void {
  for (const { site, ref } of collectRefs(file)) {
    const at = siteLocation({ file, segments: [...site.segments, '$ref'] }, 'value');
    const result = resolveRef(corpus, site, ref);
    if (!result.ok) {
      // A remote reference is never fetched, so what it names is never checked: an error unless the config allows it.
      if (result.external && corpus.config.allowRemoteRefs) continue;
      report({
        location: at,
        messageId: result.external ? 'remote-ref' : 'unresolved-ref',
        data: result.external ? { ref } : { ref, reason: result.message },
        hint: result.external ? 'reference a corpus file by a relative path, so the corpus stays self-contained (or set "allowRemoteRefs": true in the config)' : 'fix the path or pointer, or add what it names',
      });
      continue;
    }
    // A chain of bare references that comes back to itself names no value at all.
    const chain = follow(corpus, site, { $ref: ref });
    if (!chain.ok && chain.cycle) report({ location: at, messageId: 'circular-ref', data: { ref, reason: chain.message }, hint: 'point one of the references at an actual object' });
  }
}

function checkOperations(corpus: Corpus, file: DataFile, report: Report): void {
  const model = openApiModel(corpus, file.path);
  if (!model) return;
  const seen = new Map<string, string>();
  const reported = new Set<string>();
  const once = (key: string) => !reported.has(key) && reported.add(key) !== undefined;
  for (const operation of model.operations) {
    if (operation.operationId === undefined) {
      report({ location: siteLocation(operation.site), messageId: 'no-operation-id', data: { operation: describeOperation(operation) }, hint: 'give every operation a unique operationId (SDKs and the path manifest name operations by it)' });
    } else {
      const previous = seen.get(operation.operationId);
      if (previous) {
        report({ location: siteLocation({ file, segments: [...operation.site.segments, 'operationId'] }, 'value'), messageId: 'duplicate-operation-id', data: { operationId: operation.operationId ?? '', previous: String(previous) }, hint: 'operationIds are unique within a document' });
      } else {
        seen.set(operation.operationId, `${operation.method.toUpperCase()} ${operation.path}`);
      }
    }
    const declared = new Set(operation.parameters.filter((p) => p.in === 'path').map((p) => p.name));
    for (const [, variable] of operation.path.matchAll(/\{([^}]+)\}/g)) {
      if (variable && !declared.has(variable)) {
        report({
          location: siteLocation(operation.site),
          messageId: 'undeclared-path-parameter',
          data: { operation: describeOperation(operation), parameter: variable },
          hint: `add a parameter with name: ${variable}, in: path, required: true (at the path item or the operation)`,
        });
      }
    }
    for (const parameter of operation.parameters) {
      if (parameter.in === 'path' && !operation.path.includes(`{${parameter.name}}`) && once(`${parameter.nameAt.line}:${parameter.nameAt.column}:${operation.path}`)) {
        report({ location: parameter.nameAt, messageId: 'unused-path-parameter', data: { operation: describeOperation(operation), parameter: parameter.name, path: operation.path }, hint: 'remove it, or add the variable to the path' });
      }
    }
  }
}
