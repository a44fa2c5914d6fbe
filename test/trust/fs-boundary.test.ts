/**
 * Every read, write and delete of the tool goes through core/fs, which judges paths against the
 * root and opens files without following links. A direct import of node:fs elsewhere is a new way
 * around it: this test fails on one, unless the file is listed below with why its use is safe.
 * The analysis is a pure function of file texts, tested on planted imports as well as on the tree.
 */
import { describe, expect, it } from 'vitest';
import { repositoryFiles } from '../helpers.js';

const SOURCE_FOLDERS = ['core', 'scripts', 'checks', 'generators', 'lsp'];

/** The node:fs functions a file imports (any spelling: fs, node:fs, fs/promises, require, import()). */
export function fsImportsOf(text: string): string[] {
  const names: string[] = [];
  const FROM = /import\s+(?:type\s+)?([^;]*?)\s+from\s+['"](?:node:)?fs(?:\/promises)?['"]/g;
  for (const match of text.matchAll(FROM)) {
    const clause = match[1] ?? '';
    const braces = /\{([^}]*)\}/.exec(clause);
    if (braces)
      for (const name of (braces[1] ?? '').split(','))
        if (name.trim()) names.push((name.trim().split(/\s+as\s+/)[0] ?? '').replace(/^type\s+/, ''));
    const whole = clause
      .replace(/\{[^}]*\}/, '')
      .replace(/,/g, ' ')
      .trim();
    if (whole) names.push(`* (${whole})`);
  }
  if (/\b(?:require|import)\s*\(\s*['"](?:node:)?fs(?:\/promises)?['"]\s*\)/.test(text)) names.push('* (dynamic)');
  return names.sort();
}

/**
 * Files outside core/fs allowed to import node:fs, each with the names it may use and why that is
 * safe. A name or a file not here fails the test: route it through core/fs, or add it here with its reason.
 */
const ALLOWED: Record<string, { names: string[]; why: string }> = {
  'core/output/write.ts': {
    names: [
      'chmodSync',
      'closeSync',
      'existsSync',
      'fsyncSync',
      'lstatSync',
      'mkdirSync',
      'openSync',
      'readdirSync',
      'readFileSync',
      'renameSync',
      'rmSync',
      'statSync',
      'writeSync',
    ],
    why: 'the atomic writer itself: its callers pass paths already judged by core/fs (writeTextInside, writeSetAtomic and recoverWrites judge their own), and it opens temporaries with O_EXCL',
  },
  'core/output/digest.ts': {
    names: ['closeSync', 'readSync'],
    why: 'reads a descriptor core/fs opened (openRegularFile)',
  },
  'core/release/tar.ts': {
    names: ['closeSync', 'readSync'],
    why: 'reads a descriptor core/fs opened (openRegularFile)',
  },
  'core/tool/tool-root.ts': {
    names: ['readFileSync'],
    why: "the tool's own package.json, found from the tool's own location, never the corpus's",
  },
  'scripts/script-bundle.ts': {
    names: ['readFileSync'],
    why: "the tool's own bundled script and the code cache the build made beside it, found from the command line's own location, never from the corpus",
  },
  'core/api/official-schemas.ts': {
    names: ['readdirSync'],
    why: "lists the tool's own bundled schemas",
  },
  'core/cache/validator-cache.ts': {
    names: ['readdirSync', 'readFileSync', 'rmSync'],
    why: "the tool's own prebuilt validators, beside the tool; cache entries go through ContentCache",
  },
  'core/cache/content-cache.ts': {
    names: ['readdirSync', 'readFileSync', 'rmSync'],
    why: "lists and removes entries only in a directory judged inside the root (directoryStaysInside); rmSync never follows a link; readFileSync reads a parser's own package.json",
  },
  'core/model/file-walk.ts': {
    names: ['readdirSync'],
    why: 'lists a directory with withFileTypes: links are reported as irregular, never entered',
  },
  'core/model/load.ts': {
    names: ['existsSync', 'lstatSync', 'realpathSync', 'rmSync', 'statSync'],
    why: 'the corpus loader judges the root and each starting directory with lstat and realpath before it reads (reads go through core/fs)',
  },
  'core/config/load.ts': {
    names: ['existsSync', 'lstatSync', 'realpathSync'],
    why: 'finds the config and judges extends targets; the files themselves are read by readConfigText (core/fs, no link)',
  },
  'core/schemas/compile-thread.ts': {
    names: ['existsSync'],
    why: "whether the tool's own compiled worker file is there",
  },
  'core/release/git.ts': {
    names: ['readdirSync'],
    why: "lists the names in a repository's refs/tags (whether a version tag exists); no file is read through it",
  },
  'core/release/previous-release.ts': {
    names: ['existsSync'],
    why: 'whether a --previous-release path the user named exists, and where .git is; the release is read by tree.ts',
  },
  'core/release/stage.ts': {
    names: ['chmodSync', 'mkdirSync', 'readFileSync', 'writeFileSync'],
    why: "writes into pack's own fresh scratch directory (mkdtemp), and reads the tool's own templates",
  },
  'core/release/pack.ts': {
    names: [
      'copyFileSync',
      'mkdirSync',
      'mkdtempSync',
      'readdirSync',
      'readFileSync',
      'renameSync',
      'rmSync',
      'writeFileSync',
    ],
    why: 'works in its scratch directory and in --out, which givenTarget judged (never through a link)',
  },
  'core/release/shipped/validator.ts': {
    names: ['readFileSync'],
    why: 'shipped in the package to run on its own, without the tool: reads the schemas of its own package',
  },
  'core/release/shipped/verify.ts': {
    names: ['closeSync', 'lstatSync', 'openSync', 'readdirSync', 'readFileSync', 'readSync'],
    why: 'shipped in the package to run on its own, without the tool: it lstat-checks what it reads itself',
  },
  'scripts/run-setup.ts': {
    names: ['existsSync'],
    why: 'whether a --previous-release the user named is a path',
  },
  'scripts/check.ts': {
    names: ['existsSync', 'statSync'],
    why: 'whether file arguments the user named exist and are directories',
  },
  'scripts/generate.ts': {
    names: ['existsSync'],
    why: 'whether a path the user named exists',
  },
  'scripts/tool.ts': {
    names: ['readFileSync'],
    why: "the tool's own package.json",
  },
  'scripts/init.ts': {
    names: ['existsSync'],
    why: 'whether a config is already there before init writes one',
  },
};

/** Every use of node:fs outside core/fs that the list does not allow, as `file: name`. */
export function fsViolations(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    if (file.startsWith('core/fs/')) continue;
    const allowed = ALLOWED[file]?.names ?? [];
    for (const name of fsImportsOf(text)) if (!allowed.includes(name)) problems.push(`${file}: ${name}`);
  }
  return problems.sort();
}

describe('node:fs is imported only by core/fs, or where the list says why it is safe', () => {
  it('finds every spelling of an fs import', () => {
    expect(fsImportsOf("import { readFileSync, rmSync as remove } from 'node:fs';")).toEqual([
      'readFileSync',
      'rmSync',
    ]);
    expect(fsImportsOf("import fs from 'fs';")).toEqual(['* (fs)']);
    expect(fsImportsOf("import * as fs from 'node:fs/promises';")).toEqual(['* (* as fs)']);
    expect(fsImportsOf("const fs = await import('node:fs');")).toEqual(['* (dynamic)']);
    expect(fsImportsOf("const fs = require('fs');")).toEqual(['* (dynamic)']);
    expect(fsImportsOf("import { readInside } from '../fs/index.js';")).toEqual([]);
  });

  it('a planted import outside core/fs fails; one inside core/fs, or listed, does not', () => {
    const planted = new Map([
      ['checks/links/new-gate.ts', "import { readFileSync } from 'node:fs';"],
      ['core/output/write.ts', "import { rmSync, unlinkSync } from 'node:fs';"],
      ['core/fs/guarded.ts', "import { openSync } from 'node:fs';"],
    ]);
    expect(fsViolations(planted)).toEqual([
      'checks/links/new-gate.ts: readFileSync',
      'core/output/write.ts: unlinkSync',
    ]);
  });

  it('holds on the tree, and every listed file still uses what it is allowed', () => {
    const files = repositoryFiles(
      SOURCE_FOLDERS,
      (name) => /\.(ts|mts|cts|js|mjs)$/.test(name) && !name.endsWith('.d.ts'),
    );
    expect(files.size).toBeGreaterThan(100);
    expect(fsViolations(files)).toEqual([]);
    const stale = Object.entries(ALLOWED)
      .filter(([file, { names }]) => {
        const used = fsImportsOf(files.get(file) ?? '');
        return names.some((name) => !used.includes(name));
      })
      .map(([file]) => file);
    expect(stale).toEqual([]);
  });
});
