/** JSON Schema in the corpus: identifiers, walking subschemas and $ref targets, cycles, and compiling them with ajv in batches. */
export { type CompileFailure, type CompileTarget, compileFailures, compileThreadAvailable, startCompiling } from './compile.js';
export { refCycles } from './cycles.js';
export { type CorpusSchemas, REGISTRY_MESSAGES, type SchemaIds, corpusSchemas, describeSchemaError, expectedSchemaId, instancePathSegments, isSchemaPath, locateSchemaError, schemaPathsOfId, unworded, validateRegistry } from './json-schema.js';
export { IN_PLACE_LISTS, type SchemaLocation, isApiDocument, pointerSegments, refsOf, resolveUri, schemaGraph, valueAt, walkSchema } from './walk.js';
