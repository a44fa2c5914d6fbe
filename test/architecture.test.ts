/**
 * The shape of the house (ARCHITECTURE.md): imports point down the layers and enter another
 * core folder only through its index.ts; a rule's id is its file's path; every rule has a test
 * file of the same name. The analysis is a pure function of file texts, so it is tested on a
 * planted violation as well as on the real tree. A folder's face (index.ts) exports by name only
 * what files outside the folder import.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.js';
import { REPO, repositoryFiles } from './helpers.js';

/**
 * The layers of core/, lowest first. A folder may import folders of lower layers only; folders
 * of one layer know nothing of each other. A new folder gets its place here and in ARCHITECTURE.md.
 */
export const CORE_LAYERS: readonly (readonly string[])[] = [
  ['fs', 'tool'],
  ['output', 'markdown'],
  ['cache'],
  ['config'],
  ['model'],
  ['run', 'schemas'],
  ['registries', 'api', 'house-rules'],
  ['release'],
];

/** The folders outside core/, and what each may import besides core's folders. */
const TOP: Record<string, readonly string[]> = {
  checks: [],
  generators: [],
  lsp: [],
  scripts: ['checks', 'generators', 'lsp'],
};

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

export function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((match) => match[2] as string);
}

const layerOf = (folder: string): number => CORE_LAYERS.findIndex((layer) => layer.includes(folder));

/** Every import that breaks the shape, as `file: import — why`. `files` maps repository paths to texts. */
export function shapeViolations(files: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  for (const [file, text] of files) {
    const [top, folder] = file.split('/');
    if (!top || !(top === 'core' || top in TOP)) continue;
    for (const specifier of importsOf(text)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
      const [targetTop, targetFolder, ...rest] = target.split('/');
      const say = (why: string): void => void problems.push(`${file}: ${specifier} — ${why}`);
      if (targetTop === 'core') {
        if (top === 'core') {
          if (layerOf(folder ?? '') === -1) {
            say(`core/${folder} has no layer: add it to CORE_LAYERS and ARCHITECTURE.md`);
            continue;
          }
          if (targetFolder === folder) {
            if (rest.join('/') === 'index.js' && path.posix.dirname(file) === `core/${folder}`)
              say('a folder does not import its own index.ts');
            continue;
          }
          if (layerOf(targetFolder ?? '') === -1) say(`core/${targetFolder} has no layer`);
          else if (layerOf(targetFolder ?? '') >= layerOf(folder ?? ''))
            say(`core/${folder} may not import core/${targetFolder}, which is not below it`);
        }
        if (rest.join('/') !== 'index.js') say(`enter core/${targetFolder} through its index.ts`);
      } else if (targetTop === top) {
        // Within checks/, only the registry imports the gates; a gate never imports another gate.
        if (top === 'checks' && file !== 'checks/index.ts')
          say('a gate does not import another gate; move shared logic into core/');
        if (top === 'generators' && file !== 'generators/index.ts')
          say('a generator does not import another generator; move shared logic into core/');
      } else if (targetTop && targetTop in TOP) {
        if (top === 'core') say('core/ knows no gate, generator or verb');
        else if (!TOP[top]?.includes(targetTop)) say(`${top}/ may not import ${targetTop}/`);
        else if (!['index.js'].includes(target.slice(targetTop.length + 1)))
          say(`${top}/ imports ${targetTop}/ through its index.ts`);
      }
    }
  }
  return problems;
}

/**
 * The folders whose files are a face's users: the code around core/ and the build and bench scripts
 * (which import the built `dist/core/...`). Tests are not users: a test may import the file that
 * defines what it tests, so a name exported only for a test stays off the face.
 */
const FACE_USERS = ['core', ...Object.keys(TOP), 'bench', 'build'];

