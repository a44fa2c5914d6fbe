import { testRule } from '../../rule-tester.js';
import { api, OPENAPI, openapi } from './helpers.js';

const CLIENT = "      - $ref: '#/components/parameters/OpenWOPClientVersion'\n";
/** The revision before OpenWOP-Client-Version: no operation takes it (the base's headers.md still lists it, in a generated region). */
const NO_CLIENT_HEADER = openapi(new RegExp(CLIENT.replace(/[$/'#]/g, '\\$&'), 'g'), '');
const VERSIONING = 'spec/v2/core/versioning.md';
const clientMissing = (operation: string, line: number) => ({
  messageId: 'request-header-missing',
  file: OPENAPI,
  line,
  column: 5,
  data: { operation, header: 'OpenWOP-Client-Version', section: '§1.5' },
});

testRule('api/version-header', {
  valid: [
    { name: 'every operation takes both request headers, every response (shared ones too) declares OpenWOP-Version', base: 'api/good' },
    { name: 'a protocol revision before OpenWOP-Client-Version: no operation takes it, and only generated text names it', ...api([NO_CLIENT_HEADER]) },
    {
      name: 'a generated document of a later revision naming OpenWOP-Client-Version does not make it part of this one',
      ...api([NO_CLIENT_HEADER], { 'spec/v2/core/later.md': '# Later\n\n> **Status: Stable.** Generated from `api/v2/openapi.yaml`; do not edit.\n\n| `OpenWOP-Client-Version` | 5 | from a later revision |\n' }),
    },
  ],
  invalid: [
    {
      name: 'an operation without OpenWOP-Client-Version, which the others take: at the operation',
      ...api([openapi(`  /runs:\n    parameters:\n      - $ref: '#/components/parameters/OpenWOPVersion'\n${CLIENT}`, "  /runs:\n    parameters:\n      - $ref: '#/components/parameters/OpenWOPVersion'\n")]),
      errors: [clientMissing('createRun (POST /runs)', 39)],
    },
    {
      name: 'an operation without OpenWOP-Version: at the operation',
      ...api([openapi("  /host/events:\n    parameters:\n      - $ref: '#/components/parameters/OpenWOPVersion'\n", '  /host/events:\n    parameters:\n')]),
      errors: [{ messageId: 'request-header-missing', file: OPENAPI, line: 127, column: 5, data: { operation: 'streamHostEvents (GET /host/events)', header: 'OpenWOP-Version', section: '§1.2' } }],
    },
    {
      name: 'hand-written prose says every operation accepts OpenWOP-Client-Version, and none declares it: at every operation',
      ...api([NO_CLIENT_HEADER, { file: VERSIONING, find: 'By header.', replace: 'By header. A client MAY send `OpenWOP-Client-Version`; every operation accepts it.' }]),
      errors: [
        clientMissing('getDiscovery (GET /.well-known/openwop)', 17),
        clientMissing('createRun (POST /runs)', 38),
        clientMissing('getRun (GET /runs/{runId})', 78),
        clientMissing('streamRunEvents (GET /runs/{runId}/events)', 103),
        clientMissing('streamHostEvents (GET /host/events)', 123),
      ],
    },
    {
      name: 'a response without OpenWOP-Version: at the response',
      ...api([openapi("          description: Another run holds the claim.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n", '          description: Another run holds the claim.\n          headers:\n')]),
      errors: [
        {
          messageId: 'response-header-missing',
          file: OPENAPI,
          line: 64,
          column: 9,
          data: { operation: 'createRun (POST /runs)', status: '409' },
          hint: "add OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' } to its headers",
        },
      ],
    },
    {
      name: 'the hint names the component this document declares the header through, whatever it is called',
      ...api([
        openapi(/#\/components\/headers\/OpenWOP-Version'/g, "#/components/headers/VersionOfContract'"),
        openapi(/^    OpenWOP-Version:$/m, '    VersionOfContract:'),
        openapi(/#\/components\/parameters\/OpenWOPVersion'/g, "#/components/parameters/ContractVersion'"),
        openapi(/^    OpenWOPVersion:$/m, '    ContractVersion:'),
        openapi("  /host/events:\n    parameters:\n      - $ref: '#/components/parameters/ContractVersion'\n", '  /host/events:\n    parameters:\n'),
        openapi("          description: Another run holds the claim.\n          headers:\n            OpenWOP-Version: { $ref: '#/components/headers/VersionOfContract' }\n", '          description: Another run holds the claim.\n          headers:\n'),
      ]),
      errors: [
        { messageId: 'response-header-missing', file: OPENAPI, line: 64, column: 9, hint: "add OpenWOP-Version: { $ref: '#/components/headers/VersionOfContract' } to its headers" },
        { messageId: 'request-header-missing', file: OPENAPI, line: 126, column: 5, hint: "add $ref: '#/components/parameters/ContractVersion' to the operation or its path item" },
      ],
    },
    {
      name: 'a shared response without OpenWOP-Version: once, where it is defined',
      ...api([openapi("      description: No valid credential.\n      headers:\n        OpenWOP-Version: { $ref: '#/components/headers/OpenWOP-Version' }\n", '      description: No valid credential.\n      headers:\n')]),
      errors: [{ messageId: 'response-header-missing', file: OPENAPI, line: 195, column: 5, data: { operation: 'createRun (POST /runs)', status: '401' } }],
    },
  ],
});
