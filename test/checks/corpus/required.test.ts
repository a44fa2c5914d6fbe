import { rmSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../core/config/index.js';
import { defaultConfig } from '../../../core/config/index.js';
import { corpusFromFiles, loadCorpus } from '../../../core/model/index.js';
import { copyFixture, REPO, run, where } from '../../helpers.js';
import { testRule } from '../../rule-tester.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

testRule('corpus/required', {
  valid: [
    { name: 'every file the config requires is there' },
    { name: 'a config that requires nothing, over a corpus without the file the base requires', files: { 'api/v2/openapi.yaml': null }, config: { required: [] } },
  ],
  invalid: [
    {
      name: 'reports a required file the corpus lacks at the config entry that requires it',
      files: { 'api/v2/openapi.yaml': null },
      errors: [{ messageId: 'missing', file: 'openwop-spec.config.json', line: 1, column: 15, data: { file: 'api/v2/openapi.yaml' } }],
    },
  ],
});

describe('corpus/required', { timeout: 60_000 }, () => {
  it('reports each required file the corpus lacks, at the file, by default', () => {
    const found = run('corpus/required', { 'docs/notes.md': '# Notes\n' });
    expect(where(found)).toEqual(defaultConfig().required.map((file) => `${file}:1:1`).sort());
    expect(found[0]?.message).toMatch(/^the corpus must contain .* \(config `required`\), but it does not exist/);
  });

  it('reports at the config entry that requires it, and names a link for what it is', () => {
    const root = copyFixture('errors/corpus');
    roots.push(root);
    const registry = path.join(root, 'spec/v2/errors.json');
    rmSync(registry);
    symlinkSync('/etc/passwd', registry);
    const found = run('corpus/required', loadCorpus(root, { config: loadConfig(root) }));
    expect(where(found)).toEqual(['openwop-spec.config.json:1:15']);
    expect(found[0]?.message).toMatch(/but it is a symbolic link, which the corpus does not read/);
  });

  it('is quiet when every required file is there: this repository, and a config that requires nothing', () => {
    expect(run('corpus/required', loadCorpus(REPO, { cache: false }))).toEqual([]);
    expect(run('corpus/required', corpusFromFiles('/r', { 'docs/a.md': '# A\n' }, { ...defaultConfig(), required: [] }))).toEqual([]);
  });
});
