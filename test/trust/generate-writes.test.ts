/**
 * `generate` applies its outputs together: a run killed or failing part-way leaves the old set or
 * (after the next run finishes the journal) the new one; an I/O error is one line naming the file
 * and the cause; a rewritten file keeps its line ends, byte order mark and mode.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverWrites, WriteError, writeSetAtomic } from '../../core/output/write.js';
import { cli, spawnWithFault } from '../helpers.js';
import { changed, copyCorpus, snapshotFiles, tempDir } from './helpers.js';

const REGISTRY = 'spec/v2/errors.json';

/** A new error code: the registry changes, and with it the errors document, counts, the envelope and the stamp. */
function addCode(root: string): void {
  const registry = JSON.parse(readFileSync(path.join(root, REGISTRY), 'utf8')) as {
    rows: Array<Record<string, unknown>>;
  };
  registry.rows.push({
    ...registry.rows.find((row) => row.httpStatus === 409),
    code: 'trust_test_conflict',
    meaning: 'A test code, registered to make every derived output stale at once.',
  });
  writeFileSync(path.join(root, REGISTRY), `${JSON.stringify(registry, null, 2)}\n`);
}

/** A generate run in process. */
const generateIn = (root: string) => cli(['generate', '--root', root]);

/** A generate run with a write fault injected: its own process, which the hook kills, or whose writes it counts from the first. */
const temporaries = (files: Map<string, Buffer>) =>
  [...files.keys()].filter((file) => /(^|\/)\.[^/]+\.\d+\.[0-9a-z]+\.tmp$/.test(file));

let staleOutputs: Promise<number> | undefined;
/**
 * The number of outputs a generate writes after `addCode` on a fresh copy: the same for every
 * case, so counted once, on a copy of its own.
 */
function staleCount(): Promise<number> {
  staleOutputs ??= (async () => {
    const root = copyCorpus();
    addCode(root);
    const report = JSON.parse((await cli(['generate', '--check', '--root', root, '--format', 'json'])).stdout) as {
      diagnostics: Array<{ rule: string; file: string }>;
    };
    // Drift is reported entry by entry; what is written is one file for each file with drift.
    return new Set(report.diagnostics.filter((d) => d.rule === 'generated/drift').map((d) => d.file)).size;
  })();
  return staleOutputs;
}

describe('generate writes all or nothing', { timeout: 240_000 }, () => {
  it('killed at its second write (while staging): nothing changed; the next run cleans up and writes the new set', async () => {
    const root = copyCorpus();
    addCode(root);
    const stale = await staleCount();
    expect(stale).toBeGreaterThanOrEqual(3);
    const before = snapshotFiles(root);
    const killed = spawnWithFault(['generate', '--root', root], 'kill-at-write:2');
    expect(killed.signal).toBe('SIGKILL');
    const after = snapshotFiles(root);
    // Only the temporaries of the killed run are new; every file is as it was.
    expect(changed(before, after)).toEqual(temporaries(after));
    expect(temporaries(after).length).toBeGreaterThan(0);

    const next = await generateIn(root);
    expect(next.status).toBe(0);
    expect(temporaries(snapshotFiles(root))).toEqual([]);
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });

  it('killed between its renames: the journal says what was left, and the next run finishes the new set', async () => {
    const root = copyCorpus();
    addCode(root);
    const stale = await staleCount();
    const before = snapshotFiles(root);
    // Writes 1..stale stage the outputs, stale+1 is the journal's own write... then the renames.
    const killed = spawnWithFault(['generate', '--root', root], `kill-at-write:${stale + 2}`);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(path.join(root, '.openwop-spec-writes.json'))).toBe(true);
    const mixed = changed(before, snapshotFiles(root)).filter(
      (file) => !temporaries(snapshotFiles(root)).includes(file) && file !== '.openwop-spec-writes.json',
    );
    expect(mixed).toHaveLength(1);

    const checked = await cli(['generate', '--check', '--root', root]);
    expect(checked.status).toBe(1);
    expect(checked.stderr).toMatch(/^an interrupted generate left \.openwop-spec-writes\.json/);
    const next = await generateIn(root);
    expect(next.status).toBe(0);
    expect(next.stderr).toMatch(/^finished an interrupted generate: replaced /);
    expect(existsSync(path.join(root, '.openwop-spec-writes.json'))).toBe(false);
    expect(temporaries(snapshotFiles(root))).toEqual([]);
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });

  it('a full disk while staging: one line naming the file and the cause, nothing changed, no temporary left', () => {
    const root = copyCorpus();
    addCode(root);
    const before = snapshotFiles(root);
    const failed = spawnWithFault(['generate', '--root', root], 'fail-at-write:2:ENOSPC');
    expect(failed.status).toBe(2);
    expect(failed.stderr).toMatch(/^openwop-spec: cannot write [\w./-]+: no space left on the device \(ENOSPC\)\n$/);
    expect(failed.stderr).not.toMatch(/internal error|\.tmp/);
    expect(changed(before, snapshotFiles(root))).toEqual([]);
  });

  it('a permission error while replacing: one line saying which files were replaced; the next run finishes', async () => {
    const root = copyCorpus();
    addCode(root);
    const stale = await staleCount();
    const failed = spawnWithFault(['generate', '--root', root], `fail-at-write:${stale + 3}:EACCES`);
    expect(failed.status).toBe(2);
    expect(failed.stderr).toMatch(
      /^openwop-spec: cannot write [\w./-]+: permission denied \(EACCES\); 2 of \d+ files were replaced \([^)]+\); the next generate finishes the rest\n$/,
    );
    expect((await generateIn(root)).status).toBe(0);
    expect((await cli(['check', '--root', root])).status).toBe(0);
  });
});

