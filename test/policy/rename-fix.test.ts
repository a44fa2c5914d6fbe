/**
 * A heading renamed: one run reports every citation of the old heading with the new one, in
 * markdown and in the strings of JSON and YAML documents, and `--fix` rewrites each of them in
 * place, every other byte of those files as it was.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../core/output/diagnostics.js';
import { checkFindings, cli, doc } from '../helpers.js';
import { tempTree } from '../trust/helpers.js';

const OLD = 'Edge conditions';
const NEW = 'Evaluating edge conditions';

const FILES: Record<string, string> = {
  'openwop-spec.config.json': '{"required": []}\n',
  'spec/v2/core/chains.md': doc('Chains', `## ${NEW}\n\nAn edge is followed when its condition holds.`),
  'spec/v2/core/runs.md': doc('Runs', `A run follows edges as [chains.md §"${OLD}"](chains.md#edge-conditions) says.`),
  'schemas/v2/edge.schema.json': [
    '{',
    '  "$schema": "https://json-schema.org/draft/2020-12/schema",',
    '  "$id": "https://openwop.dev/schemas/v2/edge.schema.json",',
    `  "description": "An edge of a chain (chains.md §\\"${OLD}\\"): \\u2014 when it is followed.",`,
    '  "type": "object",',
    `  "$comment": "chains.md \\u00a7\\"${OLD}\\" holds the rules",`,
    '  "additionalProperties": false',
    '}',
    '',
  ].join('\n'),
  'api/v2/edges.yaml': [
    '# Hand-written; the comments stay.',
    'info:',
    `  summary: Edges, as chains.md §"${OLD}" says   # trailing comment`,
    '  description: >-',
    '    Edges are evaluated in order, as',
    `    chains.md §"${OLD}" describes.`,
    'notes:',
    `  - 'It''s in chains.md §"${OLD}"'`,
    `  - "Also [chains.md §\\"${OLD}\\"](../../spec/v2/core/chains.md#edge-conditions)."`,
    '',
  ].join('\n'),
};

const sectionRefFindings = async (root: string): Promise<Diagnostic[]> =>
  (await checkFindings(root)).filter((d) => d.rule === 'links/section-ref');

describe('a heading rename cited from markdown, a JSON Schema and a YAML document', { timeout: 120_000 }, () => {
  it('is reported at every citation with the new heading, and --fix rewrites them all in one run, nothing else', async () => {
    const root = tempTree(FILES);
    const found = await sectionRefFindings(root);
    expect(found.map((d) => `${d.file}:${d.line}`)).toEqual([
      'api/v2/edges.yaml:3',
      // In a folded block scalar too, the line the citation is written on.
      'api/v2/edges.yaml:6',
      'api/v2/edges.yaml:8',
      'api/v2/edges.yaml:9',
      'schemas/v2/edge.schema.json:4',
      'schemas/v2/edge.schema.json:6',
      'spec/v2/core/runs.md:7',
    ]);
    for (const d of found) {
      expect(d.message).toContain(`no section §"${OLD}"`);
      expect(d.hint).toMatch(new RegExp(`^did you mean §"${NEW}"\\? \\(\`--fix\` rewrites the citation`));
    }
    // Where the line is one line, the column is the citation's.
    expect(found.find((d) => d.file === 'api/v2/edges.yaml' && d.line === 3)?.column).toBe(
      FILES['api/v2/edges.yaml']!.split('\n')[2]!.indexOf('§') + 1,
    );
    expect(found.find((d) => d.file === 'api/v2/edges.yaml' && d.line === 6)?.column).toBe(
      FILES['api/v2/edges.yaml']!.split('\n')[5]!.indexOf('§') + 1,
    );

    const fixed = await cli(['check', '--root', root, '--fix']);
    expect(fixed.stderr).toBe('fixed 7 problems in 3 files\n');
    expect(fixed.status).toBe(0);
    expect(await sectionRefFindings(root)).toEqual([]);

    const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');
    // Each file is what it was with the heading's words changed at each citation (and a link's fragment with it).
    expect(read('spec/v2/core/runs.md')).toBe(
      FILES['spec/v2/core/runs.md']!.replace(
        `§"${OLD}"](chains.md#edge-conditions)`,
        `§"${NEW}"](chains.md#evaluating-edge-conditions)`,
      ),
    );
    expect(read('schemas/v2/edge.schema.json')).toBe(
      FILES['schemas/v2/edge.schema.json']!.replaceAll(`\\"${OLD}\\"`, `\\"${NEW}\\"`),
    );
    expect(read('api/v2/edges.yaml')).toBe(
      FILES['api/v2/edges.yaml']!.replaceAll(`§"${OLD}"`, `§"${NEW}"`).replace(
        `§\\"${OLD}\\"](../../spec/v2/core/chains.md#edge-conditions)`,
        `§\\"${NEW}\\"](../../spec/v2/core/chains.md#evaluating-edge-conditions)`,
      ),
    );
  });
});
