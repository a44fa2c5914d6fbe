import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO } from './helpers.js';

describe('the toolchain package', () => {
  it('exports the verifier for consumers as @openwop/spec/verify', () => {
    const script =
      "const m = await import('@openwop/spec/verify'); console.log([typeof m.verifyArtifacts, typeof m.requireVerifiedArtifacts, m.PACKAGE_NAME].join(' '));";
    const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim()).toBe('function function @openwop/spec-artifacts');
  });
});
