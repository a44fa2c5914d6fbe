/**
 * The must-fail and must-compile consumer files of test/release/types-must-fail and
 * types-must-compile, type-checked together under `tsc --strict` in a project that has
 * @openwop/spec-artifacts installed: each must-fail file must fail exactly on the lines it marks
 * `// expect-error TSnnnn`, with that code; a must-compile file must not fail at all.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { REPO } from '../helpers.js';

const TSC = path.join(REPO, 'node_modules', '.bin', 'tsc');
const FOLDERS = ['types-must-fail', 'types-must-compile'] as const;

export interface TypeExpectation {
  file: string;
  /** `line TSnnnn`, sorted: what the file marks, and what tsc reported. */
  expected: string[];
  reported: string[];
  reason: string;
}

/** The expectation files, copied into `project`, checked in one tsc run. */
export function typeExpectations(project: string): TypeExpectation[] {
  const files: Array<{ relative: string; folder: string; text: string }> = [];
  for (const folder of FOLDERS) {
    const source = path.join(REPO, 'test', 'release', folder);
    for (const name of readdirSync(source)
      .filter((entry) => entry.endsWith('.ts'))
      .sort()) {
      cpSync(path.join(source, name), path.join(project, folder, name));
      files.push({ relative: `${folder}/${name}`, folder, text: readFileSync(path.join(source, name), 'utf8') });
    }
  }
  writeFileSync(
    path.join(project, 'tsconfig.expectations.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        module: 'nodenext',
        moduleResolution: 'nodenext',
        target: 'es2022',
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: files.map((file) => file.relative),
    }),
  );
  const result = spawnSync(TSC, ['-p', path.join(project, 'tsconfig.expectations.json'), '--pretty', 'false'], {
    cwd: project,
    encoding: 'utf8',
  });
  const reported = new Map<string, string[]>();
  for (const match of `${result.stdout}${result.stderr}`.matchAll(/^(.+?)\((\d+),\d+\): error (TS\d+):/gm)) {
    const file = (match[1] as string).replace(/\\/g, '/');
    reported.set(file, [...(reported.get(file) ?? []), `${match[2]} ${match[3]}`]);
  }
  return files.map(({ relative, text }) => ({
    file: relative,
    expected: text
      .split('\n')
      .flatMap((line, index) =>
        [...line.matchAll(/\/\/ expect-error (TS\d+)/g)].map((mark) => `${index + 1} ${mark[1]}`),
      )
      .sort(),
    reported: [...new Set(reported.get(relative) ?? [])].sort(),
    reason: /^\/\/ Reason: (.*)$/m.exec(text)?.[1] ?? '',
  }));
}
