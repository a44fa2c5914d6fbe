/**
 * The reports of one check run through the built CLI: several formats at once, each to its file
 * and one to stdout, all from the same findings; why a run fails said in the report; and
 * --max-warnings -1 lifting the config's limit, as ESLint takes it.
 */
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cli, doc, tempTree } from '../helpers.js';

const temporary: string[] = [];
afterEach(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A corpus with one warning (a region no generator owns) and, when asked, one error (a broken anchor). */
function reportsRoot(config: Record<string, unknown> = {}, withError = false): string {
  const files: Record<string, string> = {
    'openwop-spec.config.json': JSON.stringify({ required: [], ...config }),
    'spec/v2/core/a.md': doc(
      'A',
      `Text${withError ? ', see [b.md](b.md#nowhere)' : ''}.\n\n<!-- generated: nobody/owns-this -->\nhand text\n<!-- /generated: nobody/owns-this -->`,
    ),
    'spec/v2/core/b.md': doc('B', 'Text.'),
  };
  const root = tempTree(files, 'openwop-reports-');
  temporary.push(root);
  return root;
}

describe('check reports', { timeout: 120_000 }, () => {
  it('writes several formats from one run, each to its --output, and stylish to stdout', async () => {
    const root = reportsRoot({}, true);
    const out = (name: string) => path.join(root, 'reports', name);
    const result = await cli([
      'check',
      '--root',
      root,
      '--format',
      'json',
      '--output',
      out('r.json'),
      '--format',
      'junit',
      '--output',
      out('r.xml'),
      '--format',
      'stylish',
      '--format',
      'codeclimate',
      '--output',
      out('cq.json'),
      '--format',
      'checkstyle',
      '--output',
      out('cs.xml'),
      '--format',
      'markdown',
      '--output',
      out('r.md'),
    ]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('spec/v2/core/a.md:7:11  error');
    const json = JSON.parse(readFileSync(out('r.json'), 'utf8'));
    expect(json.summary).toMatchObject({ errors: 1, warnings: 1 });
    expect(
      JSON.parse(readFileSync(out('cq.json'), 'utf8'))
        .map((i: { check_name: string }) => i.check_name)
        .sort(),
    ).toEqual(['generated/region', 'links/anchor']);
    expect(readFileSync(out('r.xml'), 'utf8')).toContain('failures="2"');
    expect(readFileSync(out('cs.xml'), 'utf8').match(/<error /g)).toHaveLength(2);
    expect(readFileSync(out('r.md'), 'utf8')).toContain('**2 problems (1 error, 1 warning) in 2 files**');
  });

  it("says why warnings fail the run, and --max-warnings -1 lifts the config's limit", async () => {
    const limited = reportsRoot({ maxWarnings: 0 });
    const over = await cli(['check', '--root', limited]);
    expect(over.status).toBe(1);
    expect(over.stdout.trimEnd().split('\n').at(-1)).toBe('  failing: 1 warning, more than --max-warnings 0 allows');
    const lifted = await cli(['check', '--root', limited, '--max-warnings', '-1']);
    expect(lifted.status).toBe(0);
    expect(lifted.stdout).not.toContain('failing');
    const strict = await cli(['check', '--root', reportsRoot(), '--fail-severity', 'warning', '--format', 'github']);
    expect(strict.status).toBe(1);
    expect(strict.stdout.trimEnd().split('\n').at(-1)).toBe(
      '::notice title=openwop-spec::1 problem (0 errors, 1 warning) in 2 files; failing: 1 warning and --fail-severity warning',
    );
  });
});
