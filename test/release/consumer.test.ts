/**
 * The package's validator helper (lib/validator.js) as a consumer runs it, on whichever Node.js runs
 * the suite: `npm run test:lts` runs this file under the current LTS too. The full install through
 * npm (test/release/repository.test.ts) runs once, on the Node.js that runs npm; here this
 * repository's corpus is staged as the package, placed where a consumer's node_modules would hold
 * it beside the ajv it peers on, and the consumer fixture validates good and bad documents with it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { stagePackage, writeStaged } from '../../core/release/stage.js';
import { REPO } from '../helpers.js';
import { tempDir } from './helpers.js';

describe('the staged package in a consumer project', () => {
  let project: string;

  beforeAll(async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const { files } = await stagePackage(loadCorpus(REPO), { version, license: 'Apache-2.0' });
    project = tempDir('openwop-consumer-');
    writeStaged(path.join(project, 'node_modules', '@openwop', 'spec-artifacts'), files);
    // The peers the helper and the plain-ajv path import, as a consumer's install would place them.
    for (const peer of ['ajv', 'ajv-formats'])
      symlinkSync(path.join(REPO, 'node_modules', peer), path.join(project, 'node_modules', peer), 'dir');
    cpSync(path.join(REPO, 'test', 'fixtures', 'consumer', 'validate.mjs'), path.join(project, 'validate.mjs'));
  }, 120_000);

  it(`validates with the helper and with a plain ajv as the README says, on Node.js ${process.version}`, () => {
    const validated = spawnSync(process.execPath, ['validate.mjs'], { cwd: project, encoding: 'utf8' });
    expect(validated.stderr).toBe('');
    expect(validated.status).toBe(0);
    const verdicts = { event: true, badEvent: false, envelope: true, badEnvelope: false };
    expect(JSON.parse(validated.stdout)).toEqual({ helper: verdicts, plain: verdicts });
  });
});
