/**
 * `check --fix` writes its fixed and regenerated files as one journalled set, as `generate` does:
 * a kill while staging changes nothing, a kill between the renames is finished by the next run.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, spawnWithFault } from '../helpers.js';
import { changed, copyCorpus, snapshotFiles } from '../trust/helpers.js';

const JOURNAL = '.openwop-spec-writes.json';
const DOC = 'spec/v2/core/runs.md';

const isTemporary = (file: string): boolean => /(^|\/)\.[^/]+\.\d+\.[0-9a-z]+\.tmp$/.test(file);

/** A bare document name (a fix), which makes the stamp and the core word count stale (regenerated): three files. */
function breakOne(root: string): void {
  const file = path.join(root, DOC);
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('## Why this exists\n', '## Why this exists\n\nAs errors.md lists.\n'),
  );
}

/** A check --fix run in process. */
const fix = (root: string) => cli(['check', '--root', root, '--fix']);

/** A check --fix run with a write fault injected: its own process, which the hook kills, or whose writes it counts from the first. */
describe('check --fix writes one journalled set', { timeout: 240_000 }, () => {
  it('killed while staging its second file: nothing changed; the next check --fix removes the temporaries and fixes', async () => {
    const root = copyCorpus();
    breakOne(root);
    const before = snapshotFiles(root);
    expect(spawnWithFault(['check', '--root', root, '--fix'], 'kill-at-write:2').signal).toBe('SIGKILL');
    const after = snapshotFiles(root);
    const temporaries = [...after.keys()].filter(isTemporary);
    expect(temporaries.length).toBe(1);
    expect(changed(before, after)).toEqual(temporaries);

    const next = await fix(root);
    expect(next.status).toBe(0);
    expect([...snapshotFiles(root).keys()].filter(isTemporary)).toEqual([]);
    expect(readFileSync(path.join(root, DOC), 'utf8')).toContain('As [errors.md](errors.md) lists.');
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });

  it('killed between its renames: the journal is left, check says so, and the next check --fix finishes the set', async () => {
    const root = copyCorpus();
    breakOne(root);
    const before = snapshotFiles(root);
    // Writes 1..3 stage the three files (the journal's own write is not counted); 4 is the first rename.
    expect(spawnWithFault(['check', '--root', root, '--fix'], 'kill-at-write:5').signal).toBe('SIGKILL');
    expect(existsSync(path.join(root, JOURNAL))).toBe(true);
    const mixed = changed(before, snapshotFiles(root)).filter((file) => !isTemporary(file) && file !== JOURNAL);
    expect(mixed).toHaveLength(1);

    const checked = await cli(['check', '--root', root]);
    expect(checked.stderr).toMatch(
      /^an interrupted generate left \.openwop-spec-writes\.json: some outputs were not replaced; run `[^`]+ generate` \(or `[^`]+ check --fix`\) to finish\n/,
    );
    expect(checked.status).toBe(1);

    const next = await fix(root);
    expect(next.stderr).toMatch(/^finished an interrupted generate: replaced [\w./-]+, [\w./-]+\n$/);
    expect(next.status).toBe(0);
    expect(existsSync(path.join(root, JOURNAL))).toBe(false);
    expect([...snapshotFiles(root).keys()].filter(isTemporary)).toEqual([]);
    expect(changed(before, snapshotFiles(root))).toHaveLength(3);
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });

  it('a full disk while staging: one line naming the file and the cause, exit 2, nothing changed', () => {
    const root = copyCorpus();
    breakOne(root);
    const before = snapshotFiles(root);
    const failed = spawnWithFault(['check', '--root', root, '--fix'], 'fail-at-write:2:ENOSPC');
    expect(failed.stderr).toMatch(/^openwop-spec: cannot write [\w./-]+: no space left on the device \(ENOSPC\)\n$/);
    expect(failed.status).toBe(2);
    expect(changed(before, snapshotFiles(root))).toEqual([]);
  });
});