describe('generate never writes out of the root', { timeout: 240_000 }, () => {
  it('an output whose directory is a link out of the root is refused in one line, and nothing is written there', async () => {
    const root = copyCorpus();
    const outside = tempDir();
    cpSync(path.join(root, 'schemas/v2'), outside, { recursive: true });
    rmSync(path.join(root, 'schemas/v2'), { recursive: true });
    symlinkSync(outside, path.join(root, 'schemas/v2'));
    addCode(root);
    const before = snapshotFiles(outside);
    const result = await generateIn(root);
    expect(result.stderr).not.toMatch(/^wrote /m);
    // The schemas are not read through the link, so the generators that need them refuse first.
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/nothing written/);
    expect(changed(before, snapshotFiles(outside))).toEqual([]);
  });

  it('the writer itself refuses a target whose directory leads out of the root, before it stages anything', () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(root, 'spec'));
    symlinkSync(outside, path.join(root, 'spec/linked'));
    const files = [
      { path: 'spec/a.md', content: Buffer.from('a\n') },
      { path: 'spec/linked/b.md', content: Buffer.from('b\n') },
    ];
    expect(() => writeSetAtomic(root, files)).toThrow(new WriteError('spec/linked/b.md', 'ELINK'));
    expect(readdirSync(outside)).toEqual([]);
    expect(readdirSync(path.join(root, 'spec')).sort()).toEqual(['linked']);
  });
});

describe('check --fix keeps how a file is written', { timeout: 60_000 }, () => {
  it('a CRLF document with a byte order mark stays so after its fixes', async () => {
    const root = tempDir();
    const a = '\uFEFF# A\r\n\r\n> **Status: Stable.**\r\n\r\n## Why this exists\r\n\r\nSee b.md for more.\r\n';
    mkdirSync(path.join(root, 'spec/v2/core'), { recursive: true });
    writeFileSync(path.join(root, 'openwop-spec.config.json'), '{"required": []}\n');
    writeFileSync(path.join(root, 'spec/v2/core/a.md'), a);
    writeFileSync(
      path.join(root, 'spec/v2/core/b.md'),
      '# B\n\n> **Status: Stable.**\n\n## Why this exists\n\nText.\n',
    );
    const fixed = await cli(['check', '--root', root, '--fix']);
    expect(fixed.stderr).toMatch(/^fixed 1 problem/);
    const after = readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8');
    expect(after).toBe(a.replace('See b.md', 'See [b.md](b.md)'));
  });
});

describe('recovering an interrupted set of writes', () => {
  it('finishes what it can, reports what it cannot, never leaves the root, and drops the journal', () => {
    const root = tempDir();
    const outside = tempDir();
    mkdirSync(path.join(root, 'spec/dir.md'), { recursive: true });
    writeFileSync(path.join(root, 'spec/.a.md.99999999.k1.tmp'), 'new a\n');
    writeFileSync(path.join(root, 'spec/a.md'), 'old a\n');
    writeFileSync(path.join(root, 'spec/.dir.md.99999999.k2.tmp'), 'new dir\n');
    writeFileSync(path.join(root, '.evil.99999999.k3.tmp'), 'planted\n');
    writeFileSync(path.join(root, 'spec/.orphan.md.99999999.k4.tmp'), 'left by a killed run\n');
    const renames = [
      { target: 'spec/a.md', temporary: '.a.md.99999999.k1.tmp' },
      { target: 'spec/dir.md', temporary: '.dir.md.99999999.k2.tmp' },
      { target: path.relative(root, path.join(outside, 'evil')), temporary: '.evil.99999999.k3.tmp' },
    ];
    writeFileSync(path.join(root, '.openwop-spec-writes.json'), JSON.stringify({ pid: 99999999, renames }));
    const result = recoverWrites(root, ['spec']);
    expect(result.completed).toEqual(['spec/a.md']);
    // A target the journal spells outside the root is said, not silently passed over.
    expect(result.failed).toEqual([
      expect.stringMatching(/^spec\/dir\.md \(.*\)$/),
      expect.stringMatching(/evil \(.*outside the root.*\)$/),
    ]);
    expect(readFileSync(path.join(root, 'spec/a.md'), 'utf8')).toBe('new a\n');
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(root, '.openwop-spec-writes.json'))).toBe(false);
    expect(readdirSync(path.join(root, 'spec')).sort()).toEqual(['a.md', 'dir.md']);
  });
});

describe('a rewritten file keeps how it was written', { timeout: 240_000 }, () => {
  it('CRLF line ends, a byte order mark and the file mode survive generate, and the stamp hashes what was written', async () => {
    const root = copyCorpus();
    const doc = path.join(root, 'spec/v2/core/errors.md');
    writeFileSync(doc, `\uFEFF${readFileSync(doc, 'utf8').replace(/\n/g, '\r\n')}`);
    chmodSync(doc, 0o640);
    const envelope = path.join(root, 'schemas/v2/error-envelope.schema.json');
    chmodSync(envelope, 0o600);
    expect((await generateIn(root)).status).toBe(0);
    addCode(root);
    const result = await generateIn(root);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('wrote spec/v2/core/errors.md');
    const text = readFileSync(doc, 'utf8');
    expect(text.startsWith('\uFEFF')).toBe(true);
    expect(text).toContain('trust_test_conflict');
    expect(text.replace(/\r\n/g, '')).not.toContain('\n');
    expect(statSync(doc).mode & 0o777).toBe(0o640);
    expect(statSync(envelope).mode & 0o777).toBe(0o600);
    expect((await cli(['check', '--root', root])).status).toBe(0);
    expect((await cli(['generate', '--check', '--root', root])).status).toBe(0);
  });
});
