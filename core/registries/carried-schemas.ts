/**
 * Schemas the tool brings for registries whose schema a corpus may not ship (upstream ships none
 * for these three). They hold what the gates read and leave the rest open: a key they do not name
 * is the registry's own business. A corpus that ships its own schema at the path is held to that.
 */
const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

export const CARRIED_ID_BINDINGS_SCHEMA = {
  $schema: DIALECT,
  title: 'id-field bindings (carried by openwop-spec)',
  type: 'object',
  required: ['bindings', 'notAKind'],
  properties: {
    bindings: {
      description: 'Property name to the kind it is.',
      type: 'object',
      additionalProperties: { type: 'string', minLength: 1 },
    },
    notAKind: {
      description: 'Property name to why no kind governs it.',
      type: 'object',
      additionalProperties: { type: 'string', minLength: 1 },
    },
  },
} as const;

export const CARRIED_INVARIANTS_SCHEMA = {
  $schema: DIALECT,
  title: 'security invariants (carried by openwop-spec)',
  type: 'object',
  required: ['invariants'],
  properties: {
    invariants: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'tier', 'severity', 'tests', 'witness'],
        properties: {
          id: { type: 'string', minLength: 1 },
          tier: { enum: ['protocol', 'reference-impl', 'advisory'] },
          severity: { enum: ['critical', 'high', 'medium', 'low'] },
          threat_model: { type: 'string', minLength: 1 },
          // A scenario id, a repository path or glob, or a `<repo>:<path>` pointer into a sibling repository.
          tests: { type: 'array', items: { type: 'string', minLength: 1 } },
          witness: { type: 'string', minLength: 1 },
          non_testability_rationale: { type: ['string', 'null'] },
          note: { type: 'string' },
        },
      },
    },
  },
} as const;

export const CARRIED_WITNESS_BASELINE_SCHEMA = {
  $schema: DIALECT,
  title: 'witness baseline (carried by openwop-spec)',
  type: 'object',
  required: ['measured', 'unwitnessable'],
  properties: {
    $comment: { type: 'string' },
    measured: { type: 'string', format: 'date' },
    seamGated: { type: 'integer', minimum: 0 },
    unwitnessable: { type: 'integer', minimum: 0 },
  },
  // Every other counter is a count that may only go down.
  additionalProperties: { type: 'integer', minimum: 0 },
} as const;
