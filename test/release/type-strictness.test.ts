/**
 * The TypeScript types of @openwop/spec-artifacts are as strict as the schemas: this repository's
 * corpus staged as the package in a consumer's node_modules, and the consumer files of
 * types-must-fail/ and types-must-compile/ checked under `tsc --strict` (see type-expectations.ts).
 * The packed tarballs go through the same check in repository.test.ts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { stagePackage, writeStaged } from '../../core/release/stage.js';
import { patternTemplates } from '../../core/release/type-shapes.js';
import { REPO } from '../helpers.js';
import { tempDir } from './helpers.js';
import { typeExpectations, type TypeExpectation } from './type-expectations.js';

describe('types as strict as the schemas', () => {
  let expectations: TypeExpectation[];

  beforeAll(async () => {
    const { version } = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    const { files } = await stagePackage(loadCorpus(REPO), { version, license: 'Apache-2.0' });
    const project = tempDir('openwop-types-');
    writeStaged(path.join(project, 'node_modules', '@openwop', 'spec-artifacts'), files);
    expectations = typeExpectations(project);
  }, 180_000);

  it('rejects every must-fail file on exactly the lines it marks, each with its reason', () => {
    const failing = expectations.filter((entry) => entry.file.startsWith('types-must-fail/'));
    expect(failing.length).toBeGreaterThanOrEqual(7);
    for (const entry of failing) {
      expect(entry.reason, entry.file).not.toBe('');
      expect(entry.expected.length, entry.file).toBeGreaterThan(0);
      expect({ file: entry.file, errors: entry.reported }).toEqual({ file: entry.file, errors: entry.expected });
    }
  });

  it('compiles every must-compile file with no error', () => {
    const compiling = expectations.filter((entry) => entry.file.startsWith('types-must-compile/'));
    expect(compiling.length).toBeGreaterThanOrEqual(1);
    for (const entry of compiling)
      expect({ file: entry.file, errors: entry.reported }).toEqual({ file: entry.file, errors: [] });
  });

  it('reads a pattern as the template literal types its matches belong to, never narrower', () => {
    expect(patternTemplates('^(?:acme|example)\\.[a-z][a-z0-9]*$')).toEqual([
      '`acme.${string}`',
      '`example.${string}`',
    ]);
    expect(patternTemplates('^(?=(?:acme|example)\\.)(?!openwop\\.)[a-z]+\\.[a-z_]*$')).toEqual([
      '`acme.${string}`',
      '`example.${string}`',
    ]);
    expect(patternTemplates('^[A-Za-z0-9._~-]{1,128}/[A-Za-z0-9._~-]{16,128}$')).toEqual(['`${string}/${string}`']);
    expect(patternTemplates('^(core|community)(\\.[a-z][a-z0-9_-]*)+$')).toEqual([
      '`core.${string}`',
      '`community.${string}`',
    ]);
    expect(patternTemplates('^/runs/')).toEqual(['`/runs/${string}`']);
    // Nothing literal to keep, an alternation at the top, or no anchor: left as string.
    expect(patternTemplates('^[0-9a-f]{64}$')).toBeUndefined();
    expect(patternTemplates('^a|b$')).toBeUndefined();
    expect(patternTemplates('a\\.b')).toBeUndefined();
    expect(patternTemplates('^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$')).toEqual(['`${string}.${string}`']);
  });
});
