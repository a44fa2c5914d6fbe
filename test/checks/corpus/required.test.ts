import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultConfig, loadConfig } from '../../../core/config/index.js';
import { loadCorpus } from '../../../core/model/index.js';
import { copyFixture, run } from '../../helpers.js';
import { asExpected, testRule } from '../../rule-tester.js';

const CONFIG = 'openwop-spec.config.json';
const ABSENT = { reason: 'absent', why: 'does not exist' };

testRule('corpus/required', {
  valid: [
    { name: 'every file the config requires is there' },
    {
      name: 'a config that requires nothing, over a corpus without the file the base requires',
      files: { 'api/v2/openapi.yaml': null },
      config: { required: [] },
    },
  ],
  invalid: [
    {
      name: 'a required file the corpus lacks: at the config entry that requires it',
      files: { 'api/v2/openapi.yaml': null },
      errors: [
        { messageId: 'missing', file: CONFIG, line: 1, column: 15, data: { file: 'api/v2/openapi.yaml', ...ABSENT } },
      ],
    },
    {
      name: 'a required path that is a directory, not a file the corpus reads',
      config: { required: ['spec/v2/core'] },
      errors: [
        {
          messageId: 'missing',
          file: CONFIG,
          line: 3,
          column: 5,
          data: {
            file: 'spec/v2/core',
            reason: 'not-read',
            why: 'is not a file the corpus reads (a directory, or outside the include globs)',
          },
        },
      ],
    },
    {
      name: 'no config: each file the default config requires that the corpus lacks (all but its OpenAPI document), at the file',
      files: { [CONFIG]: null },
      errors: defaultConfig()
        .required.filter((file) => file !== 'api/v2/openapi.yaml')
        .sort()
        .map((file) => ({ messageId: 'missing', file, line: 1, column: 1, data: { file, ...ABSENT } })),
    },
  ],
});

// A link is what the rule tester's cases (files as text) cannot hold: this corpus is made on disk.
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('corpus/required on a link', { timeout: 60_000 }, () => {
  it('reports a required file that is a link at the config entry, naming it for what it is', () => {
    const root = copyFixture('errors/corpus');
    roots.push(root);
    const registry = path.join(root, 'spec/v2/errors.json');
    rmSync(registry);
    symlinkSync('/etc/passwd', registry);
    const expected = [
      {
        messageId: 'missing',
        file: CONFIG,
        line: 1,
        column: 15,
        data: {
          file: 'spec/v2/errors.json',
          reason: 'irregular',
          why: 'is a symbolic link, which the corpus does not read',
        },
      },
    ];
    expect(asExpected(run('corpus/required', loadCorpus(root, { config: loadConfig(root) })), expected)).toEqual(
      expected,
    );
  });
});
