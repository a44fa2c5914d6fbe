/**
 * House rules on small in-memory corpora: each selector (JSONPath, JSON pointer, markdown parts)
 * and each function, both ways, with the place every finding is given, messages from templates,
 * and substitutions placed on the words they replace and fixed there.
 */
import { describe, expect, it } from 'vitest';
import { houseRuleCheck } from '../../core/house-rules/check.js';
import { parseHouseRule, type HouseRuleDefinition } from '../../core/house-rules/definition.js';
import { corpusFromFiles } from '../../core/model/index.js';
import { runChecks } from '../../core/run/engine.js';
import { applyFixes } from '../../core/run/fixes.js';
import type { Diagnostic } from '../../core/output/index.js';

const OPENAPI = `openapi: 3.1.0
info:
  title: "Workflow API"
  version: 1.0.0
paths:
  /runs:
    get:
      operationId: listRuns
      parameters:
        - name: X-Trace
          in: header
        - name: X-OpenWOP-Run
          in: header
        - name: limit
          in: query
  /run-steps:
    post:
      operationId: Create_Step
`;

const SCHEMA = JSON.stringify(
  {
    $id: 'https://openwop.dev/schemas/v2/run.json',
    type: 'object',
    properties: { state: { enum: ['queued', 'done'] } },
  },
  null,
  2,
);

const DOC = `# Runs

> **Status: Stable.**

## Why this exists

We utilize leases; see the \`utilize\` flag and [Utilize it](x.md).

## States of a run, at some length

| State | Meaning |
| --- | --- |
| queued | waiting for a runner |
| Done | finished |
`;

const FILES = { 'api/v2/openapi.yaml': OPENAPI, 'schemas/v2/run.json': SCHEMA, 'spec/v2/core/runs.md': DOC };

function runHouseRule(definition: unknown, files: Record<string, string> = FILES): Diagnostic[] {
  const rule = houseRuleCheck('house/test', parseHouseRule('house/test', definition));
  return runChecks(corpusFromFiles('/nonexistent-root', files), [rule]);
}

