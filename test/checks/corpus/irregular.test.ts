import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixture, run, where } from '../../helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function root(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'openwop-irregular-'));
  roots.push(made);
  mkdirSync(path.join(made, 'docs'));
  writeFileSync(path.join(made, 'docs/a.md'), '# A\n');
  return made;
}

describe('corpus/irregular', () => {
  it('reports a link to a file, inside or out of the root, and a linked directory, each at the link', () => {
    const made = root();
    const outside = root();
    symlinkSync('/etc/passwd', path.join(made, 'docs/passwd.md'));
    symlinkSync('a.md', path.join(made, 'docs/same.md'));
    symlinkSync(path.join(outside, 'docs'), path.join(made, 'docs/elsewhere'));
    const found = run('corpus/irregular', made);
    expect(where(found)).toEqual(['docs/elsewhere:1:1', 'docs/passwd.md:1:1', 'docs/same.md:1:1']);
    expect(found[1]?.message).toMatch(/^docs\/passwd\.md is a symbolic link; the corpus is read from regular files inside the root only/);
  });

  it('is quiet on a corpus of regular files', () => {
    expect(run('corpus/irregular', root())).toEqual([]);
    expect(run('corpus/irregular', fixture('good'))).toEqual([]);
  });
});
