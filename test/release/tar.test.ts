import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar, TarError } from '../../core/release/tar.js';
import { loadCorpus } from '../../core/model/corpus.js';
import { packCorpus } from '../../core/release/pack.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import { cli, spawnCli } from '../helpers.js';
import { compareStrings } from '../../core/output/index.js';
import { stampedCopy, tempDir, writeRawTarball } from './helpers.js';

describe('the tar reader', () => {
  const long = `package/${'deep/'.repeat(25)}a-file-whose-path-is-longer-than-the-hundred-bytes-of-a-tar-name-field.json`;

  for (const format of ['ustar', 'pax', 'gnu']) {
    it(`reads ${format} archives, gzipped or not, long paths included`, () => {
      const root = tempDir();
      mkdirSync(path.join(root, path.dirname(long)), { recursive: true });
      writeFileSync(path.join(root, long), '{"long": true}\n');
      writeFileSync(path.join(root, 'package/short.txt'), 'é\n');
      const tarball = path.join(root, 'x.tar');
      const result = spawnSync('tar', [`--format=${format}`, '-cf', tarball, '-C', root, 'package'], {
        encoding: 'utf8',
      });
      expect(result.status, result.stderr).toBe(0);
      const bytes = readFileSync(tarball);
      for (const input of [bytes, gzipSync(bytes)]) {
        const files = readTar(input).filter((entry) => entry.type === 'file');
        expect(
          files
            .map((entry) => [entry.path, entry.data.toString('utf8')])
            .sort((a, b) => compareStrings(a[0] ?? '', b[0] ?? '')),
        ).toEqual([
          [long, '{"long": true}\n'],
          ['package/short.txt', 'é\n'],
        ]);
      }
    });
  }

  it('refuses what is not a tar archive, and a corrupt header', () => {
    expect(() => readTar(Buffer.from('{"name": "x"}\n'))).toThrow(TarError);
    expect(() => readTar(Buffer.from([0x1f, 0x8b, 0, 1, 2]))).toThrow(/not a readable tar archive: zlib/);
    const block = Buffer.alloc(1024);
    block.write('name', 0);
    block.write('0000644', 100);
    block.write('12345670', 148);
    expect(() => readTar(block)).toThrow(/not a readable tar archive: .*checksum/);
  });
});

describe('verify reads a hostile tarball safely', () => {
  const base = async () => {
    const root = stampedCopy();
    const packed = await packCorpus(loadCorpus(root), { version: '1.4.2', out: tempDir() });
    return readTar(readFileSync(packed.tarball)).filter((entry) => entry.type === 'file');
  };

  it('passes the packed entries rewritten as they were, and names a duplicate path, a link, a hard link and a device', async () => {
    const entries = (await base()).map((entry) => ({ path: entry.path, data: entry.data }));
    const clean = path.join(tempDir(), 'clean.tgz');
    await writeRawTarball(clean, entries);
    expect(verifyArtifacts(clean)).toMatchObject({ ok: true });

    const hostile = path.join(tempDir(), 'hostile.tgz');
    const run = entries.find((entry) => entry.path === 'package/schemas/v2/run.schema.json');
    await writeRawTarball(hostile, [
      ...entries,
      // A second copy of a listed file: whichever one an extractor keeps, the stamp hashed only one.
      { path: 'package/schemas/v2/run.schema.json', data: Buffer.from('{"type": "object"}\n') },
      { path: 'package/schemas/v2/alias.json', type: 'SymbolicLink', linkpath: '/etc/passwd' },
      { path: 'package/schemas/v2/hard.json', type: 'Link', linkpath: 'package/schemas/v2/run.schema.json' },
      { path: 'package/dev', type: 'CharacterDevice' },
    ]);
    expect(run).toBeDefined();
    const result = verifyArtifacts(hostile);
    expect(result.ok).toBe(false);
    expect(
      result.problems
        .filter((problem) => problem.kind === 'entry')
        .map((problem) => [problem.file, problem.message.replace(/ (appears|is not).*/, '')]),
    ).toEqual([
      ['dev', 'dev (CharacterDevice)'],
      ['schemas/v2/alias.json', 'schemas/v2/alias.json (SymbolicLink)'],
      ['schemas/v2/hard.json', 'schemas/v2/hard.json (Link)'],
      ['schemas/v2/run.schema.json', 'schemas/v2/run.schema.json'],
    ]);
    expect(await cli(['diff', hostile, clean])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/schemas\/v2\/run\.schema\.json appears more than once in the tarball/),
    });
  }, 60_000);

  it('verifies a small tarball that inflates to a gigabyte in bounded memory, naming the file', async () => {
    const entries = (await base()).map((entry) => ({ path: entry.path, data: entry.data }));
    const bomb = path.join(tempDir(), 'bomb.tgz');
    await writeRawTarball(bomb, [...entries, { path: 'package/spec/v2/zeros.bin', zeros: 2 ** 30 }]);
    expect(statSync(bomb).size).toBeLessThan(6 * 2 ** 20);
    // Spawned: the peak resident size is the whole process's.
    const result = spawnCli(['verify', bomb, '--format', 'json'], {
      env: { ...process.env, OPENWOP_SPEC_TIMING: '1' },
    });
    expect(result.status).toBe(1);
    expect(JSON.parse(result.stdout).problems).toEqual([
      expect.objectContaining({ kind: 'unlisted', file: 'spec/v2/zeros.bin' }),
    ]);
    const peak = Number(/total \(process\).*?(\d+) \(peak resident\)/.exec(result.stderr)?.[1]);
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan(400);
  }, 120_000);
});