const located = (found: readonly Diagnostic[]): string[] =>
  found.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`);

describe('selecting with given', () => {
  it('a JSONPath with a filter selects each header parameter; the finding is on its name', () => {
    const found = runHouseRule({
      given: { files: 'api/**/*.yaml', path: "$.paths[*][*].parameters[?(@.in === 'header')]" },
      then: { field: 'name', function: 'pattern', functionOptions: { match: '^X-OpenWOP-' } },
    });
    expect(located(found)).toEqual([
      'api/v2/openapi.yaml:10:11 /paths/~1runs/get/parameters/0/name "X-Trace" does not match /^X-OpenWOP-/',
    ]);
    expect(found[0]).toMatchObject({
      rule: 'house/test',
      severity: 'warning',
      hint: 'write it so that it matches /^X-OpenWOP-/',
      messageId: 'pattern',
      data: { property: 'name', value: '"X-Trace"' },
    });
  });

  it('a JSON pointer selects one value; files outside the globs are not read', () => {
    const definition = {
      given: { files: ['api/v2/*.yaml'], pointer: '/info/title' },
      then: { function: 'pattern', functionOptions: { match: '^OpenWOP ' } },
    };
    expect(located(runHouseRule(definition))).toEqual([
      'api/v2/openapi.yaml:3:3 /info/title "Workflow API" does not match /^OpenWOP /',
    ]);
    expect(runHouseRule({ ...definition, given: { files: 'schemas/**', pointer: '/info/title' } })).toEqual([]);
  });

  it('names selected with ~ are judged and placed as keys', () => {
    expect(
      runHouseRule({
        given: { path: '$.paths[*]~' },
        then: { function: 'pattern', functionOptions: { match: '^/[a-z-]+$' } },
      }),
    ).toEqual([]);
    expect(
      located(
        runHouseRule({
          given: { path: '$.paths[*]~' },
          then: { function: 'casing', functionOptions: { type: 'kebab' } },
        }),
      ),
    ).toEqual([
      'api/v2/openapi.yaml:6:3 /paths/~1runs "/runs" is not kebab case',
      'api/v2/openapi.yaml:16:3 /paths/~1run-steps "/run-steps" is not kebab case',
    ]);
    const camel = runHouseRule({
      given: { path: '$.paths[*]~' },
      then: { function: 'pattern', functionOptions: { match: '^/[a-z]+$' } },
    });
    expect(located(camel)).toEqual([
      'api/v2/openapi.yaml:16:3 /paths/~1run-steps "/run-steps" does not match /^/[a-z]+$/',
    ]);
  });

  it('markdown headings of one level, table cells of one column, code spans and paragraphs', () => {
    expect(
      located(
        runHouseRule({
          given: { markdown: 'headings', level: 2 },
          then: { function: 'length', functionOptions: { max: 20 } },
        }),
      ),
    ).toEqual(['spec/v2/core/runs.md:9:1 heading "States of a run, at some length" is 31 characters, more than 20']);
    expect(
      located(
        runHouseRule({
          given: { markdown: 'table-cells', column: 'State' },
          then: { function: 'casing', functionOptions: { type: 'flat' } },
        }),
      ),
    ).toEqual(['spec/v2/core/runs.md:14:3 cell of column "State" "Done" is not flat case']);
    expect(
      runHouseRule({
        given: { markdown: 'table-cells', column: 'No such column' },
        then: { function: 'casing', functionOptions: { type: 'flat' } },
      }),
    ).toEqual([]);
    expect(
      located(
        runHouseRule({
          given: { markdown: 'code-spans' },
          then: { function: 'enumeration', functionOptions: { values: ['lease'] } },
        }),
      ),
    ).toEqual(['spec/v2/core/runs.md:7:28 code span "utilize" is not one of "lease"']);
    expect(
      located(
        runHouseRule({
          given: { markdown: 'paragraphs', files: 'spec/**' },
          then: { function: 'notPattern', functionOptions: { match: 'lease', flags: 'i' } },
        }),
      ),
    ).toEqual([
      'spec/v2/core/runs.md:7:1 paragraph "We utilize leases; see the utilize flag and Utilize it." matches /lease/i, which is not allowed',
    ]);
  });
});

describe('the then functions, each both ways', () => {
  const info = (then: unknown) => runHouseRule({ given: { pointer: '/info' }, then });

  it('defined and undefined, of a field', () => {
    expect(info({ field: 'version', function: 'defined' })).toEqual([]);
    expect(located(info({ field: 'license', function: 'defined' }))).toEqual([
      'api/v2/openapi.yaml:2:1 /info/license is missing',
    ]);
    expect(info({ field: 'license', function: 'undefined' })).toEqual([]);
    expect(located(info({ field: 'title', function: 'undefined' }))).toEqual([
      'api/v2/openapi.yaml:3:3 /info/title is present ("Workflow API") and must not be',
    ]);
  });

  it('enumeration, casing and length', () => {
    const state = (then: unknown) =>
      runHouseRule({ given: { files: 'schemas/**', path: '$.properties.state.enum[*]' }, then });
    expect(state({ function: 'enumeration', functionOptions: { values: ['queued', 'done', 'failed'] } })).toEqual([]);
    expect(located(state({ function: 'enumeration', functionOptions: { values: ['queued'] } }))).toEqual([
      'schemas/v2/run.json:8:9 /properties/state/enum/1 "done" is not one of "queued"',
    ]);
    const ids = (type: string) =>
      runHouseRule({
        given: { path: '$.paths[*][*]' },
        then: { field: 'operationId', function: 'casing', functionOptions: { type } },
      });
    expect(located(ids('camel'))).toEqual([
      'api/v2/openapi.yaml:18:7 /paths/~1run-steps/post/operationId "Create_Step" is not camel case',
    ]);
    expect(ids('camel').map((d) => d.hint)).toEqual(['write it in camel case (runId)']);
    expect(located(ids('pascal'))).toHaveLength(2);
    expect(info({ field: 'title', function: 'length', functionOptions: { min: 3, max: 40 } })).toEqual([]);
    expect(located(info({ field: 'title', function: 'length', functionOptions: { min: 20 } }))).toEqual([
      'api/v2/openapi.yaml:3:3 /info/title "Workflow API" is 12 characters, fewer than 20',
    ]);
    const paths = located(
      runHouseRule({ given: { pointer: '/paths' }, then: { function: 'length', functionOptions: { max: 1 } } }),
    );
    expect(paths).toHaveLength(1);
    expect(paths[0]).toMatch(/^api\/v2\/openapi\.yaml:5:1 \/paths \{"\/runs":.{40,80}… is 2 keys, more than 1$/);
  });

  it('pattern on something that is not text says so, rather than passing it', () => {
    expect(located(info({ function: 'pattern', functionOptions: { match: 'x' } }))).toEqual([
      'api/v2/openapi.yaml:2:1 /info {"title":"Workflow API","version":"1.0.0"} is an object, not text',
    ]);
  });

  it('substitution: each word placed where it is written, code left alone, and a fix that keeps the capital', () => {
    const definition = {
      given: { markdown: 'paragraphs' },
      then: { function: 'substitution', functionOptions: { swap: { utilize: 'use' }, ignoreCase: true } },
      message: 'house style: {{error}}',
    };
    const found = runHouseRule(definition);
    expect(located(found)).toEqual([
      'spec/v2/core/runs.md:7:4 house style: use "use" instead of "utilize"',
      'spec/v2/core/runs.md:7:48 house style: use "Use" instead of "Utilize"',
    ]);
    expect(found[0]).toMatchObject({ endLine: 7, endColumn: 11 });
    const fixed = applyFixes(
      DOC,
      found.flatMap((d) => (d.fix ? [d.fix] : [])),
    );
    expect(fixed.text.split('\n')[6]).toBe('We use leases; see the `utilize` flag and [Use it](x.md).');
    // Whole words only, and case as written unless ignoreCase.
    expect(
      runHouseRule({
        ...definition,
        then: { function: 'substitution', functionOptions: { swap: { utilize: 'use', lease: 'grant' } } },
      }).map((d) => d.message),
    ).toEqual(['house style: use "use" instead of "utilize"']);
  });

  it('substitution in a YAML string is placed on the word and fixed in the scalar', () => {
    const found = runHouseRule({
      given: { pointer: '/info/title' },
      then: { function: 'substitution', functionOptions: { swap: { Workflow: 'Orchestration' } } },
    });
    expect(located(found)).toEqual(['api/v2/openapi.yaml:3:11 use "Orchestration" instead of "Workflow"']);
    expect(applyFixes(OPENAPI, [found[0]!.fix!]).text).toContain('title: "Orchestration API"');
  });
});

describe('messages', () => {
  it("{{property}}, {{value}}, {{path}} and {{error}} fill the rule's message; its hint and severity win", () => {
    const definition: HouseRuleDefinition = {
      given: { pointer: '/info' },
      then: { field: 'title', function: 'pattern', functionOptions: { match: '^OpenWOP' } },
      message: '{{property}} is {{value}} at {{path}}: {{error}}',
      hint: 'see the naming guide',
      severity: 'error',
    };
    const [finding] = runHouseRule(definition);
    expect(finding).toMatchObject({
      severity: 'error',
      hint: 'see the naming guide',
      message: 'title is "Workflow API" at /info/title: /info/title "Workflow API" does not match /^OpenWOP/',
    });
  });
});
