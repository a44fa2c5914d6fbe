import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { asExpected, testRule } from '../../rule-tester.js';
import { run } from '../../helpers.js';

const A = 'spec/v2/core/a.md';
const NFD = 'spec/v2/core/cafe\u0301.md';
const NFC = 'spec/v2/core/caf\u00e9.md';

testRule('corpus/irregular', {
  valid: [
    { name: 'a corpus of regular files with names of their own' },
    { name: 'names that differ by more than case', files: { 'spec/v2/core/a2.md': '# A2\n' } },
  ],
  invalid: [
    {
      name: 'two names that differ only in case: at the later one, naming the first',
      files: { 'spec/v2/core/A.md': '# A, again\n' },
      errors: [
        {
          messageId: 'name-collision',
          file: A,
          line: 1,
          column: 1,
          data: { file: A, other: 'spec/v2/core/A.md', how: 'case' },
        },
      ],
    },
    {
      name: 'two names that differ only in Unicode normalization',
      files: { [NFC]: '# Café\n', [NFD]: '# Café, decomposed\n' },
      errors: [
        {
          messageId: 'name-collision',
          file: NFC,
          line: 1,
          column: 1,
          data: { file: NFC, other: NFD, how: 'Unicode normalization (NFC/NFD)' },
        },
      ],
    },
  ],
});

// Links are what the rule tester's cases (files as text) cannot hold: these corpora are made on disk.
const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

function root(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'openwop-irregular-'));
  roots.push(made);
  mkdirSync(path.join(made, 'docs'));
  writeFileSync(path.join(made, 'docs/a.md'), '# A\n');
  return made;
}

describe('corpus/irregular on links', () => {
  it('reports a link to a file, inside or out of the root, and a linked directory, each at the link', () => {
    const made = root();
    const outside = root();
    symlinkSync('/etc/passwd', path.join(made, 'docs/passwd.md'));
    symlinkSync('a.md', path.join(made, 'docs/same.md'));
    symlinkSync(path.join(outside, 'docs'), path.join(made, 'docs/elsewhere'));
    const link = (file: string) => ({
      messageId: 'not-regular',
      file,
      line: 1,
      column: 1,
      data: { file, kind: 'a symbolic link' },
    });
    const expected = [link('docs/elsewhere'), link('docs/passwd.md'), link('docs/same.md')];
    expect(asExpected(run('corpus/irregular', made), expected)).toEqual(expected);
  });

  it('is quiet on a root of regular files', () => {
    expect(run('corpus/irregular', root())).toEqual([]);
  });
});
