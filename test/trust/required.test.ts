/**
 * What the corpus must contain is checked, and what it must not hold (links, devices, paths out
 * of the root) is a finding: a deleted or symlinked registry fails check and stops generate.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../core/config/load.js';
import { loadCorpus } from '../../core/model/corpus.js';
import { cli, run } from '../helpers.js';
import { copyCorpus, findingPlaces, tempTree, tempDir } from './helpers.js';

const REQUIRED_MESSAGE =
  /^the corpus must contain spec\/v2\/errors\.json \(config `required`\), but it (does not exist|is a symbolic link)/;

describe('required files and irregular entries', { timeout: 180_000 }, () => {
  it('a deleted registry: check fails at it, generate writes nothing, the stamp keeps it', async () => {
    const root = copyCorpus();
    const stamp = readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8');
    rmSync(path.join(root, 'spec/v2/errors.json'));
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    const report = JSON.parse(result.stdout) as {
      diagnostics: Array<{ rule: string; file: string; line: number; message: string }>;
    };
    expect(report.diagnostics.filter((d) => d.rule === 'corpus/required')).toEqual([
      expect.objectContaining({
        file: 'spec/v2/errors.json',
        line: 1,
        message: expect.stringMatching(REQUIRED_MESSAGE),
      }),
    ]);
    const generate = await cli(['generate', '--root', root]);
    expect(generate.status).toBe(1);
    expect(generate.stderr).toMatch(/nothing written/);
    expect(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')).toBe(stamp);
    expect((await cli(['generate', '--check', '--root', root])).status).toBe(1);
    const stamped = await cli(['stamp', '--root', root]);
    expect(stamped.status).toBe(1);
    expect(stamped.stdout).toContain('corpus/required');
    expect(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')).toBe(stamp);
  });

  it('a registry replaced by a symbolic link out of the root: a finding at the link, never read', async () => {
    const root = copyCorpus();
    const outside = path.join(tempDir(), 'errors.json');
    writeFileSync(outside, readFileSync(path.join(root, 'spec/v2/errors.json')));
    rmSync(path.join(root, 'spec/v2/errors.json'));
    symlinkSync(outside, path.join(root, 'spec/v2/errors.json'));
    symlinkSync('/etc/passwd', path.join(root, 'docs/passwd.md'));
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    const found = findingPlaces(result.stdout);
    expect(found).toContain('corpus/irregular spec/v2/errors.json:1:1');
    expect(found).toContain('corpus/irregular docs/passwd.md:1:1');
    expect(found).toContain('corpus/required spec/v2/errors.json:1:1');
    expect(result.stdout).not.toContain('root:x:0');
    expect((await cli(['generate', '--root', root])).status).toBe(1);
  });

  it('a directory reached through a symbolic link out of the root is not read, and says so', async () => {
    const root = copyCorpus();
    const elsewhere = tempDir();
    writeFileSync(path.join(elsewhere, 'x.md'), '# X\n\n[broken](nowhere.md)\n');
    symlinkSync(elsewhere, path.join(root, 'docs/linked'));
    const found = findingPlaces((await cli(['check', '--root', root, '--format', 'json'])).stdout);
    expect(found).toContain('corpus/irregular docs/linked:1:1');
    expect(found.some((f) => f.includes('docs/linked/x.md'))).toBe(false);
  });

  it('a config that requires a file names the entry of its list; a required file may be turned off', () => {
    const root = tempTree({
      'openwop-spec.config.json': '{\n  "required": [\n    "docs/a.md",\n    "spec/v2/errors.json"\n  ]\n}\n',
      'docs/a.md': '# A\n',
    });
    const found = run('corpus/required', loadCorpus(root, { config: loadConfig(root) }));
    expect(found.map((d) => `${d.file}:${d.line}:${d.column}`)).toEqual(['openwop-spec.config.json:4:5']);
    expect(found[0]?.message).toMatch(REQUIRED_MESSAGE);
    const none = tempTree({ 'openwop-spec.config.json': '{"required": []}\n', 'docs/a.md': '# A\n' });
    expect(run('corpus/required', loadCorpus(none, { config: loadConfig(none) }))).toEqual([]);
  });

  it('a root holding only docs/notes.md is not clean: it lacks every required file', async () => {
    const root = tempTree({ 'docs/notes.md': '# Notes\n' });
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.status).toBe(1);
    expect(findingPlaces(result.stdout).filter((f) => f.startsWith('corpus/required')).length).toBe(6);
    expect((await cli(['check', '--root', root])).stdout).not.toMatch(/no problems/);
  });

  it('an empty spec/ is an empty corpus, reported by what it lacks, not as a missing corpus', async () => {
    const root = tempDir();
    mkdirSync(path.join(root, 'spec'));
    const result = await cli(['check', '--root', root, '--format', 'json']);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(1);
    expect(findingPlaces(result.stdout).filter((f) => f.startsWith('corpus/required')).length).toBe(6);
    // A root with nothing of a corpus at all is still a wrong --root, said in one line.
    const nothing = await cli(['check', '--root', tempDir()]);
    expect(nothing.status).toBe(2);
    expect(nothing.stderr).toMatch(/^openwop-spec: no corpus under /);
  });

  it('a file that cannot be read is a finding at it, and the rest is checked', async () => {
    const root = tempTree({
      'openwop-spec.config.json': '{"required": []}\n',
      'docs/a.md': '# A\n',
      'docs/b.md': '# B\n\n[x](nowhere.md)\n',
    });
    // A FIFO is listed as not a regular file, and never opened (opening one would block the run).
    execFileSync('mkfifo', [path.join(root, 'docs/pipe.md')]);
    const result = await cli(['check', '--root', root, '--format', 'json']);
    const found = findingPlaces(result.stdout);
    expect(found).toContain('corpus/irregular docs/pipe.md:1:1');
    expect(found).toContain('links/file docs/b.md:3:1');
  });
});
