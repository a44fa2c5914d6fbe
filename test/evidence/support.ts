/**
 * Fixture corpora for the identity and evidence gates. A fixture holds only what its test is about;
 * the registry schemas and the id kinds it needs are the repository's own, copied in, so that a
 * fixture never carries a stale copy of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { FIXTURES, readTree, REPO, tempTree } from '../helpers.js';

/** The schemas the evidence gates validate their registries with, and the id kinds. */
const SUPPORT_SCHEMAS = [
  'schemas/v2/ids.schema.json',
  'spec/v2/id-field-bindings.schema.json',
  'spec/v2/requirements.schema.json',
  'spec/v2/requirement-aliases.schema.json',
  'spec/v2/invariants.schema.json',
  'spec/v2/witness-baseline.schema.json',
] as const;

export type Files = Record<string, string>;

export function supportFiles(): Files {
  return Object.fromEntries(SUPPORT_SCHEMAS.map((file) => [file, readFileSync(path.join(REPO, file), 'utf8')]));
}

/** Every file of test/fixtures/evidence/<name>, by corpus path. */
export function evidenceFiles(name: string): Files {
  return readTree(path.join(FIXTURES, 'evidence', name));
}

/** The same files written to a fresh temporary directory, for CLI runs and for edits. */
export function evidenceDirectory(source: string | Files, overrides: Files = {}): string {
  const files = { ...supportFiles(), ...(typeof source === 'string' ? evidenceFiles(source) : source), ...overrides };
  return tempTree(files, 'openwop-evidence-');
}

/** Replace the one occurrence of `from` in `text` (a test that edits a fixture must edit what it thinks). */
export function replaceOnce(text: string, from: string, to: string): string {
  const at = text.indexOf(from);
  if (at === -1 || text.indexOf(from, at + 1) !== -1) throw new Error(`expected exactly one ${JSON.stringify(from)}`);
  return text.slice(0, at) + to + text.slice(at + from.length);
}
