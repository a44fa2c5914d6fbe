import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { ArtifactsVerificationError, requireVerifiedArtifacts } from '../../core/release/consumer.js';
import { stagePackage } from '../../core/release/stage.js';
import { buildStamp, formatStamp, parseStamp } from '../../core/release/stamp.js';
import type { ArtifactTree } from '../../core/release/tree.js';
import { verifyArtifacts, verifyTree } from '../../core/release/verify.js';
import { cli } from '../helpers.js';
import { edit, stampedCopy } from './helpers.js';

const problems = (result: { problems: Array<{ kind: string; file: string }> }) =>
  result.problems.map((p) => `${p.kind} ${p.file}`);

describe('verify a repository checkout', () => {
  it('passes on a freshly stamped corpus, and reports the digest the stamp records', () => {
    const root = stampedCopy();
    const result = verifyArtifacts(root);
    expect(result).toMatchObject({ ok: true, kind: 'repository', files: 11, problems: [] });
    expect(result.digest).toBe(parseStamp(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')).stamp?.digest);
    expect(verifyArtifacts(root, { digest: result.digest ?? '' }).ok).toBe(true);
    expect(verifyArtifacts(root, { digest: (result.digest ?? '').slice('sha256:'.length).toUpperCase() }).ok).toBe(
      true,
    );
  });

  it('names the file after a one-byte change in each shipped file, one at a time', () => {
    const root = stampedCopy();
    const stamp = parseStamp(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')).stamp;
    const files = Object.keys(stamp?.files ?? {});
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      const target = path.join(root, file);
      const original = readFileSync(target);
      const changed = Buffer.from(original);
      changed[0] = (changed[0] ?? 0) ^ 0x01;
      writeFileSync(target, changed);
      expect(problems(verifyArtifacts(root))).toEqual([`altered ${file}`]);
      writeFileSync(target, original);
    }
    expect(verifyArtifacts(root).ok).toBe(true);
  });

  it('names a deleted file and an extra file, and ignores what a repository holds outside the shipped directories', () => {
    const root = stampedCopy();
    rmSync(path.join(root, 'api/v2/asyncapi.yaml'));
    writeFileSync(path.join(root, 'schemas/v2/stray.schema.json'), '{}\n');
    writeFileSync(path.join(root, 'docs/new.md'), '# New\n');
    expect(problems(verifyArtifacts(root))).toEqual([
      'missing api/v2/asyncapi.yaml',
      'unlisted schemas/v2/stray.schema.json',
    ]);
  });

  it('catches a tampered stamp: an edited hash breaks its digest, a recomputed digest breaks the pin', () => {
    const root = stampedCopy();
    const pinned = verifyArtifacts(root).digest ?? '';
    const stampPath = path.join(root, 'CORPUS-STAMP.json');
    const original = readFileSync(stampPath, 'utf8');
    const stamp = JSON.parse(original);
    stamp.files['spec/v2/errors.json'] = '0'.repeat(64);
    writeFileSync(stampPath, JSON.stringify(stamp, null, 2));
    expect(problems(verifyArtifacts(root))).toEqual(['stamp CORPUS-STAMP.json', 'altered spec/v2/errors.json']);

    // An attacker who rewrites a file and its stamp consistently passes without a pin, never with one.
    edit(root, 'spec/v2/errors.json', (text) => text.replace('Too many requests.', 'Fine.'));
    writeFileSync(stampPath, original);
    const { stamp: forged } = parseStamp(original);
    const rebuilt = buildStamp(
      forged?.package ?? '',
      forged?.version ?? '',
      new Map(Object.keys(forged?.files ?? {}).map((file) => [file, readFileSync(path.join(root, file))])),
    );
    writeFileSync(stampPath, formatStamp(rebuilt));
    expect(verifyArtifacts(root).ok).toBe(true);
    expect(problems(verifyArtifacts(root, { digest: pinned }))).toEqual(['digest CORPUS-STAMP.json']);
  });

  it('reports a missing or malformed stamp instead of throwing', () => {
    const root = stampedCopy();
    writeFileSync(path.join(root, 'CORPUS-STAMP.json'), '{"package": 1}');
    expect(verifyArtifacts(root).problems.map((p) => p.message)).toContain(
      'malformed stamp: "package" is missing or not a string',
    );
    rmSync(path.join(root, 'CORPUS-STAMP.json'));
    expect(problems(verifyArtifacts(root))).toEqual(['missing CORPUS-STAMP.json']);
  });
});

describe('verify a package', () => {
  let files: Map<string, Buffer>;
  const tree = (edit?: (files: Map<string, Buffer>) => void): ArtifactTree => {
    const copy = new Map(files);
    edit?.(copy);
    return { label: 'staged', kind: 'package', files: copy, irregular: [] };
  };

  beforeAll(async () => {
    const root = stampedCopy();
    files = (await stagePackage(loadCorpus(root), { version: '1.4.2', license: 'Apache-2.0' })).files;
  });

  it('accounts for every file: corpus files by the corpus stamp, the rest by the package record', () => {
    const result = verifyTree(tree());
    expect(result.problems).toEqual([]);
    expect(result.files).toBe(files.size - 2);
  });

  it('names an altered type declaration, README or package.json, and an extra file anywhere', () => {
    const result = verifyTree(
      tree((copy) => {
        copy.set(
          'types/index.d.ts',
          Buffer.concat([copy.get('types/index.d.ts') ?? Buffer.alloc(0), Buffer.from(' ')]),
        );
        copy.set('README.md', Buffer.from('# Something else\n'));
        copy.set('index.js', Buffer.from('process.exit(0)\n'));
        copy.delete('types/schemas/v2/run.schema.d.ts');
      }),
    );
    expect(problems(result)).toEqual([
      'altered README.md',
      'unlisted index.js',
      'altered types/index.d.ts',
      'missing types/schemas/v2/run.schema.d.ts',
    ]);
  });

  it('refuses a package without its package record, or with one built around another corpus', () => {
    expect(problems(verifyTree(tree((copy) => copy.delete('PACKAGE-STAMP.json'))))).toEqual([
      'missing PACKAGE-STAMP.json',
      'unlisted README.md',
      'unlisted lib/cli.d.ts',
      'unlisted lib/cli.js',
      'unlisted lib/validator.d.ts',
      'unlisted lib/validator.js',
      'unlisted lib/verify.d.ts',
      'unlisted lib/verify.js',
      'unlisted package.json',
      'unlisted schemas.json',
      'unlisted types/index.d.ts',
      'unlisted types/schemas/v2/ids.schema.d.ts',
      'unlisted types/schemas/v2/run.schema.d.ts',
      'unlisted types/spec/v2/errors.schema.d.ts',
      'unlisted vocabulary.json',
    ]);
    const record = JSON.parse(files.get('PACKAGE-STAMP.json')?.toString('utf8') ?? '{}');
    record.corpus = `sha256:${'1'.repeat(64)}`;
    const result = verifyTree(tree((copy) => copy.set('PACKAGE-STAMP.json', Buffer.from(JSON.stringify(record)))));
    expect(result.problems.map((p) => p.message)).toEqual([
      expect.stringMatching(/built around corpus sha256:1111/),
      expect.stringMatching(/edited/),
    ]);
  });

  it('gives consumers a function that throws, naming every problem, on a mismatch', () => {
    const root = stampedCopy();
    const digest = verifyArtifacts(root).digest ?? '';
    expect(requireVerifiedArtifacts(root, digest).ok).toBe(true);
    edit(root, 'spec/v2/errors.json', (text) => text.replace('404', '410'));
    expect(() => requireVerifiedArtifacts(root, digest)).toThrow(ArtifactsVerificationError);
    expect(() => requireVerifiedArtifacts(root, digest)).toThrow(/spec\/v2\/errors\.json\s+altered/);
  });
});

describe('openwop-spec verify', () => {
  it('exits 0 on a good release, 1 naming the file on a bad one, 2 on a bad argument', async () => {
    const root = stampedCopy();
    const good = await cli(['verify', root]);
    expect(good.status).toBe(0);
    expect(good.stdout).toMatch(
      /^verified @openwop\/spec-artifacts@1\.4\.2: 11 files match their hashes in the stamp \(CORPUS-STAMP\.json\), 12 files in all, digest sha256:[0-9a-f]{64}\n$/,
    );
    edit(root, 'api/v2/openapi.yaml', (text) => text.replace('Created.', 'Made.'));
    const bad = await cli(['verify', root]);
    expect(bad.status).toBe(1);
    expect(bad.stdout).toMatch(/^ {2}api\/v2\/openapi\.yaml {2}altered {2}api\/v2\/openapi\.yaml was altered/);
    expect(bad.stdout).toMatch(/failed: 1 problem\n$/);
    const json = await cli(['verify', root, '--format', 'json']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      ok: false,
      problems: [{ kind: 'altered', file: 'api/v2/openapi.yaml' }],
    });
    expect(await cli(['verify', root, '--digest', 'sha256:xyz'])).toMatchObject({
      status: 2,
      stderr: 'openwop-spec: --digest sha256:xyz is not sha256:<64 hex digits>\n',
    });
    expect(await cli(['verify', path.join(root, 'nope')])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/does not exist\n$/),
    });
    expect(await cli(['verify', path.join(root, 'package.json')])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/is not a readable tarball/),
    });
  }, 60_000);
});
