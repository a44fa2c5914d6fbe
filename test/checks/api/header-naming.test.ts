import { describe, expect, it } from 'vitest';
import { doc } from '../../helpers.js';
import { runRule, testRule } from '../../rule-tester.js';
import { api, ASYNCAPI, OPENAPI, openapi } from './helpers.js';

const header = (name: string, about = 'A header.') => `            ${name}:\n              description: ${about}\n              schema: { type: string }\n`;
/** streamRunEvents's 200 (line 115) with more response headers. */
const streamHeaders = (more: string) => openapi("          description: The stream.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n          content:\n            text/event-stream:\n              schema: { type: string }\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n  /host/events:", `          description: The stream.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n${more}          content:\n            text/event-stream:\n              schema: { type: string }\n        '401':\n          $ref: '#/components/responses/Unauthorized'\n  /host/events:`);
/** A shared header of the base (line 186), and others after it. */
const componentHeaders = (more: string) => openapi('    WWW-Authenticate:\n      description: A Bearer challenge.\n      schema: { type: string }\n', `    WWW-Authenticate:\n      description: A Bearer challenge.\n      schema: { type: string }\n${more}`);
const NOTE = 'spec/v2/core/note.md';
const note = (body: string) => api([], { [NOTE]: doc('Note', body) });

const REMOVED = api([
  openapi('        - name: OpenWOP-Dedup', '        - name: X-Dedup'),
  streamHeaders(header('X-openwop-Trace', 'A v1-style header.')),
  openapi('  headers:\n    OpenWOP-Version:', '    Unused:\n      name: Capabilities-Etag\n      in: header\n      schema: { type: string }\n  headers:\n    OpenWOP-Version:'),
]);
const MISSPELT = api([
  openapi("        - $ref: '#/components/parameters/IfNoneMatch'\n        - $ref: '#/components/parameters/OpenWOPVersion'", "        - $ref: '#/components/parameters/IfNoneMatch'\n        - name: openwop-version\n          in: header\n          schema: { type: string }"),
  streamHeaders(header('Etag', 'Spelled off-standard.') + header('Trace-Token', 'Neither standard nor OpenWOP.')),
]);

testRule('api/header-naming', {
  valid: [
    { name: 'standard headers and OpenWOP-<Name> headers, shared ones keyed by their names', base: 'api/good' },
    {
      name: 'a shared header keyed by a component name: the name is judged where the header is used, not the key it refers to',
      ...api([openapi(/#\/components\/headers\/OpenWOP-Version/g, '#/components/headers/OpenWOPVersion'), openapi('  headers:\n    OpenWOP-Version:', '  headers:\n    OpenWOPVersion:')]),
    },
    { name: 'v2 prose that writes a declared header as declared', ...note('The `OpenWOP-Version` header is always sent, as `OpenWOP-Version: 2.0`.') },
    { name: 'a sentence of v2 prose that speaks of v1 quotes its spelling', ...note('A v1 host sent `openwop-version` instead.') },
    { name: 'prose outside v2 keeps its own spelling', ...api([], { 'spec/v1/note.md': doc('Note', 'The `openwop-version` header.') }) },
    { name: 'a header one word longer than a declared one is another header, not a near miss', ...note('The host sends `OpenWOP-Version-Floor` too.') },
  ],
  invalid: [
    {
      name: 'a name removed in v2, wherever it is declared (a header parameter, a response header, a parameter nothing uses)',
      ...REMOVED,
      errors: [
        { messageId: 'removed', file: OPENAPI, line: 44, column: 17, data: { header: 'X-Dedup', listed: 'X-Dedup' } },
        { messageId: 'removed', file: OPENAPI, line: 119, column: 13, data: { header: 'X-openwop-Trace', listed: 'X-openwop-*' } },
        { messageId: 'removed', file: OPENAPI, line: 177, column: 13, data: { header: 'Capabilities-Etag', listed: 'Capabilities-Etag' } },
      ],
    },
    {
      name: 'an OpenWOP prefix misspelt, a standard header spelt off-standard (a warning) and a name neither standard nor OpenWOP-<Name>',
      ...MISSPELT,
      errors: [
        { messageId: 'openwop-spelling', file: OPENAPI, line: 85, column: 17, data: { header: 'openwop-version' }, severity: 'error' },
        { messageId: 'standard-spelling', file: OPENAPI, line: 121, column: 13, data: { header: 'Etag', standard: 'ETag' }, severity: 'warning' },
        { messageId: 'unknown-header', file: OPENAPI, line: 124, column: 13, data: { header: 'Trace-Token' }, severity: 'error' },
      ],
    },
    {
      name: 'the headers of an AsyncAPI message',
      ...api([{ file: ASYNCAPI, find: '        payload:', replace: '        headers:\n          type: object\n          properties:\n            X-Force-Engine-Version: { type: integer }\n        payload:' }]),
      errors: [{ messageId: 'removed', file: ASYNCAPI, line: 20, column: 13, data: { header: 'X-Force-Engine-Version', listed: 'X-Force-Engine-Version' } }],
    },
    {
      name: 'a components.headers key nothing refers to is the only name of its header, and is judged as one',
      ...api([componentHeaders('    TraceToken:\n      schema: { type: string }\n    Etag:\n      schema: { type: string }\n    Openwop-Trace:\n      schema: { type: string }\n')]),
      errors: [
        { messageId: 'component-key-unknown-header', file: OPENAPI, line: 189, column: 5, data: { header: 'TraceToken' } },
        { messageId: 'component-key-standard-spelling', file: OPENAPI, line: 191, column: 5, data: { header: 'Etag', standard: 'ETag' }, severity: 'warning' },
        { messageId: 'component-key-openwop-spelling', file: OPENAPI, line: 193, column: 5, data: { header: 'Openwop-Trace' } },
      ],
    },
    {
      name: 'v2 prose that spells a declared header in another case: at the code span',
      ...note('| Header | Set when |\n| --- | --- |\n| `openwop-version: 2.0` | always |'),
      errors: [{ messageId: 'declared-spelling', file: NOTE, line: 9, column: 4, data: { header: 'openwop-version', declared: 'OpenWOP-Version', document: OPENAPI } }],
    },
    {
      name: 'v2 prose that nearly spells a declared header no operation declares so',
      ...note('The host sends `OpenWOP-Versoin`.'),
      errors: [{ messageId: 'undeclared-near-miss', file: NOTE, line: 7, column: 17, data: { header: 'OpenWOP-Versoin', suggestion: 'OpenWOP-Version', document: OPENAPI } }],
    },
    {
      name: 'a description of a v2 schema that spells a declared header in another case',
      ...api([], { 'schemas/v2/echo.schema.json': '{ "description": "Echoes `openwop-version: 2.0` back." }' }),
      errors: [{ messageId: 'declared-spelling', file: 'schemas/v2/echo.schema.json', line: 1, column: 27, data: { header: 'openwop-version', declared: 'OpenWOP-Version', document: OPENAPI } }],
    },
  ],
});

describe('api/header-naming hints', () => {
  it('names the v2 header that replaces a removed one', () => {
    expect(runRule('api/header-naming', REMOVED).diagnostics[0]?.hint).toBe('use OpenWOP-Dedup');
  });

  it('writes the name as its standard or the OpenWOP-<Name> form spells it', () => {
    expect(runRule('api/header-naming', MISSPELT).diagnostics.map((d) => d.hint)).toEqual(['write OpenWOP-Version', 'write ETag', 'rename it OpenWOP-Trace-Token, or use the standard header that carries this meaning']);
  });
});
