/**
 * A house rule as the config writes it: `given` (which files, and what in them) and `then` (which
 * function the selected values must satisfy), with a message, a hint and a severity. Checked
 * against its schema when the config is read, so a wrong definition is one line naming the key,
 * as any config problem is; regular expressions and JSONPath are checked to compile too.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { JSONPath } from 'jsonpath-plus';

const MARKDOWN_SELECTORS = ['headings', 'paragraphs', 'code-spans', 'table-cells'] as const;
type MarkdownSelector = (typeof MARKDOWN_SELECTORS)[number];

const FUNCTIONS = [
  'pattern',
  'notPattern',
  'enumeration',
  'casing',
  'length',
  'defined',
  'undefined',
  'substitution',
] as const;
type HouseFunction = (typeof FUNCTIONS)[number];

const CASINGS = ['flat', 'camel', 'pascal', 'kebab', 'cobol', 'snake', 'macro'] as const;
export type Casing = (typeof CASINGS)[number];

export interface Given {
  /** Root-relative globs of the files the rule reads; default: every file the selector applies to. */
  files?: string | string[];
  /** JSONPath (jsonpath-plus syntax) into a JSON or YAML file. */
  path?: string;
  /** A JSON pointer (RFC 6901) into a JSON or YAML file. */
  pointer?: string;
  /** Parts of a markdown file. */
  markdown?: MarkdownSelector;
  /** With `markdown: headings`: only headings of this level. */
  level?: number;
  /** With `markdown: table-cells`: only cells of the column with this header. */
  column?: string;
}

export interface Then {
  /** A property of the selected value, or `@key` for the name it has in its parent. */
  field?: string;
  function: HouseFunction;
  functionOptions?: {
    match?: string;
    flags?: string;
    values?: unknown[];
    type?: Casing;
    min?: number;
    max?: number;
    swap?: Record<string, string>;
    ignoreCase?: boolean;
  };
}

export interface HouseRuleDefinition {
  description?: string;
  message?: string;
  hint?: string;
  severity?: 'off' | 'warn' | 'error';
  url?: string;
  given: Given;
  then: Then | Then[];
}

/** A definition that cannot be used: one line naming the rule and the key. */
export class HouseRuleError extends Error {}

const options = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const regex = { type: 'string', minLength: 1 };
const flags = { type: 'string', pattern: '^[imsu]*$' };

const THEN = {
  type: 'object',
  additionalProperties: false,
  required: ['function'],
  properties: {
    field: { type: 'string', minLength: 1 },
    function: { enum: [...FUNCTIONS] },
    functionOptions: { type: 'object' },
  },
  allOf: [
    fn(['pattern', 'notPattern'], options({ match: regex, flags }, ['match'])),
    fn(['enumeration'], options({ values: { type: 'array', minItems: 1 } }, ['values'])),
    fn(['casing'], options({ type: { enum: [...CASINGS] } }, ['type'])),
    fn(['length'], {
      ...options({ min: { type: 'integer', minimum: 0 }, max: { type: 'integer', minimum: 0 } }),
      minProperties: 1,
    }),
    fn(
      ['substitution'],
      options(
        {
          swap: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } },
          ignoreCase: { type: 'boolean' },
        },
        ['swap'],
      ),
    ),
    fn(['defined', 'undefined'], options({})),
  ],
};

/** When `function` is one of `names`, its functionOptions must fit `schema` (and be given when it requires any). */
function fn(names: readonly string[], schema: Record<string, unknown>): Record<string, unknown> {
  const required = (schema.required as string[] | undefined) ?? [];
  return {
    if: { properties: { function: { enum: [...names] } } },
    then: {
      properties: { functionOptions: schema },
      ...(required.length > 0 || schema.minProperties ? { required: ['functionOptions'] } : {}),
    },
  };
}

