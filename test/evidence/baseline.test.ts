import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { evidenceDirectory, evidenceFiles, replaceOnce } from './support.js';

const baselineOf = (root: string) =>
  JSON.parse(readFileSync(path.join(root, 'docs/witness-baseline.json'), 'utf8')) as Record<string, unknown>;

describe('openwop-spec baseline', { timeout: 60_000 }, () => {
  it('shows the counts against the baseline and writes nothing without --update', async () => {
    const root = evidenceDirectory('witness-good');
    const before = readFileSync(path.join(root, 'docs/witness-baseline.json'), 'utf8');
    const result = await cli(['baseline', '--root', root]);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('seam-gated: 2 (baseline 2)\nunwitnessable: 2 (baseline 2)\n');
    expect(readFileSync(path.join(root, 'docs/witness-baseline.json'), 'utf8')).toBe(before);
  });

  it('lowers the baseline on --update once a seam is gone, and then check is clean again', async () => {
    const root = evidenceDirectory('witness-good');
    const declaration = path.join(root, 'spec/v2/declaration.json');
    writeFileSync(
      declaration,
      replaceOnce(
        readFileSync(declaration, 'utf8'),
        '"key": "heartbeat", "kind": "family", "anchor": "core", "witness": "seam-gated"',
        '"key": "heartbeat", "kind": "family", "anchor": "core", "witness": "witnessable-gated"',
      ),
    );
    const warned = await cli(['check', '--root', root, '--rule', 'witness/classes']);
    expect(warned.status).toBe(0);
    expect(warned.stdout).toContain(
      '1 seam-gated entries (families, requirements and invariants), below the baseline of 2; the baseline can be lowered to 1',
    );

    const updated = await cli(['baseline', '--root', root, '--update', '--measured', '2026-10-01']);
    expect(updated.status).toBe(0);
    expect(updated.stdout).toBe(
      'seam-gated: 1 (baseline 2, below it)\nunwitnessable: 2 (baseline 2)\nwrote docs/witness-baseline.json\n',
    );
    expect(baselineOf(root)).toEqual({
      $schema: '../spec/v2/witness-baseline.schema.json',
      measured: '2026-10-01',
      seamGated: 1,
      unwitnessable: 2,
    });
    expect((await cli(['check', '--root', root, '--rule', 'witness/classes'])).stdout).toMatch(/no problems/);
    expect((await cli(['baseline', '--root', root, '--update'])).stdout).toContain(
      'docs/witness-baseline.json is current; nothing written',
    );
  });

  it('refuses to raise the ratchet unless asked to with --allow-rise', async () => {
    const root = evidenceDirectory('witness-good');
    const declaration = path.join(root, 'spec/v2/declaration.json');
    writeFileSync(
      declaration,
      replaceOnce(readFileSync(declaration, 'utf8'), '"witness": "claims-check"', '"witness": "seam-gated"'),
    );
    const refused = await cli(['baseline', '--root', root, '--update']);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toBe(
      'baseline: not written: seam-gated would rise from 2 to 3. The ratchet only goes down; pass --allow-rise to record a rise deliberately\n',
    );
    expect(baselineOf(root).seamGated).toBe(2);
    expect(
      (await cli(['baseline', '--root', root, '--update', '--allow-rise', '--measured', '2026-10-02'])).status,
    ).toBe(0);
    expect(baselineOf(root)).toMatchObject({ measured: '2026-10-02', seamGated: 3 });
  });

  it('creates a missing baseline, and says in one line what is wrong with a bad date', async () => {
    const files = evidenceFiles('witness-good');
    delete files['docs/witness-baseline.json'];
    const root = evidenceDirectory(files);
    const bad = await cli(['baseline', '--root', root, '--update', '--measured', 'yesterday']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toBe('openwop-spec: --measured "yesterday" is not a date (YYYY-MM-DD)\n');
    const created = await cli(['baseline', '--root', root, '--update', '--measured', '2026-09-04']);
    expect(created.stdout).toBe('seam-gated: 2\nunwitnessable: 2\nwrote docs/witness-baseline.json\n');
    expect(baselineOf(root)).toEqual({
      $schema: '../spec/v2/witness-baseline.schema.json',
      measured: '2026-09-04',
      seamGated: 2,
      unwitnessable: 2,
    });
  });

  it('refuses to count from registries that do not validate', async () => {
    const root = evidenceDirectory('witness-good', { 'SECURITY/invariants.yaml': 'invariants: 7\n' });
    const result = await cli(['baseline', '--root', root, '--update']);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'SECURITY/invariants.yaml:1:1: does not match spec/v2/invariants.schema.json: /invariants: must be array',
    );
  });
});
