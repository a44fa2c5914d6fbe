import { DECLARATION_PATH } from '../../core/registries/index.js';
import { defineCheck } from '../../core/run/index.js';
import { REGISTRY_MESSAGES, unworded, validateRegistry } from '../../core/schemas/index.js';

const SCHEMA_PATH = 'spec/v2/declaration.schema.json';

export default defineCheck({
  id: 'declaration/schema',
  summary: 'spec/v2/declaration.json matches its schema, spec/v2/declaration.schema.json',
  description:
    'One violation repeated in every row of a list is one finding, at its first place, with the number of places. The other declaration rules read what they can of a registry that does not match (a member of the wrong type reads as absent), so a schema violation does not hide their findings.',
  severity: 'error',
  messages: REGISTRY_MESSAGES,
  run(corpus, report) {
    for (const finding of validateRegistry(corpus, DECLARATION_PATH, SCHEMA_PATH))
      report({ ...unworded(finding), hint: 'fix the registry so that it matches its schema' });
  },
});