const HOUSE_RULE_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  required: ['given', 'then'],
  properties: {
    description: { type: 'string', minLength: 1 },
    message: { type: 'string', minLength: 1 },
    hint: { type: 'string', minLength: 1 },
    severity: { enum: ['off', 'warn', 'error'] },
    url: { type: 'string', pattern: '^https?://' },
    given: {
      type: 'object',
      additionalProperties: false,
      properties: {
        files: {
          oneOf: [
            { type: 'string', minLength: 1 },
            { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
          ],
        },
        path: { type: 'string', pattern: '^\\$' },
        pointer: { type: 'string', pattern: '^(/.*)?$' },
        markdown: { enum: [...MARKDOWN_SELECTORS] },
        level: { type: 'integer', minimum: 1, maximum: 6 },
        column: { type: 'string', minLength: 1 },
      },
      oneOf: [{ required: ['path'] }, { required: ['pointer'] }, { required: ['markdown'] }],
    },
    then: { oneOf: [THEN, { type: 'array', minItems: 1, items: THEN }] },
  },
} as const;

let validator: ValidateFunction | undefined;

/** Checks a `rules` entry that defines a rule and returns it typed; throws HouseRuleError naming the key. */
export function parseHouseRule(id: string, raw: unknown): HouseRuleDefinition {
  validator ??= new Ajv2020({ strict: true, strictRequired: false, allErrors: false }).compile(HOUSE_RULE_SCHEMA);
  if (!validator(raw)) throw new HouseRuleError(`rules["${id}"]${describe(validator.errors ?? [])}`);
  const definition = raw as HouseRuleDefinition;
  const { given } = definition;
  if (given.level !== undefined && given.markdown !== 'headings')
    throw new HouseRuleError(`rules["${id}"].given.level applies to markdown: "headings" only`);
  if (given.column !== undefined && given.markdown !== 'table-cells')
    throw new HouseRuleError(`rules["${id}"].given.column applies to markdown: "table-cells" only`);
  if (given.path !== undefined) {
    try {
      JSONPath.toPathArray(given.path);
      JSONPath({ path: given.path, json: {}, eval: 'safe', wrap: true });
    } catch (error) {
      throw new HouseRuleError(
        `rules["${id}"].given.path is not a JSONPath jsonpath-plus reads: ${(error as Error).message}`,
      );
    }
  }
  thens(definition).forEach((then, index) => {
    const key = Array.isArray(definition.then) ? `then[${index}]` : 'then';
    if (then.field !== undefined && given.markdown !== undefined)
      throw new HouseRuleError(`rules["${id}"].${key}.field: a markdown selector gives text, which has no fields`);
    const { match, flags: given_flags, swap } = then.functionOptions ?? {};
    if (match !== undefined) compile(`rules["${id}"].${key}.functionOptions.match`, match, given_flags ?? '');
    for (const from of Object.keys(swap ?? {}))
      compile(`rules["${id}"].${key}.functionOptions.swap["${from}"]`, `(?:${from})`, 'u');
  });
  return definition;
}

export function thens(definition: HouseRuleDefinition): Then[] {
  return Array.isArray(definition.then) ? definition.then : [definition.then];
}

function compile(key: string, source: string, flags: string): RegExp {
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new HouseRuleError(`${key} is not a regular expression: ${(error as Error).message}`);
  }
}

/** ` .key.path what is wrong`, for the deepest error (the one that names the real key). */
function describe(errors: readonly ErrorObject[]): string {
  // `given` takes one selector: its oneOf says that better than the `required` of each branch.
  const error =
    errors.find((e) => e.keyword === 'oneOf' && e.instancePath === '/given') ??
    [...errors].filter((e) => e.keyword !== 'if').sort((a, b) => b.instancePath.length - a.instancePath.length)[0];
  if (!error) return ' is not a house rule definition';
  const key = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => (/^\d+$/.test(s) ? `[${s}]` : `.${s}`))
    .join('');
  if (error.keyword === 'additionalProperties')
    return `${key}.${String((error.params as { additionalProperty: string }).additionalProperty)} is not a known key`;
  if (error.keyword === 'enum')
    return `${key} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  if (error.keyword === 'oneOf' && key.endsWith('given'))
    return `${key} needs exactly one of path (JSONPath), pointer (JSON pointer) or markdown (${MARKDOWN_SELECTORS.join(', ')})`;
  return `${key} ${error.message ?? 'is invalid'}`;
}
