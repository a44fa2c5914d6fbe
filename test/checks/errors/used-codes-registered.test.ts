import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../core/model/corpus.js';
import { yamlCodeMentions } from '../../../core/registries/error-code-mentions.js';
import { doc, REPO, run, where } from '../../helpers.js';
import { DECLARATION, errorsCorpus, layer } from '../../errors/helpers.js';

const RULE = 'errors/used-codes-registered';
const USES = layer('errors/used-codes');

describe('errors/used-codes-registered', () => {
  it('fires where each unregistered code, wrong status or wrong retriability is written, in prose and in OpenAPI', () => {
    const found = run(RULE, errorsCorpus(USES));
    expect(where(found)).toEqual([
      'api/v2/openapi.yaml:8:66', // `409 run_gone` in a description
      'api/v2/openapi.yaml:18:42', // the enum of an error property
      'spec/v2/core/uses.md:8:24', // `409 run_finished`
      'spec/v2/core/uses.md:8:53', // 404 `no_such_thing`
      'spec/v2/core/uses.md:9:40', // `400 rate_limited`
      'spec/v2/core/uses.md:10:52', // `409 openwop.reserved_thing`
      'spec/v2/core/uses.md:16:4', // Retriable "no" for a retriable code
      'spec/v2/core/uses.md:17:4', // a code table row
      'spec/v2/core/uses.md:25:48', // 410 `run_expired` inside a table cell
      'spec/v2/core/uses.md:28:13', // a jsonc envelope example
      'spec/v2/core/uses.md:37:10', // a yaml envelope example
    ]);
    const message = (file: string) => found.find((d) => `${d.file}:${d.line}:${d.column}` === file)?.message;
    expect(message('spec/v2/core/uses.md:28:13')).toBe('"rate_limted" is not a registered error code; did you mean rate_limited?');
    expect(message('spec/v2/core/uses.md:9:40')).toBe('400 rate_limited: the registry gives rate_limited the status 429');
    expect(message('spec/v2/core/uses.md:16:4')).toBe('internal_error is marked not retriable here, but the registry says it is retriable');
    expect(message('spec/v2/core/uses.md:10:52')).toMatch(/reserved prefix openwop\./);
    expect(found.every((d) => d.hint)).toBe(true);
  });

  it('reads every code of a list that continues a status, and every snake_case code of a 4xx description; a list after no status is not read', () => {
    const api = [
      'openapi: 3.1.0',
      'paths:',
      '  /runs/{runId}:',
      '    post:',
      "      description: 'Answers 409 (`run_terminal`, `run_finished` or `run_closed`); `not_a_status`, `other_word` are words.'",
      '      responses:',
      "        '409':",
      "          description: 'The run is `run_terminal`, `run_done_already`, or its stream is `stream_taken`.'",
      '',
    ].join('\n');
    const found = run(RULE, errorsCorpus({ 'api/v2/openapi.yaml': api })).filter((d) => d.file === 'api/v2/openapi.yaml');
    expect(found.map((d) => `${d.line}:${d.column} ${d.message.split(';')[0]}`)).toEqual([
      '5:51 "run_finished" is not a registered error code',
      '5:69 "run_closed" is not a registered error code',
      '8:53 "run_done_already" is not a registered error code',
      '8:90 "stream_taken" is not a registered error code',
    ]);
  });

  it('takes a snake_case word in a sentence about an error for a code only when it nearly spells a registered one, and says which', () => {
    const prose = (word: string) => ({ 'spec/v2/core/uses.md': doc('Uses', `A host rejects the stream with \`${word}\` when the mode is unknown.`) });
    const near = run(RULE, errorsCorpus(prose('unsupported_stream_mode_value')));
    expect(near.map((d) => `${d.file}:${d.line}:${d.column} ${d.message}`)).toEqual(['spec/v2/core/uses.md:7:33 "unsupported_stream_mode_value" is not a registered error code; did you mean unsupported_stream_mode?']);
    expect(run(RULE, errorsCorpus(prose('unsuported_stream_mode')))[0]?.message).toBe('"unsuported_stream_mode" is not a registered error code; did you mean unsupported_stream_mode?');
    // Another word in the same place names another thing: not a near miss.
    expect(run(RULE, errorsCorpus(prose('unsupported_stream_kind')))).toEqual([]);
    expect(run(RULE, errorsCorpus(prose('unsupported_stream_mode')))).toEqual([]);
  });

  it('reads the seams document and the descriptions of every JSON and YAML file', () => {
    const seams = "paths:\n  /x:\n    delete:\n      description: |\n        Removes a version.\n        Returns `400 unpublish_window_gone` after the window.\n";
    const schema = '{ "description": "A host refuses with `sub_chain_missing` (422) at author time.",\n  "$comment": "else `409 chain_busy`" }';
    const found = run(RULE, errorsCorpus({ 'api/seams-v2.yaml': seams, 'schemas/v2/chain.schema.json': schema }));
    expect(where(found).filter((w) => !w.startsWith('spec/') && !w.startsWith('api/v2/'))).toEqual(['api/seams-v2.yaml:6:22', 'schemas/v2/chain.schema.json:1:40', 'schemas/v2/chain.schema.json:2:26']);
    const clean = run(RULE, errorsCorpus({ 'api/seams-v2.yaml': seams.replace('unpublish_window_gone', 'run_terminal').replace('400', '409'), 'schemas/v2/chain.schema.json': schema.replace('sub_chain_missing` (422)', 'run_terminal` (409)').replace('chain_busy', 'run_terminal') }));
    expect(where(clean).filter((w) => !w.startsWith('spec/') && !w.startsWith('api/v2/'))).toEqual([]);
  });

  it('leaves the response examples of API documents to api/error-responses, but reads them in yaml blocks of the prose', () => {
    const corpus = errorsCorpus(USES);
    const openapi = corpus.data('api/v2/openapi.yaml');
    if (!openapi) throw new Error('fixture openapi.yaml does not parse');
    const withExamples = yamlCodeMentions(openapi).map((m) => [m.code, m.status, openapi.lines.position(m.start).line]);
    expect(withExamples).toEqual([
      ['run_terminal', 409, 8],
      ['run_gone', 409, 8],
      ['run_terminal', 409, 18],
      ['run_vanished', 409, 18],
      ['rate_limited', 409, 22],
      ['not_a_code', 409, 25],
    ]);
    expect(yamlCodeMentions(openapi, { examples: false }).map((m) => m.code)).toEqual(['run_terminal', 'run_gone', 'run_terminal', 'run_vanished']);
  });

  it('holds vendor codes to the orgs of spec/v2/declaration.json when it exists', () => {
    expect(where(run(RULE, errorsCorpus({ ...USES, 'spec/v2/declaration.json': DECLARATION }))).filter((w) => w.startsWith('spec/v2/core/uses.md:10:'))).toEqual(['spec/v2/core/uses.md:10:52']);
    const exampleOnly = '{ "version": "2.0", "reservedOrgs": ["openwop"], "extensions": { "example": {} } }\n';
    const found = run(RULE, errorsCorpus({ ...USES, 'spec/v2/declaration.json': exampleOnly }));
    const acme = found.find((d) => d.line === 10 && d.message.includes('acme'));
    expect(where(acme ? [acme] : [])).toEqual(['spec/v2/core/uses.md:10:22']);
    expect(acme?.message).toBe('"acme.widget_failed" is shaped like a vendor code, but acme is not an org registered in spec/v2/declaration.json');
    expect(acme?.hint).toBe('registered orgs: example');
  });

  it('has no false positives on ordinary identifiers, reason phrases, statuses alone or non-envelope JSON', () => {
    const text = [
      'Fields such as `run_id`, `tenant_id` and `snake_case_word` are not codes; nor is a `409 Conflict`, `5xx`, `429` and `foo_bar`, or error="invalid_token".',
      'A 404 carries no challenge. Status 200 `ok_thing` is not an error. Headers: a 400 `Bad-Request`.',
      '',
      '| Name | Type |',
      '| --- | --- |',
      '| `run_id` | string |',
      '',
      '| Code | Meaning |',
      '| --- | --- |',
      '| `not_a_status_table` | no status column |',
      '',
      '```json',
      '{ "type": "node.failed", "payload": { "error": "timeout" }, "schema": { "error": { "type": "string" } } }',
      '```',
    ].join('\n');
    expect(run(RULE, errorsCorpus({ 'spec/v2/core/plain.md': doc('Plain', text) }))).toEqual([]);
  });

  it('leaves a document generated whole from the registry to generated/drift, which names each differing row', () => {
    const table = (status: string) => `# Error codes\n\n> **Status: Stable.**${status}\n\nCode | Status\n--- | ---\n\`no_such_thing\` | 404\n`;
    const corpus = (status: string) => errorsCorpus({ ...USES, 'spec/v2/generated/error-codes.md': table(status) });
    const inGenerated = (status: string) => where(run(RULE, corpus(status))).filter((place) => place.startsWith('spec/v2/generated/'));
    expect(inGenerated(' Generated from `spec/v2/errors.json`; do not edit.')).toEqual([]);
    expect(inGenerated('')).toEqual(['spec/v2/generated/error-codes.md:7:2']);
  });

  it('is quiet on the fixture corpus and on the repository', () => {
    expect(run(RULE, errorsCorpus())).toEqual([]);
    expect(run(RULE, loadCorpus(REPO))).toEqual([]);
  });

  it('says nothing without a valid registry to hold codes to', () => {
    expect(run(RULE, errorsCorpus({ ...USES, 'spec/v2/errors.json': undefined }))).toEqual([]);
    expect(run(RULE, errorsCorpus({ ...USES, 'spec/v2/errors.json': '{ "rows": [] }\n' }))).toEqual([]);
  });
});
