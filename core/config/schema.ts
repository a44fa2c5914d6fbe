/**
 * The JSON Schema of the config file (openwop-spec.config.json, .jsonc or .yaml). A config is input
 * like any other, so it is validated before a single file is read; an unknown key is an error, not
 * a silently ignored typo. `npm run build` publishes it as dist/openwop-spec.config.schema.json,
 * which a config names in `$schema` so that editors complete and check it.
 */
/** The names a config file may have, in the order they are looked for; two in one directory is an error. */
export const CONFIG_FILES = [
  'openwop-spec.config.json',
  'openwop-spec.config.jsonc',
  'openwop-spec.config.yaml',
  'openwop-spec.config.yml',
] as const;
/** Where the build writes the schema, relative to the package root (shipped with dist/). */
export const CONFIG_SCHEMA_FILE = 'dist/openwop-spec.config.schema.json';

const severity = { enum: ['off', 'warn', 'error'] } as const;

/**
 * The `rules` object, shared by the top level and each override: a rule id or `family/*` to a
 * setting. A setting is one of the forms in `ruleEntry.anyOf`; a new form (a rule defined in the
 * config, say) is one more branch there.
 */
const RULE_DEFS = {
  severity,
  ruleEntry: {
    anyOf: [
      { $ref: '#/$defs/severity' },
      {
        type: 'array',
        prefixItems: [{ $ref: '#/$defs/severity' }, { type: 'object' }],
        minItems: 1,
        maxItems: 2,
        items: false,
      },
      // A house rule's definition, under a new id: core/house-rules checks the rest when the rules are read.
      { type: 'object', required: ['given', 'then'], properties: { given: { type: 'object' }, then: {} } },
    ],
  },
  rules: {
    description:
      'Rule id or `family/*` to "off", "warn", "error", or [severity, options]; or a new id to a house rule definition ({given, then, …}, checked when the rules are read).',
    type: 'object',
    propertyNames: { pattern: '^[a-z][a-z0-9-]*/([a-z][a-z0-9-]*|\\*)$' },
    additionalProperties: { $ref: '#/$defs/ruleEntry' },
  },
} as const;

export const CONFIG_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'https://openwop.dev/schemas/openwop-spec.config.schema.json',
  title: 'openwop-spec configuration',
  type: 'object',
  additionalProperties: false,
  $defs: {
    ...RULE_DEFS,
    impacts: {
      type: 'object',
      propertyNames: { pattern: '^[a-z][a-z0-9-]*/([a-z][a-z0-9-]*|\\*)$' },
      additionalProperties: { enum: ['breaking', 'additive', 'editorial', 'off'] },
    },
  },
  properties: {
    $schema: {
      description:
        'The schema of this file, for editors: node_modules/@openwop/spec/dist/openwop-spec.config.schema.json.',
      type: 'string',
    },
    extends: {
      description:
        'Configs this one builds on, each applied in order and this one over them: a file relative to this one ("./base.json"), a package exporting a config (its main or exports entry a .json, .jsonc or .yaml file), or a built-in ("openwop-spec:recommended", "openwop-spec:strict").',
      oneOf: [
        { type: 'string', minLength: 1 },
        { type: 'array', items: { type: 'string', minLength: 1 } },
      ],
    },
    overrides: {
      description:
        "Rule settings for some files only: each entry's `rules` apply to the corpus files its `files` globs match (relative to the root) and its `excludedFiles` do not; a later entry wins over an earlier one and over the top-level rules.",
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['files'],
        properties: {
          files: {
            description: 'Globs, relative to the root.',
            oneOf: [
              { type: 'string', minLength: 1 },
              { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
            ],
          },
          excludedFiles: {
            description: 'Globs, relative to the root, that this entry leaves out.',
            oneOf: [
              { type: 'string', minLength: 1 },
              { type: 'array', items: { type: 'string', minLength: 1 } },
            ],
          },
          rules: { $ref: '#/$defs/rules' },
        },
      },
    },
    include: {
      description:
        'Globs, relative to the root, of the files that make up the corpus. Default: the corpus directories (spec, api, schemas, conformance, SECURITY, docs, evidence) and CORPUS-STAMP.json.',
      type: 'array',
      items: { type: 'string', minLength: 1 },
    },
    exclude: {
      description: 'Globs, relative to the root, of files left out of the corpus even when included.',
      type: 'array',
      items: { type: 'string', minLength: 1 },
    },
    rules: { $ref: '#/$defs/rules' },
    maxWarnings: {
      description:
        'Fail the run (exit 1) when it has more warnings than this, as --max-warnings does. Default: warnings never fail.',
      type: 'integer',
      minimum: 0,
    },
    failSeverity: {
      description:
        'The least severity that fails the run: "error" (the default) or "warning", as --fail-severity does.',
      enum: ['error', 'warning'],
    },
    quiet: {
      description: 'Report errors only, as --quiet does; warnings still count for maxWarnings.',
      type: 'boolean',
    },
    suppressions: {
      description:
        'The suppressions file for findings in JSON and YAML, relative to the root. Default: openwop-spec.suppressions.json when it exists.',
      type: 'string',
      minLength: 1,
    },
    baselineFindings: {
      description:
        'The findings baseline, relative to the root, as --baseline-findings names it: only findings beyond it fail.',
      type: 'string',
      minLength: 1,
    },
    required: {
      description:
        "Files, relative to the root, the corpus must contain (its registries and API documents); a missing one is an error. Default: this repository's registries under spec/v2/ and API documents under api/v2/.",
      type: 'array',
      items: { type: 'string', minLength: 1 },
      uniqueItems: true,
    },
    allowRemoteRefs: {
      description:
        'Whether a $ref to a URL outside the corpus (http:, https:, //host) is allowed; it cannot be resolved offline, so by default it is an error. Default false.',
      type: 'boolean',
    },
    diff: {
      description:
        'How `diff` judges changes: `impacts` sets a change rule\'s impact ("breaking", "additive", "editorial", or "off" to leave it out) by rule id or `family/*`; each of `overrides` does the same for the changes in files its globs match. `openwop-spec diff --rules` lists the rules.',
      type: 'object',
      additionalProperties: false,
      properties: {
        impacts: { $ref: '#/$defs/impacts' },
        overrides: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['files', 'impacts'],
            properties: {
              files: { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
              impacts: { $ref: '#/$defs/impacts' },
            },
          },
        },
      },
    },
    layout: {
      description: 'Where this repository keeps what the tool needs to find.',
      type: 'object',
      additionalProperties: false,
      properties: {
        schemaIds: {
          description:
            'Path prefix to $id base: a schema at <prefix><rest> has $id <base><rest>; the longest prefix wins. Default {"": "https://openwop.dev/"}.',
          type: 'object',
          additionalProperties: { type: 'string', format: 'uri' },
        },
        stamp: {
          description: 'The corpus stamp, relative to the root. Default CORPUS-STAMP.json.',
          type: 'string',
          minLength: 1,
        },
      },
    },
  },
} as const;
