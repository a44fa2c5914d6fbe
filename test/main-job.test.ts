/**
 * The main job (`npm run corpus`, CI) is `openwop-spec check` alone: it runs the drift gate, which
 * plans every generator as `generate --check` does, so running `generate --check` first only
 * loaded the corpus a second time. That holds only while check reports every drift finding
 * generate --check does, at the same place: this holds it, on stale output of each kind.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers.js';
import { copyCorpus, findingPlaces } from './trust/helpers.js';

const REPO = path.resolve(import.meta.dirname, '..');

describe('the main job', () => {
  it('is check alone in package.json', () => {
    const manifest = JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.corpus).toBe('node dist/scripts/cli.js check');
  });

  it('reports, through check, every finding generate --check reports, at the same place', async () => {
    const root = copyCorpus();
    // A row added inside a generated table, and a generated JSON file edited by hand.
    const headers = path.join(root, 'spec/v2/core/headers.md');
    const text = readFileSync(headers, 'utf8');
    const region = text.indexOf('generated:');
    const row = text.indexOf('\n|', region);
    writeFileSync(headers, `${text.slice(0, row)}\n| X-Not-Generated | nothing |${text.slice(row)}`);
    const envelope = path.join(root, 'schemas/v2/error-envelope.schema.json');
    const schema = JSON.parse(readFileSync(envelope, 'utf8')) as Record<string, unknown>;
    writeFileSync(envelope, `${JSON.stringify({ ...schema, title: 'edited by hand' }, null, 2)}\n`);

    const drift = await cli(['generate', '--check', '--root', root, '--format', 'json']);
    const check = await cli(['check', '--root', root, '--format', 'json']);
    expect(drift.status).toBe(1);
    expect(check.status).toBe(1);
    const stale = findingPlaces(drift.stdout);
    expect(stale.length).toBeGreaterThanOrEqual(2);
    expect(stale.some((finding) => finding.includes('spec/v2/core/headers.md'))).toBe(true);
    expect(stale.some((finding) => finding.includes('schemas/v2/error-envelope.schema.json'))).toBe(true);
    expect(findingPlaces(check.stdout)).toEqual(expect.arrayContaining(stale));
  });
});
