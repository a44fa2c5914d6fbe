import type { ValidateFunction } from 'ajv';
import { type MarkdownFile,examplePlans,strayAnnotations,type ExampleAnnotation,hasPointer } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { corpusSchemas, describeSchemaError, locateSchemaError, type CorpusSchemas } from '../../core/schemas/index.js';
import type { MarkdownCodeBlock } from '../../core/markdown/index.js';
import { closest } from '../../core/output/index.js';

export default defineCheck({
  id: 'docs/examples',
  summary: 'A fenced example annotated <!-- example: schema[#pointer] --> validates against that schema; an unannotated json block is a warning',
  severity: 'error',
  messages: {
    unannotated: 'a json example with no <!-- example: … --> annotation; nothing checks it against a schema',
    'not-data': 'the example annotation sits on a `{{lang}}` block; only json, jsonc and yaml examples are validated',
    unparsable: 'the example is not valid {{lang}}: {{problem}}',
    invalid: 'the example does not match {{target}}: {{error}}',
    'no-block': 'an example annotation that no fenced block follows',
    'unknown-schema': 'the example names {{target}}, which is not a schema of this corpus',
    'no-pointer': '{{schema}} has nothing at #{{pointer}}',
    'schema-does-not-compile': '{{target}} does not compile, so the example cannot be checked: {{problem}}',
  },
  run(corpus, report) {
    const files = corpus.markdownFiles().filter((file) => file.codeBlocks.length > 0 || file.htmlNodes.length > 0);
    if (files.length === 0) return;
    const schemas = corpusSchemas(corpus);
    // The annotation is a convention a corpus adopts; one that annotates no example at all (upstream)
    // has not, and its unannotated blocks are not a gap in coverage it chose.
    const annotates = files.some((file) => examplePlans(file).some((plan) => plan.status !== 'unannotated'));
    for (const file of files) {
      for (const plan of examplePlans(file)) {
        switch (plan.status) {
          case 'unannotated':
            if (!annotates) break;
            report({
              file: file.path,
              line: plan.block.line,
              column: columnOf(plan.block),
              severity: 'warning',
              messageId: 'unannotated',
              hint: 'put <!-- example: schemas/v2/<schema>.schema.json[#/$defs/Name] --> on the line before the fence, or make it jsonc if it is not a complete instance',
            });
            break;
          case 'unreadable':
            report({ ...annotationAt(file, plan.annotation), messageId: 'not-data', data: { lang: plan.block.lang ?? 'plain' }, hint: 'remove the annotation, or fence the example as json' });
            break;
          case 'skipped':
            // Deliberately silent: an elided jsonc sketch documents a shape and claims no instance.
            break;
          case 'validate': {
            const validate = validatorFor(schemas, file, plan.annotation, report);
            if (!validate) break;
            const offset = { line: plan.block.line, column: columnOf(plan.block) - 1 };
            // The positioned parse is left to a finding that needs a place: a valid example never pays for it.
            if (plan.data.problems.length > 0) {
              for (const problem of plan.data.problems) {
                report({ file: file.path, line: offset.line + problem.line, column: offset.column + problem.column, messageId: 'unparsable', data: { lang: plan.block.lang ?? '', problem: problem.message }, hint: `correct the example so that it parses as ${plan.block.lang ?? 'data'}` });
              }
              break;
            }
            if (validate(plan.data.value)) break;
            for (const error of validate.errors ?? []) {
              const at = locateSchemaError(plan.data, error);
              report({
                file: file.path,
                line: offset.line + at.line,
                column: offset.column + at.column,
                messageId: 'invalid',
                data: { target: target(plan.annotation), error: describeSchemaError(error) },
                hint: 'correct the example, or the annotation if it names the wrong schema',
              });
            }
            break;
          }
        }
      }
      for (const node of strayAnnotations(file)) {
        report({ file: file.path, line: node.position?.start.line ?? 1, column: node.position?.start.column ?? 1, messageId: 'no-block', hint: 'put it on the line directly before the fence it describes' });
      }
    }
  },
});

function validatorFor(schemas: CorpusSchemas, file: MarkdownFile, annotation: ExampleAnnotation, report: Report): ValidateFunction | undefined {
  const at = annotationAt(file, annotation);
  const schemaFile = schemas.files.get(annotation.schema);
  if (!schemaFile || !schemas.idOf(annotation.schema)) {
    const suggestion = closest(annotation.schema, [...schemas.files.keys()]);
    report({ ...at, messageId: 'unknown-schema', data: { target: annotation.schema }, hint: suggestion ? `did you mean ${suggestion}?` : 'name a *.schema.json file by its path from the corpus root' });
    return undefined;
  }
  if (annotation.pointer && !hasPointer(schemaFile.value, annotation.pointer)) {
    report({ ...at, messageId: 'no-pointer', data: { schema: annotation.schema, pointer: annotation.pointer }, hint: 'point at a subschema that exists, such as #/$defs/<Name>' });
    return undefined;
  }
  try {
    return schemas.validator(annotation.schema, annotation.pointer);
  } catch (error) {
    report({ ...at, messageId: 'schema-does-not-compile', data: { target: target(annotation), problem: error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error) }, hint: 'see the schemas/compile finding on that schema' });
    return undefined;
  }
}

function annotationAt(file: MarkdownFile, annotation: ExampleAnnotation) {
  return { file: file.path, line: annotation.node.position?.start.line ?? 1, column: annotation.node.position?.start.column ?? 1 };
}

function target(annotation: ExampleAnnotation): string {
  return `${annotation.schema}${annotation.pointer ? `#${annotation.pointer}` : ''}`;
}

/** The column of the fence: an example inside a list item is indented by the item. */
function columnOf(block: MarkdownCodeBlock): number {
  return block.node.position?.start.column ?? 1;
}
