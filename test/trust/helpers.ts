import { afterAll } from 'vitest';
import { copyCorpus, edit, removeTempDirs, reported, snapshotFiles, tempDir, tempTree } from '../helpers.js';

afterAll(removeTempDirs);

export { copyCorpus, edit, snapshotFiles, tempDir, tempTree };

/** The files that differ between two snapshots, or are in one only, sorted. */
export function changed(before: Map<string, Buffer>, after: Map<string, Buffer>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .filter((name) => !before.has(name) || !after.has(name) || !before.get(name)?.equals(after.get(name) as Buffer))
    .sort();
}

/** The findings of a JSON report as `rule file:line:column`. */
export function findingPlaces(stdout: string): string[] {
  return reported(stdout).map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}
