/**
 * The judged scenarios of the error registry, through the built command line (`npx tsc -p .`
 * first) on a private copy of the fixture corpus.
 */
import { describe, expect, it } from 'vitest';
import { cli, cliReport, lineOf, readText, snapshotFiles, writeText } from '../helpers.js';
import { copyErrorsFixture } from './helpers.js';

const ERRORS_MD = 'spec/v2/core/errors.md';
const OVERVIEW_MD = 'spec/v2/core/overview.md';
const ENVELOPE = 'schemas/v2/error-envelope.schema.json';
const REGISTRY = 'spec/v2/errors.json';

/** `check` of `root` with only `rules` (all when none is given), as a JSON report. */
const checkRules = (root: string, ...rules: string[]) =>
  cliReport(['check', '--root', root, ...rules.flatMap((rule) => ['--rule', rule])]);

/** A private fixture copy, settled by one `generate` so every generator's output is current. */
async function settledCopy(): Promise<string> {
  const root = copyErrorsFixture();
  const result = await cli(['generate', '--root', root]);
  expect(result.stderr).not.toMatch(/nothing written/);
  expect(result.status).toBe(0);
  return root;
}

describe('the error registry through the command line', { timeout: 60_000 }, () => {
  it('starts current: generate --check is clean and the registry gates are quiet', async () => {
    const root = copyErrorsFixture();
    const generated = await cli(['generate', '--check', '--root', root]);
    expect(generated.stdout + generated.stderr).not.toMatch(/error-envelope|errors-doc|drift/);
    const { status, diagnostics } = await checkRules(root, 'generated/*', 'errors/*');
    expect(diagnostics).toEqual([]);
    expect(status).toBe(0);
  });

  it('a count edited by hand fails check at that line; generate restores it and nothing else', async () => {
    const root = await settledCopy();
    const before = snapshotFiles(root);
    const edited = readText(root, ERRORS_MD).replace('**6**', '**5**');
    writeText(root, ERRORS_MD, edited);

    const { status, diagnostics } = await checkRules(root);
    expect(status).toBe(1);
    expect(diagnostics.filter((d) => d.rule === 'generated/drift').map((d) => `${d.file}:${d.line}`)).toEqual([
      `${ERRORS_MD}:${lineOf(edited, '**5**')}`,
    ]);

    const generated = await cli(['generate', '--root', root]);
    expect(generated.status).toBe(0);
    expect(generated.stderr).toContain(`wrote ${ERRORS_MD}\n1 file written`);
    expect(snapshotFiles(root)).toEqual(before);
  });

  it('a deleted table row fails check at that line; generate restores it and nothing else', async () => {
    const root = await settledCopy();
    const before = snapshotFiles(root);
    const original = readText(root, ERRORS_MD);
    const row = '| `run_terminal` | 409 | no |';
    writeText(root, ERRORS_MD, original.replace(`${row}\n`, ''));

    const { status, diagnostics } = await checkRules(root);
    expect(status).toBe(1);
    expect(
      diagnostics.filter((d) => d.rule === 'generated/drift').map((d) => `${d.file}:${d.line}:${d.column}`),
    ).toEqual([`${ERRORS_MD}:${lineOf(original, row)}:1`]);

    expect((await cli(['generate', '--root', root])).status).toBe(0);
    expect(snapshotFiles(root)).toEqual(before);
  });

  it('a new row reaches the envelope, the table and every count in one generate; a second changes nothing', async () => {
    const root = await settledCopy();
    const registry = JSON.parse(readText(root, REGISTRY)) as { rows: unknown[] };
    registry.rows.push({
      code: 'runner_unavailable',
      httpStatus: 503,
      statusSource: 'v1 convention',
      retriable: true,
      details: null,
      since: '1.0',
      source: 'spec/v2/core/errors.md §The envelope',
    });
    writeText(root, REGISTRY, `${JSON.stringify(registry, null, 2)}\n`);

    const first = await cli(['generate', '--root', root]);
    expect(first.status).toBe(0);
    for (const file of [ENVELOPE, ERRORS_MD, OVERVIEW_MD]) expect(first.stderr).toContain(`wrote ${file}\n`);

    const envelope = JSON.parse(readText(root, ENVELOPE)) as {
      $defs: { registeredCode: { enum: string[] } };
      'x-openwop-http-status': Record<string, number>;
      'x-openwop-retriable': Record<string, boolean>;
    };
    expect(envelope.$defs.registeredCode.enum.at(-1)).toBe('runner_unavailable');
    expect(envelope['x-openwop-http-status'].runner_unavailable).toBe(503);
    expect(envelope['x-openwop-retriable'].runner_unavailable).toBe(true);
    const errorsMd = readText(root, ERRORS_MD);
    expect(errorsMd).toContain(
      '| `internal_error` | 500 | yes |\n| `runner_unavailable` | 503 | yes |\n<!-- /generated: errors/codes-by-status -->',
    );
    expect(errorsMd).toContain(
      '`rate_limited`, `residency_unavailable`, `runner_unavailable`<!-- /generated: errors/retriable -->',
    );
    for (const file of [ERRORS_MD, OVERVIEW_MD])
      expect(readText(root, file)).toContain('<!-- generated: count/errors -->**7**<!-- /generated: count/errors -->');

    const settled = snapshotFiles(root);
    const second = await cli(['generate', '--root', root]);
    expect(second.status).toBe(0);
    expect(second.stderr).toMatch(/^0 files written/m);
    expect(snapshotFiles(root)).toEqual(settled);
    expect((await checkRules(root, 'generated/*', 'errors/*')).status).toBe(0);
  });

  it('generate --check reports every stale output at its differing lines, and writes nothing', async () => {
    const root = await settledCopy();
    const overview = readText(root, OVERVIEW_MD).replace('**6**', '**96**');
    writeText(root, OVERVIEW_MD, overview);
    const envelope = readText(root, ENVELOPE).replace('"rate_limited": 429', '"rate_limited": 503');
    writeText(root, ENVELOPE, envelope);
    const before = snapshotFiles(root);

    const result = await cliReport(['generate', '--check', '--root', root]);
    expect(result.status).toBe(1);
    const drift = result.diagnostics.filter((d) => d.rule === 'generated/drift');
    expect(drift.map((d) => `${d.file}:${d.line}`)).toEqual([
      `${ENVELOPE}:${lineOf(envelope, '"rate_limited": 503')}`,
      `${OVERVIEW_MD}:${lineOf(overview, '**96**')}`,
    ]);
    expect(snapshotFiles(root)).toEqual(before);
  });

  it('an invalid registry: generate writes nothing and says where', async () => {
    const root = await settledCopy();
    const text = readText(root, REGISTRY).replace('"httpStatus": 429', '"httpStatus": 299');
    writeText(root, REGISTRY, text);
    const before = snapshotFiles(root);
    const result = await cli(['generate', '--root', root]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`${REGISTRY}:${lineOf(text, '"httpStatus": 299')}:7`);
    expect(result.stderr).toMatch(/nothing written/);
    expect(snapshotFiles(root)).toEqual(before);
    const { diagnostics } = await checkRules(root, 'errors/*');
    expect(diagnostics.map((d) => d.message)).toEqual(['httpStatus 299 of rate_limited is not a 4xx or 5xx status']);
  });
});
