import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { REPO } from '../helpers.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const CORPUS = ['spec', 'api', 'schemas', 'conformance', 'SECURITY', 'docs', 'CORPUS-STAMP.json', 'package.json'];

/** A fresh copy of this repository's corpus (with package.json, which the stamp reads its version from); `cached` adds node_modules, which turns the caches on. */
export function corpusCopy(options: { cached?: boolean } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-trust-'));
  roots.push(root);
  for (const entry of CORPUS) cpSync(path.join(REPO, entry), path.join(root, entry), { recursive: true });
  if (options.cached) mkdirSync(path.join(root, 'node_modules'));
  return root;
}

/** An empty temporary root with `files` written into it. */
export function rootWith(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-trust-'));
  roots.push(root);
  for (const [file, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), content);
  }
  return root;
}

export function tempDir(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-trust-'));
  roots.push(root);
  return root;
}

/** The findings of a JSON report as `rule file:line:column`. */
export function findings(stdout: string): string[] {
  const report = JSON.parse(stdout) as { diagnostics: Array<{ rule: string; file: string; line: number; column: number }> };
  return report.diagnostics.map((d) => `${d.rule} ${d.file}:${d.line}:${d.column}`);
}
