import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar, TarError } from '../../core/release/tar.js';
import { tempDir } from './helpers.js';

describe('the tar reader', () => {
  const long = `package/${'deep/'.repeat(25)}a-file-whose-path-is-longer-than-the-hundred-bytes-of-a-tar-name-field.json`;

  for (const format of ['ustar', 'pax', 'gnu']) {
    it(`reads ${format} archives, gzipped or not, long paths included`, () => {
      const root = tempDir();
      mkdirSync(path.join(root, path.dirname(long)), { recursive: true });
      writeFileSync(path.join(root, long), '{"long": true}\n');
      writeFileSync(path.join(root, 'package/short.txt'), 'é\n');
      const tarball = path.join(root, 'x.tar');
      const result = spawnSync('tar', [`--format=${format}`, '-cf', tarball, '-C', root, 'package'], { encoding: 'utf8' });
      expect(result.status, result.stderr).toBe(0);
      const bytes = readFileSync(tarball);
      for (const input of [bytes, gzipSync(bytes)]) {
        const files = readTar(input).filter((entry) => entry.type === 'file');
        expect(files.map((entry) => [entry.path, entry.data.toString('utf8')]).sort()).toEqual([
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
