/**
 * `check --fix-dry-run` prints a patch of the corpus's own text. On a terminal no escape sequence
 * of a corpus file reaches the screen (a line erased and the cursor moved up could hide what the fix
 * changes); piped, the patch keeps its bytes, so that it applies. The terminal is a real one:
 * util-linux's `script` runs the CLI under a pseudo-terminal.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, cliEnv, copyFixture } from '../helpers.js';

const HIDING = '\u001b[2K\u001b[1A';
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
if (!hasScript) console.log('dry-run-terminal: util-linux `script` is not installed; the terminal case is skipped');

/** The good fixture with an old status line (which docs/structure fixes) followed by escape sequences on its line. */
function corpusWithHidingStatus(): string {
  const root = copyFixture('good');
  const file = path.join(root, 'spec/v2/core/a.md');
  const text = readFileSync(file, 'utf8');
  expect(text).toContain('> **Status: Stable.**');
  writeFileSync(
    file,
    text.replace('> **Status: Stable.**', `> **Status: Stable · v2.0.1 (2026-01-01).** ${HIDING}hidden`),
  );
  return root;
}

describe('check --fix-dry-run and the terminal', { timeout: 60_000 }, () => {
  it('keeps the bytes of the patch when it is piped', () => {
    const root = corpusWithHidingStatus();
    const run = spawnSync(process.execPath, [CLI, 'check', '--fix-dry-run', '--root', root], {
      encoding: 'utf8',
      env: cliEnv(),
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`+> **Status: Stable.** ${HIDING}hidden`);
  });

  it.skipIf(!hasScript)('shows escape sequences of the corpus as text on a terminal', () => {
    const root = corpusWithHidingStatus();
    const command = [process.execPath, CLI, 'check', '--fix-dry-run', '--root', root]
      .map((word) => `'${word.replace(/'/g, `'\\''`)}'`)
      .join(' ');
    const run = spawnSync('script', ['-qec', command, '/dev/null'], { encoding: 'utf8', env: cliEnv() });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('+> **Status: Stable.** \\u001b[2K\\u001b[1Ahidden');
    expect(run.stdout).not.toContain(HIDING);
  });
});
