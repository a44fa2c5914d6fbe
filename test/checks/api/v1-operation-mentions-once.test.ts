/**
 * api/v1-operation-mentions on a description that names one v1 path twice: every mention of a description is
 * located at the string's start, so the path is one finding there, not two indistinguishable ones.
 */
import { testRule } from '../../rule-tester.js';

const OPENAPI = 'api/v2/openapi.yaml';

const openapiDescribing = (description: string) => `openapi: 3.1.0
info:
  title: Fixture
  version: 2.0.0
tags:
  - name: packs
    description: ${description}
paths: {}
`;

testRule('api/v1-operation-mentions', {
  valid: [{ name: 'a description naming only unversioned paths', files: { [OPENAPI]: openapiDescribing('Mirrors `/packs/*` and `/packs-test/*`.') } }],
  invalid: [
    {
      name: 'one v1 path named twice in one description',
      files: { [OPENAPI]: openapiDescribing('Mirrors the production `/v1/packs/*` surface; the production `/v1/packs/*` surface is a registry service.') },
      errors: [{ messageId: 'v1-mention', file: OPENAPI, line: 7, column: 18, data: { text: '/v1/packs/', key: 'description' } }],
    },
    {
      name: 'two v1 paths in one description, each once',
      files: { [OPENAPI]: openapiDescribing('Mirrors `/v1/packs/*` under `/v1/packs-test/*`.') },
      errors: [
        { messageId: 'v1-mention', file: OPENAPI, line: 7, column: 18, data: { text: '/v1/packs-test/', key: 'description' } },
        { messageId: 'v1-mention', file: OPENAPI, line: 7, column: 18, data: { text: '/v1/packs/', key: 'description' } },
      ],
    },
  ],
});
