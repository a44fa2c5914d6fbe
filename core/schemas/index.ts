/** JSON Schema in the corpus: identifiers, walking subschemas and $ref targets, cycles, and compiling them with ajv in batches. */
export * from './compile.js';
export * from './cycles.js';
export * from './json-schema.js';
export * from './walk.js';
