/**
 * Paths the user names on the command line go through the guarded layer too: a report's --output
 * and pack's --out may lie outside the root (the flag means it) but are never written through a
 * link; a release tarball given to verify is not followed through a link; and a path the corpus
 * asks after (`exists`) never leaves the root through one.
 */
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { existsInside } from '../../core/fs/index.js';
import { loadArtifactTree } from '../../core/release/tree.js';
import { ReleaseSourceError } from '../../core/release/index.js';
import { cli, fixture } from '../helpers.js';
import { tempDir } from './helpers.js';

describe('paths given on the command line', { timeout: 120_000 }, () => {
  it('writes --output outside the root when asked, and refuses one that is a symbolic link, leaving its target alone', async () => {
    const elsewhere = tempDir();
    const report = path.join(elsewhere, 'report.json');
    const plain = await cli(['check', '--root', fixture('good'), '--format', 'json', '--output', report]);
    expect(plain.status).toBe(0);
    expect(JSON.parse(readFileSync(report, 'utf8'))).toHaveProperty('diagnostics');

    const target = path.join(elsewhere, 'precious.txt');
    writeFileSync(target, 'keep me\n');
    const link = path.join(elsewhere, 'linked.json');
    symlinkSync(target, link);
    const refused = await cli(['check', '--root', fixture('good'), '--format', 'json', '--output', link]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('is a symbolic link');
    expect(readFileSync(target, 'utf8')).toBe('keep me\n');
  });

  it('does not read a release tarball through a symbolic link', () => {
    const elsewhere = tempDir();
    const real = path.join(elsewhere, 'real.tgz');
    writeFileSync(real, Buffer.alloc(1024));
    const link = path.join(elsewhere, 'release.tgz');
    symlinkSync(real, link);
    expect(() => loadArtifactTree(link)).toThrow(/is a symbolic link; it is not followed/);
    // The file itself is read (and is no tarball): the refusal is the link's.
    expect(() => loadArtifactTree(real)).toThrow(ReleaseSourceError);
    expect(() => loadArtifactTree(real)).not.toThrow(/symbolic link/);
  });

  it('answers whether a path exists inside the root without following a link out of it', () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(outside, 'secret'));
    writeFileSync(path.join(root, 'here.md'), '# here\n');
    symlinkSync(outside, path.join(root, 'out'));
    expect(existsInside(root, 'here.md')).toBe(true);
    expect(existsInside(root, 'missing.md')).toBe(false);
    expect(existsInside(root, '../elsewhere')).toBe(false);
    expect(existsSync(path.join(root, 'out', 'secret'))).toBe(true);
    expect(existsInside(root, 'out/secret')).toBe(false);
  });
});