const FACE_EXPORT = /\bexport\s+(?:type\s+)?\{([^}]*)\}\s*from\s*['"][^'"]+['"]/g;
const NAMED_IMPORT = /\b(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s*from\s*(['"])([^'"]+)\2/g;
const NAMESPACE_IMPORT = /\bimport\s+\*\s+as\s+(\w+)\s+from\s*(['"])([^'"]+)\2/g;
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(['"])([^'"]+)\1\s*\)/g;

/** `a, type B, c as d` → the names as the exporting module spells them (`a`, `B`, `c`), or as exported (`d`). */
function specifiers(list: string, side: 'imported' | 'exported'): string[] {
  return list
    .split(',')
    .map((item) => item.trim().replace(/^type\s+/, ''))
    .filter((item) => item !== '')
    .map((item) => {
      const [name, alias] = item.split(/\s+as\s+/);
      return (side === 'exported' ? (alias ?? name) : name) as string;
    });
}

/** The core folder whose index.ts a relative specifier written in `file` names (through dist/ too), if any. */
function faceNamed(file: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/^dist\//, '');
  return /^core\/([^/]+)\/index\.js$/.exec(target)?.[1];
}

/**
 * Every name a core folder's index.ts exports that no file outside the folder imports, as
 * `core/<folder>/index.ts: <name> — why`, and every `export *` (a face lists its names). A file that
 * loads a face with `import()` uses the face's names it mentions.
 */
export function faceViolations(files: ReadonlyMap<string, string>): string[] {
  const faces = new Map<string, string[]>();
  const problems: string[] = [];
  for (const [file, text] of files) {
    const folder = /^core\/([^/]+)\/index\.ts$/.exec(file)?.[1];
    if (folder === undefined) continue;
    if (/\bexport\s*\*/.test(text)) problems.push(`${file}: export * — a face exports its names one by one`);
    faces.set(
      folder,
      [...text.matchAll(FACE_EXPORT)].flatMap((match) => specifiers(match[1] as string, 'exported')),
    );
  }
  const used = new Map([...faces.keys()].map((folder) => [folder, new Set<string>()]));
  for (const [file, text] of files) {
    if (!FACE_USERS.includes(file.split('/')[0] ?? '')) continue;
    const inside = file.startsWith('core/') ? file.split('/')[1] : undefined;
    const use = (folder: string | undefined, names: Iterable<string>): void => {
      if (folder === undefined || folder === inside) return;
      for (const name of names) used.get(folder)?.add(name);
    };
    for (const match of text.matchAll(NAMED_IMPORT))
      use(faceNamed(file, match[3] as string), specifiers(match[1] as string, 'imported'));
    for (const match of text.matchAll(NAMESPACE_IMPORT)) {
      const folder = faceNamed(file, match[3] as string);
      const member = new RegExp(`\\b${match[1] as string}\\.(\\w+)`, 'g');
      use(
        folder,
        [...text.matchAll(member)].map((m) => m[1] as string),
      );
    }
    for (const match of text.matchAll(DYNAMIC_IMPORT)) {
      const folder = faceNamed(file, match[2] as string);
      const names = faces.get(folder ?? '') ?? [];
      use(
        folder,
        names.filter((name) => new RegExp(`\\b${name}\\b`).test(text)),
      );
    }
  }
  for (const [folder, names] of faces)
    for (const name of names)
      if (!used.get(folder)?.has(name))
        problems.push(`core/${folder}/index.ts: ${name} — exported, but no file outside core/${folder} imports it`);
  return problems;
}

function faceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (/\.(?:ts|mts|mjs|cjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts'))
        files.set(child, readFileSync(path.join(REPO, child), 'utf8'));
    }
  };
  for (const top of FACE_USERS) walk(top);
  return files;
}

/** Groups of fixture files with the same bytes (paths sorted), from a map of path to content. */
export function byteCopies(files: ReadonlyMap<string, Buffer>): string[][] {
  const byDigest = new Map<string, string[]>();
  for (const [file, bytes] of files) {
    const digest = createHash('sha256').update(bytes).digest('hex');
    byDigest.set(digest, [...(byDigest.get(digest) ?? []), file]);
  }
  return [...byDigest.values()].filter((group) => group.length > 1).map((group) => group.sort());
}

function fixtureBytes(): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) files.set(child, readFileSync(path.join(REPO, child)));
    }
  };
  walk('test/fixtures');
  return files;
}

describe('the shape of the house', () => {
  it("finds a planted import that runs back up, skips a layer's index, or crosses between gates", () => {
    const planted = new Map([
      ['core/model/corpus.ts', "import { planGeneration } from '../run/index.js';"],
      [
        'core/registries/errors.ts',
        "import { locate } from '../model/structured.js';\nconst lazy = await import('../release/index.js');",
      ],
      ['core/run/engine.ts', "import { x } from '../schemas/index.js';"],
      [
        'checks/links/anchor.ts',
        "import other from '../docs/structure.js';\nimport { y } from '../../scripts/common.js';",
      ],
      ['core/output/write.ts', "import { CHECKS } from '../../checks/index.js';"],
      ['core/newfolder/a.ts', "import { z } from '../model/index.js';"],
      [
        'core/model/positions.ts',
        "import { fine } from './structured.js';\nimport { alsoFine } from '../cache/index.js';",
      ],
    ]);
    expect(shapeViolations(planted)).toEqual([
      'core/model/corpus.ts: ../run/index.js — core/model may not import core/run, which is not below it',
      'core/registries/errors.ts: ../model/structured.js — enter core/model through its index.ts',
      'core/registries/errors.ts: ../release/index.js — core/registries may not import core/release, which is not below it',
      'core/run/engine.ts: ../schemas/index.js — core/run may not import core/schemas, which is not below it',
      'checks/links/anchor.ts: ../docs/structure.js — a gate does not import another gate; move shared logic into core/',
      'checks/links/anchor.ts: ../../scripts/common.js — checks/ may not import scripts/',
      'core/output/write.ts: ../../checks/index.js — core/ knows no gate, generator or verb',
      'core/newfolder/a.ts: ../model/index.js — core/newfolder has no layer: add it to CORE_LAYERS and ARCHITECTURE.md',
    ]);
  });

  it('holds on this tree: imports point down the layers, through index.ts', () => {
    expect(shapeViolations(repositoryFiles(['core', ...Object.keys(TOP)], (name) => name.endsWith('.ts')))).toEqual([]);
  });

  it('finds a face export no other folder imports, and an export *', () => {
    const planted = new Map([
      [
        'core/model/index.ts',
        "/** x */\nexport { used, type Shape, loaded } from './a.js';\nexport { onlyInside } from './b.js';",
      ],
      ['core/output/index.ts', "/** y */\nexport * from './reporters.js';"],
      ['core/model/c.ts', "import { onlyInside } from './index.js';"],
      ['checks/links/anchor.ts', "import { used, type Shape as S } from '../../core/model/index.js';"],
      ['scripts/main.ts', "const { loaded } = await import('../core/model/index.js');"],
      ['test/model/b.test.ts', "import { onlyInside } from '../../core/model/index.js';"],
    ]);
    expect(faceViolations(planted)).toEqual([
      'core/output/index.ts: export * — a face exports its names one by one',
      'core/model/index.ts: onlyInside — exported, but no file outside core/model imports it',
    ]);
  });

  it('holds on this tree: every face exports by name only what another folder imports', () => {
    expect(faceViolations(faceFiles())).toEqual([]);
  });

  it('finds fixture files that are byte copies of each other', () => {
    const planted = new Map([
      ['test/fixtures/b/config.json', Buffer.from('{}')],
      ['test/fixtures/a/config.json', Buffer.from('{}')],
      ['test/fixtures/a/other.json', Buffer.from('[]')],
    ]);
    expect(byteCopies(planted)).toEqual([['test/fixtures/a/config.json', 'test/fixtures/b/config.json']]);
  });

  it('holds on this tree: no fixture file is a byte copy of another (a case extends a base instead)', () => {
    expect(byteCopies(fixtureBytes())).toEqual([]);
  });

  it('gives every core folder a layer and an index.ts whose first line says what it is for', () => {
    const folders = readdirSync(path.join(REPO, 'core'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
    expect(folders.filter((folder) => layerOf(folder) === -1)).toEqual([]);
    expect(readdirSync(path.join(REPO, 'core')).filter((name) => name.endsWith('.ts'))).toEqual([]);
    for (const folder of folders) {
      const index = path.join(REPO, 'core', folder, 'index.ts');
      expect(existsSync(index), `core/${folder}/index.ts`).toBe(true);
      expect(readFileSync(index, 'utf8').split('\n')[0], `core/${folder}/index.ts`).toMatch(/^\/\*\* .{20,} \*\/$/);
    }
  });

  it('names each gate after its rule id, registers every gate file, and gives each a test file', () => {
    const files = readdirSync(path.join(REPO, 'checks'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((family) =>
        readdirSync(path.join(REPO, 'checks', family.name))
          .filter((f) => f.endsWith('.ts'))
          .map((f) => `${family.name}/${f.replace(/\.ts$/, '')}`),
      )
      .sort();
    expect(CHECKS.map((check) => check.id).sort()).toEqual(files);
    for (const id of files) {
      const source = readFileSync(path.join(REPO, 'checks', `${id}.ts`), 'utf8');
      expect(source, `checks/${id}.ts declares its own id`).toContain(`id: '${id}'`);
      expect(existsSync(path.join(REPO, 'test', 'checks', `${id}.test.ts`)), `test/checks/${id}.test.ts`).toBe(true);
    }
  });
});
