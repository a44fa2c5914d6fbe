/**
 * The shape of the house (ARCHITECTURE.md): imports point down the layers and enter another
 * core folder only through its index.ts; a rule's id is its file's path; every rule has a test
 * file of the same name. The analysis is a pure function of file texts, so it is tested on a
 * planted violation as well as on the real tree.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../checks/index.js';
import { REPO } from './helpers.js';

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

function sourceFiles(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const entry of readdirSync(path.join(REPO, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts')) files.set(child, readFileSync(path.join(REPO, child), 'utf8'));
    }
  };
  for (const top of ['core', ...Object.keys(TOP)]) walk(top);
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
    expect(shapeViolations(sourceFiles())).toEqual([]);
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
