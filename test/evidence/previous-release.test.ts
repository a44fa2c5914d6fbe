import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { previousRelease } from '../../core/release/previous-release.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function directory(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-previous-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe('a previous release for --baseline', () => {
  it('is read from an installed package as well as from a checkout, naming what it lacks', () => {
    const requirements = '{"requirements": []}\n';
    const installed = directory({ 'package.json': '{"name": "@openwop/spec-artifacts", "version": "2.0.0"}', 'conformance/requirements.json': requirements, 'README.md': '# r\n' });
    const checkout = directory({ 'package.json': '{"name": "@openwop/spec", "version": "2.0.0"}', 'conformance/requirements.json': requirements, 'test/ignored.json': '{}' });
    for (const release of [installed, checkout]) {
      const found = previousRelease(release, release, ['conformance/requirements.json', 'SECURITY/invariants.yaml']);
      expect(found.ok).toBe(true);
      if (!found.ok) continue;
      expect(found.corpus.data('conformance/requirements.json')?.value).toEqual({ requirements: [] });
      expect(found.missing).toEqual(['SECURITY/invariants.yaml']);
    }
  });

  it('says in one sentence when the baseline is neither a path nor a ref', () => {
    const root = directory({});
    expect(previousRelease(root, '--upload-pack=x', ['conformance/requirements.json'])).toEqual({ ok: false, message: '--baseline "--upload-pack=x" is neither a directory nor a git ref' });
  });
});
