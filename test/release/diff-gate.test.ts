/**
 * `diff` as a gate: the config's impacts (by rule id, by family, per file glob, off), `--rules`,
 * `--fail-on`, `--output` and the github annotations, driven through the built CLI.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../helpers.js';
import { BASE, edit, editJson, tempDir } from './helpers.js';

/** A copy of the base fixture with an error code removed (breaking) and a document added (additive). */
function changedRelease(): string {
  const root = tempDir();
  cpSync(BASE, root, { recursive: true });
  editJson(root, 'spec/v2/errors.json', (registry) => registry.rows.splice(0, 1));
  writeFileSync(path.join(root, 'spec/v2/core/new.md'), '# New\n\nA line.\n');
  return root;
}

/** A directory holding only a config, for --config. */
function configWith(diff: unknown): string {
  const file = path.join(tempDir(), 'openwop-spec.config.json');
  writeFileSync(file, `${JSON.stringify({ diff })}\n`);
  return file;
}

describe('diff impacts from the config', () => {
  it('resets a rule by id, a family by family/*, per file glob, and leaves out a rule set off', async () => {
    const after = changedRelease();
    const plain = JSON.parse((await cli(['diff', BASE, after, '--format', 'json'])).stdout);
    expect(plain.counts).toEqual({ breaking: 1, additive: 1, editorial: 0 });

    const byId = JSON.parse(
      (
        await cli([
          'diff',
          BASE,
          after,
          '--format',
          'json',
          '--config',
          configWith({ impacts: { 'error/removed': 'additive' } }),
        ])
      ).stdout,
    );
    expect(byId.counts).toEqual({ breaking: 0, additive: 2, editorial: 0 });
    expect(byId.required).toBe('minor');

    const byFamily = JSON.parse(
      (
        await cli([
          'diff',
          BASE,
          after,
          '--format',
          'json',
          '--config',
          configWith({ impacts: { 'document/*': 'off' } }),
        ])
      ).stdout,
    );
    expect(byFamily.changes.map((change: { rule: string }) => change.rule)).toEqual(['error/removed']);

    // An override for the file wins over the top-level impact; one for other files does not apply.
    const perPath = configWith({
      impacts: { 'error/removed': 'editorial' },
      overrides: [
        { files: ['spec/v2/*.json'], impacts: { 'error/*': 'breaking' } },
        { files: ['docs/**'], impacts: { 'error/removed': 'off' } },
      ],
    });
    const overridden = JSON.parse((await cli(['diff', BASE, after, '--format', 'json', '--config', perPath])).stdout);
    expect(overridden.counts.breaking).toBe(1);
  }, 60_000);

  it('rejects a config that names no change rule, in one line with exit 2', async () => {
    const result = await cli([
      'diff',
      BASE,
      BASE,
      '--config',
      configWith({ impacts: { 'error/no-such-rule': 'breaking' } }),
    ]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/"error\/no-such-rule" names no change rule; `.*diff --rules` lists them/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const badImpact = await cli([
      'diff',
      BASE,
      BASE,
      '--config',
      configWith({ impacts: { 'error/removed': 'fatal' } }),
    ]);
    expect(badImpact.status).toBe(2);
  });

  it('lists the change rules with their ids, default impacts (by direction for schemas) and the configured impact', async () => {
    const listed = await cli([
      'diff',
      '--rules',
      '--config',
      configWith({ impacts: { 'heading/removed': 'editorial' } }),
    ]);
    expect(listed.status).toBe(0);
    expect(listed.stdout).toMatch(/^event\/added +additive +an event type was added$/m);
    expect(listed.stdout).toMatch(/^schema\/required-added +request breaking, response additive +/m);
    expect(listed.stdout).toMatch(/^heading\/removed +breaking \(config: editorial\) +/m);
    const json = JSON.parse((await cli(['diff', '--rules', '--format', 'json'])).stdout);
    expect(json.rules.length).toBeGreaterThan(30);
    expect(json.rules.find((rule: { id: string }) => rule.id === 'schema/enum-added')).toMatchObject({
      byDirection: { request: 'additive', response: 'additive' },
    });
    expect(await cli(['diff', BASE])).toMatchObject({ status: 2, stderr: expect.stringMatching(/needs two releases/) });
  });
});

describe('diff as a gate', () => {
  it('--fail-on fails at or above the impact, --output writes the report, github annotates the new release', async () => {
    const after = changedRelease();
    expect((await cli(['diff', BASE, after, '--fail-on', 'breaking'])).status).toBe(1);
    expect((await cli(['diff', BASE, after, '--fail-on', 'additive'])).status).toBe(1);
    const additiveOnly = tempDir();
    cpSync(BASE, additiveOnly, { recursive: true });
    writeFileSync(path.join(additiveOnly, 'spec/v2/core/new.md'), '# New\n\nA line.\n');
    expect((await cli(['diff', BASE, additiveOnly, '--fail-on', 'breaking'])).status).toBe(0);
    expect((await cli(['diff', BASE, additiveOnly, '--fail-on', 'additive'])).status).toBe(1);
    expect((await cli(['diff', BASE, after, '--fail-on', 'editorial'])).status).toBe(2);

    const report = path.join(tempDir(), 'notes.md');
    const written = await cli(['diff', BASE, after, '--format', 'markdown', '--output', report]);
    expect(written).toMatchObject({ status: 0, stdout: '' });
    const notes = readFileSync(report, 'utf8');
    expect(notes).toMatch(
      /## Breaking changes\n\n### Error codes\n\n- error code `invalid_request` \(400\) was removed \(was `spec\/v2\/errors\.json:7`; error\/removed\)/,
    );
    expect(notes).toMatch(/## Additions\n\n### Documents\n/);

    const github = await cli(['diff', BASE, after, '--format', 'github']);
    expect(github.stdout.trim().split('\n')).toEqual([
      '::error file=spec/v2/errors.json,line=1,col=1,title=diff/error/removed::breaking: error code `invalid_request` (400) was removed (was spec/v2/errors.json:7)',
      '::warning file=spec/v2/core/new.md,line=1,col=1,title=diff/document/added::additive: spec/v2/core/new.md was added',
      '::notice title=@openwop/spec-artifacts diff::1 breaking, 1 additive, 0 editorial: a major version bump required',
    ]);
  }, 60_000);

  it('annotates a changed line of the new release where the model knows it', async () => {
    const root = tempDir();
    cpSync(BASE, root, { recursive: true });
    edit(root, 'spec/v2/core/errors.md', (text) => text.replace('MAY retry', 'SHOULD retry'));
    editJson(root, 'spec/v2/errors.json', (registry) =>
      registry.rows.push({ ...registry.rows[0], code: 'conflict', httpStatus: 409 }),
    );
    const github = await cli(['diff', BASE, root, '--format', 'github']);
    expect(github.stdout).toMatch(
      /^::warning file=spec\/v2\/errors\.json,line=\d{2},col=1,title=diff\/error\/added::additive: error code `conflict` \(409\) was added$/m,
    );
    // Editorial changes are release notes, not annotations.
    expect(github.stdout).not.toMatch(/errors\.md/);
  }, 60_000);
});
