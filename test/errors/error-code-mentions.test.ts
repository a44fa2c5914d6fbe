import { describe, expect, it } from 'vitest';
import { envelopeMentions, markdownCodeMentions } from '../../core/registries/error-code-mentions.js';
import { parseMarkdown } from '../../core/markdown/parse.js';

describe('error code mentions', () => {
  it('finds the status forms with the code located exactly', () => {
    const text =
      'A `409 run_terminal`; then 410 `interrupt_expired`; `401` `interrupt_token_invalid`; `not_found` (404).\n';
    const mentions = markdownCodeMentions({ ...parseMarkdown(text), text });
    expect(mentions.map((m) => [m.code, m.status, text.slice(m.start, m.end)])).toEqual([
      ['run_terminal', 409, 'run_terminal'],
      ['interrupt_expired', 410, 'interrupt_expired'],
      ['interrupt_token_invalid', 401, 'interrupt_token_invalid'],
      ['not_found', 404, 'not_found'],
    ]);
  });

  it('reads envelope examples in tolerant JSON: comments, elisions, nesting inside details', () => {
    const text =
      '{ // a bulk cancel\n  "error": "validation_error", "message": "…",\n  "details": { "failures": [ { "runId": "t/r", "error": "run_terminal", "message": "done" } ] }\n}';
    expect(envelopeMentions(text).map((m) => [m.code, text.slice(m.start, m.end)])).toEqual([
      ['validation_error', 'validation_error'],
      ['run_terminal', 'run_terminal'],
    ]);
    expect(envelopeMentions('{ "error": "x_y" }')).toEqual([]);
    // Elided members and values (…, ...) and trailing commas are skipped, and the reading goes on.
    const elided =
      '[\n  { "error": "run_not_found", …, "message": "m" },\n  { "details": { … }, "error": "quota_exceeded", },\n  { "error": ..., "message": "m" }\n]';
    expect(envelopeMentions(elided).map((m) => [m.code, elided.slice(m.start, m.end)])).toEqual([
      ['run_not_found', 'run_not_found'],
      ['quota_exceeded', 'quota_exceeded'],
    ]);
  });
});
