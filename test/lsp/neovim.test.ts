/**
 * The server in a real editor: headless Neovim (Debian's neovim, 0.7 or later) runs
 * neovim/session.lua through its own LSP client over a private copy of this corpus; the script
 * exits non-zero on the first expectation that fails, which fails this test.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI, CORPUS_ENTRIES, REPO } from '../helpers.js';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const present = nvim.status === 0;
if (!present) console.log('skipped: nvim is not installed (apt-get install -y neovim)');

const CORPUS = [...CORPUS_ENTRIES, 'openwop-spec.config.json'];
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe.skipIf(!present)('Neovim', () => {
  it('types a broken citation and sees it, applies a fix, hovers, goes to the definition, lists references, completes and renames', () => {
    const root = mkdtempSync(path.join(tmpdir(), 'openwop-nvim-'));
    roots.push(root);
    for (const entry of CORPUS) cpSync(path.join(REPO, entry), path.join(root, entry), { recursive: true });
    const script = path.join(REPO, 'test', 'lsp', 'neovim', 'session.lua');
    const result = spawnSync('nvim', ['--headless', '--clean', '-n', '-c', `luafile ${script}`], {
      cwd: root,
      env: {
        ...process.env,
        OPENWOP_ROOT: root,
        OPENWOP_CLI: CLI,
        OPENWOP_NODE: process.execPath,
        XDG_STATE_HOME: root,
        XDG_DATA_HOME: root,
      },
      encoding: 'utf8',
      timeout: 240_000,
    });
    expect(result.stderr.trim() === '' ? result.status : `${result.status}: ${result.stderr}`).toBe(0);
  }, 300_000);
});
