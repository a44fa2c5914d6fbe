import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { jcs } from '../../core/output/digest.js';
import { canonicalJson, verifyArtifacts as verifyOwn } from '../../core/release/shipped/verify.js';
import { stagePackage, writeStaged } from '../../core/release/stage.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import { stampedCopy, tempDir } from './helpers.js';

/** The verifier the package carries agrees with the toolchain's on every staged package. */
describe("the artifacts' own verifier", () => {
  let files: Map<string, Buffer>;
  const staged = (edit?: (root: string) => void): string => {
    const root = path.join(tempDir(), 'package');
    writeStaged(root, files);
    edit?.(root);
    return root;
  };
  const named = (problems: Array<{ kind: string; file: string }>) => problems.map((problem) => `${problem.kind} ${problem.file}`).sort();

  beforeAll(async () => {
    files = (await stagePackage(loadCorpus(stampedCopy()), { version: '1.4.2', license: 'Apache-2.0' })).files;
  });

  it('writes RFC 8785 as the canonicalize library does, for the records and for awkward values', () => {
    for (const value of [JSON.parse(String(files.get('CORPUS-STAMP.json'))), { b: [1, 2.5, -0, 1e21, null, true], a: 'é\u2028"\\', '\u00e9': 1, z: {} }, 'x', 0.1]) expect(canonicalJson(value)).toBe(jcs(value));
  });

  it('passes the package as staged, with the digest the toolchain computes', () => {
    const root = staged();
    const own = verifyOwn(root, { digest: verifyArtifacts(root).digest ?? '' });
    expect(own).toMatchObject({ ok: true, problems: [], files: files.size - 2, digest: verifyArtifacts(root).digest });
    expect(verifyOwn(root, { digest: `sha256:${'0'.repeat(64)}` }).problems).toEqual([expect.objectContaining({ kind: 'digest', file: 'CORPUS-STAMP.json' })]);
  });

  it('names the same files as the toolchain after one byte changes in each kind of file, an extra file, a deletion and a link', () => {
    for (const file of ['spec/v2/errors.json', 'lib/verify.js', 'types/index.d.ts', 'README.md', 'schemas.json', 'vocabulary.json', 'package.json']) {
      const root = staged((dir) => {
        const bytes = readFileSync(path.join(dir, file));
        bytes[bytes.length - 2] = (bytes[bytes.length - 2] ?? 0) ^ 1;
        writeFileSync(path.join(dir, file), bytes);
      });
      const own = verifyOwn(root);
      expect(own.ok).toBe(false);
      expect(named(own.problems)).toContain(`altered ${file}`);
      expect(named(own.problems)).toEqual(named(verifyArtifacts(root).problems));
    }
    const root = staged((dir) => {
      writeFileSync(path.join(dir, 'index.js'), 'process.exit(0)\n');
      rmSync(path.join(dir, 'types/schemas/v2/run.schema.d.ts'));
      symlinkSync('/etc/passwd', path.join(dir, 'spec/v2/link.json'));
    });
    expect(named(verifyOwn(root).problems)).toEqual(['missing types/schemas/v2/run.schema.d.ts', 'unlisted index.js', 'unlisted spec/v2/link.json']);
  });
});
