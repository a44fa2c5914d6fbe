import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusFromFiles } from '../../core/model/corpus.js';
import { collector, renderMessage, type Diagnostic } from '../../core/output/diagnostics.js';
import type { ErrorRow } from '../../core/registries/errors.js';
import { driftDiagnostics } from '../../core/run/generation.js';
import errorsDoc, { codesByStatusTable, retriableList } from '../../generators/errors-doc.js';
import { doc, REPO, where } from '../helpers.js';
import {
  editedRegistry,
  errorsCorpus,
  fixtureFiles,
  fixtureRegistry,
  planErrors,
  registryText,
  SCHEMA_TEXT,
} from './helpers.js';

const ERRORS_MD = 'spec/v2/core/errors.md';

function row(code: string, httpStatus: number, retriable = false): ErrorRow {
  return {
    index: 0,
    code,
    httpStatus,
    retriable,
    statusSource: 's',
    details: null,
    since: '1.0',
    source: 's',
    meaning: undefined,
    retriableException: undefined,
    deprecated: undefined,
  };
}

/** The repository's own registry, errors.md and envelope (and its vendor orgs), in memory: the 97 codes of the seed. */
function repositoryErrors(errorsMd: string) {
  const declaration = path.join(REPO, 'spec/v2/declaration.json');
  return corpusFromFiles('/nonexistent-repo-copy', {
    ...(existsSync(declaration) ? { 'spec/v2/declaration.json': readFileSync(declaration, 'utf8') } : {}),
    'spec/v2/errors.json': readFileSync(path.join(REPO, 'spec/v2/errors.json'), 'utf8'),
    'spec/v2/errors.schema.json': SCHEMA_TEXT,
    'schemas/v2/error-envelope.schema.json': readFileSync(
      path.join(REPO, 'schemas/v2/error-envelope.schema.json'),
      'utf8',
    ),
    [ERRORS_MD]: errorsMd,
  });
}
const REPOSITORY_ERRORS_MD = readFileSync(path.join(REPO, ERRORS_MD), 'utf8');

describe('generator errors-doc', () => {
  it('renders the codes table by status, then code in code-unit order, with yes/no', () => {
    const table = codesByStatusTable([
      row('runa', 409),
      row('run_x', 409),
      row('rate_limited', 429, true),
      row('bad', 400),
    ]);
    expect(table).toBe(
      [
        '| Code | Status | Retriable |',
        '| --- | --- | --- |',
        '| `bad` | 400 | no |',
        '| `run_x` | 409 | no |',
        '| `runa` | 409 | no |',
        '| `rate_limited` | 429 | yes |',
        '',
      ].join('\n'),
    );
  });

  it('lists the retriable codes sorted, backticked and comma separated, or says none', () => {
    expect(
      retriableList([row('runner_unavailable', 503, true), row('bad', 400), row('internal_error', 500, true)]),
    ).toBe('`internal_error`, `runner_unavailable`');
    expect(retriableList([row('bad', 400)])).toBe('none');
  });

  it('leaves a current fixture unchanged', () => {
    const plan = planErrors(errorsCorpus());
    expect(plan.diagnostics).toEqual([]);
    expect(driftDiagnostics(plan)).toEqual([]);
    expect(plan.files.map((file) => file.path)).toEqual([
      'schemas/v2/error-envelope.schema.json',
      ERRORS_MD,
      'spec/v2/core/overview.md',
    ]);
  });

  it("reproduces the repository's errors.md and envelope exactly: 97 codes, the retriable five, the table", () => {
    const plan = planErrors(repositoryErrors(REPOSITORY_ERRORS_MD));
    expect(driftDiagnostics(plan)).toEqual([]);
    expect(REPOSITORY_ERRORS_MD).toContain('<!-- generated: count/errors -->**97**<!-- /generated: count/errors -->');
  });

  it('catches "96" beside a table of 97 rows, at the line of the count', () => {
    const edited = REPOSITORY_ERRORS_MD.replace('**97**', '**96**');
    const line = edited.split('\n').findIndex((text) => text.includes('**96**')) + 1;
    const drift = driftDiagnostics(planErrors(repositoryErrors(edited)));
    expect(where(drift)).toEqual([`${ERRORS_MD}:${line}:1`]);
    expect(drift[0]?.message).toMatch(/^stale generated content: line \d+ differs from what errors-doc produces/);
  });

  it('catches a deleted table row at its line, and a count in another document', () => {
    const files = fixtureFiles();
    const errorsMd = (files[ERRORS_MD] ?? '').replace('| `run_terminal` | 409 | no |\n', '');
    const overview = (files['spec/v2/core/overview.md'] ?? '').replace('**6**', '**5**');
    const drift = driftDiagnostics(
      planErrors(errorsCorpus({ [ERRORS_MD]: errorsMd, 'spec/v2/core/overview.md': overview })),
    );
    expect(where(drift)).toEqual([`${ERRORS_MD}:27:1`, 'spec/v2/core/overview.md:7:1']);
    expect(drift[0]?.message).toContain('expected: | `run_terminal` | 409 | no |');
  });

  it('fills every count/errors region of every document, and a new row reaches table, list and counts', () => {
    const registry = fixtureRegistry();
    registry.rows.push({
      code: 'runner_unavailable',
      httpStatus: 503,
      statusSource: 'v1 convention',
      retriable: true,
      details: null,
      since: '1.0',
      source: 'x',
    });
    const third = doc('Third', 'Also <!-- generated: count/errors -->**0**<!-- /generated: count/errors --> codes.');
    const plan = planErrors(
      errorsCorpus({ 'spec/v2/errors.json': registryText(registry), 'spec/v2/core/third.md': third }),
    );
    const after = new Map(plan.files.map((file) => [file.path, file.after]));
    for (const file of [ERRORS_MD, 'spec/v2/core/overview.md', 'spec/v2/core/third.md']) {
      expect(after.get(file)).toContain('<!-- generated: count/errors -->**7**<!-- /generated: count/errors -->');
    }
    expect(after.get(ERRORS_MD)).toContain(
      '| `internal_error` | 500 | yes |\n| `runner_unavailable` | 503 | yes |\n<!-- /generated',
    );
    expect(after.get(ERRORS_MD)).toContain(
      '`internal_error`, `rate_limited`, `residency_unavailable`, `runner_unavailable`<!--',
    );
    expect(after.get('schemas/v2/error-envelope.schema.json')).toContain('"runner_unavailable": 503');
  });

  it('regenerates nothing, with one finding, when the registry is invalid', () => {
    const registry = editedRegistry('"since": "1.0"', '"since": "two"');
    const diagnostics: Diagnostic[] = [];
    const outputs = errorsDoc.generate(
      errorsCorpus({ 'spec/v2/errors.json': registry }),
      collector('generate/errors-doc', 'error', diagnostics),
      { contentOf: () => undefined },
    );
    expect(outputs).toEqual([]);
    expect(where(diagnostics)).toEqual(['spec/v2/errors.json:13:7']);
    expect(diagnostics[0]).toMatchObject({
      messageId: 'registry-invalid',
      data: { target: 'spec/v2/errors.json', problems: 1 },
    });
    expect(renderMessage(errorsDoc.messages?.['registry-invalid'] ?? '', diagnostics[0]?.data)).toMatch(
      /not regenerated: spec\/v2\/errors\.json has 1 schema problem/,
    );
  });
});
