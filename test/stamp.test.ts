import { createHash } from 'node:crypto';
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, doc } from './helpers.js';

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

describe('openwop-spec stamp', { timeout: 60_000 }, () => {
  it('hashes each file as written: with a byte order mark, CRLF or mixed line ends, and plain', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'openwop-stamp-'));
    roots.push(root);
    mkdirSync(path.join(root, 'spec/v2/core'), { recursive: true });
    writeFileSync(path.join(root, 'package.json'), '{ "name": "@openwop/spec", "version": "2.0.1" }\n');
    writeFileSync(path.join(root, 'openwop-spec.config.json'), '{"required": []}\n');
    const files: Record<string, string> = {
      'spec/v2/core/plain.md': doc('Plain', 'Text.'),
      'spec/v2/core/bom.md': `\uFEFF${doc('Bom', 'Text.')}`,
      'spec/v2/core/crlf.md': doc('Crlf', 'Text.').replace(/\n/g, '\r\n'),
      'spec/v2/core/mixed.md': doc('Mixed', 'Text.\r\nMore.'),
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(path.join(root, file), text);
    expect((await cli(['stamp', '--root', root])).status).toBe(0);
    const stamp = JSON.parse(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8')) as {
      files: Record<string, string>;
    };
    for (const file of Object.keys(files))
      expect(stamp.files[file], file).toBe(
        createHash('sha256')
          .update(readFileSync(path.join(root, file)))
          .digest('hex'),
      );
    expect((await cli(['stamp', '--check', '--root', root])).status).toBe(0);
  });

  it('writes the stamp with its digest, says when it is current, and fails --check once a shipped file changes', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'openwop-stamp-'));
    roots.push(root);
    mkdirSync(path.join(root, 'spec/v2/core'), { recursive: true });
    writeFileSync(path.join(root, 'package.json'), '{ "name": "@openwop/spec", "version": "2.0.1" }\n');
    writeFileSync(path.join(root, 'spec/v2/core/a.md'), doc('A', 'Text.'));
    // One document, none of the registries a full corpus must contain.
    writeFileSync(path.join(root, 'openwop-spec.config.json'), '{"required": []}\n');

    expect((await cli(['stamp', '--check', '--root', root])).status).toBe(1);
    const written = await cli(['stamp', '--root', root]);
    expect(written.status).toBe(0);
    const digest = /sha256:[0-9a-f]{64}/.exec(written.stdout)?.[0];
    const stamp = JSON.parse(readFileSync(path.join(root, 'CORPUS-STAMP.json'), 'utf8'));
    expect(stamp).toMatchObject({
      package: '@openwop/spec-artifacts',
      version: '2.0.1',
      canonicalization: 'RFC 8785',
      digest,
    });
    expect(Object.keys(stamp.files)).toEqual(['spec/v2/core/a.md']);
    expect((await cli(['stamp', '--check', '--root', root])).stdout).toBe(`CORPUS-STAMP.json is current: ${digest}\n`);

    appendFileSync(path.join(root, 'spec/v2/core/a.md'), '\nMore.\n');
    const stale = await cli(['stamp', '--check', '--root', root, '--format', 'json']);
    expect(stale.status).toBe(1);
    // One finding per stale entry: the edited file's hash, and the digest over them.
    expect(JSON.parse(stale.stdout).diagnostics).toMatchObject([
      {
        rule: 'generated/drift',
        file: 'CORPUS-STAMP.json',
        message: expect.stringContaining('files.spec/v2/core/a.md is '),
      },
      { rule: 'generated/drift', file: 'CORPUS-STAMP.json', message: expect.stringContaining('digest is ') },
    ]);
    expect((await cli(['check', '--root', root])).status).toBe(1);
    expect((await cli(['stamp', '--root', root])).stdout).not.toContain(digest);
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });
});
