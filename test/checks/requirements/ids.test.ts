import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, reported, tempTree } from '../../helpers.js';
import { caseFiles, runRule, testRule, type CorpusCase, type Edit } from '../../rule-tester.js';

const RULE = 'requirements/ids';
const BASE = 'evidence/requirements-good';
const REQUIREMENTS = 'conformance/requirements.json';
const ALIASES = 'conformance/requirement-aliases.json';

const inRequirements = (find: string, replace: string): Edit => ({ file: REQUIREMENTS, find, replace });

/** Citations that name a missing heading, a missing document, a missing number, and no document at all. */
const BAD_CITATIONS: CorpusCase = {
  name: 'fires at each citation that resolves to no heading of a corpus document, or is not a citation',
  base: BASE,
  edits: [
    inRequirements('idempotency.md §\\"Outcomes\\"', 'idempotency.md §\\"Outcome\\"'),
    inRequirements('idempotency.md §\\"Layer 1: Idempotency-Key\\"', 'idempotence.md §\\"Outcomes\\"'),
    inRequirements('idempotency.md §Concurrency', 'identity.md §7'),
    inRequirements('"identity.md §5"', '"the identity document, section 5"'),
  ],
};

/** A heading the requirements cite, renamed. */
const RENAMED = { file: 'spec/v2/core/idempotency.md', find: '### Concurrency', replace: '### Concurrent requests' };

testRule(RULE, {
  valid: [
    { name: 'a corpus without requirements', base: 'good' },
    {
      name: 'quoted, numbered and first-word citations, and alias chains to a live id; with no previous release, nothing is compared',
      base: BASE,
    },
    {
      name: 'a citation that follows its renamed heading',
      base: BASE,
      edits: [RENAMED, inRequirements('idempotency.md §Concurrency', 'idempotency.md §\\"Concurrent requests\\"')],
    },
  ],
  invalid: [
    {
      ...BAD_CITATIONS,
      errors: [
        {
          messageId: 'no-section',
          file: REQUIREMENTS,
          line: 10,
          column: 22,
          data: { target: 'idempotency.md', citation: '§"Outcome"' },
        },
        {
          messageId: 'unknown-document',
          file: REQUIREMENTS,
          line: 11,
          column: 22,
          data: { citation: 'idempotence.md §"Outcomes"', target: 'idempotence.md' },
        },
        {
          messageId: 'no-section',
          file: REQUIREMENTS,
          line: 20,
          column: 34,
          data: { target: 'identity.md', citation: '§7' },
        },
        {
          messageId: 'malformed-citation',
          file: REQUIREMENTS,
          line: 28,
          column: 34,
          data: { citation: 'the identity document, section 5' },
        },
      ],
    },
    {
      name: 'fails at the requirement when a heading it cites is renamed',
      base: BASE,
      edits: [RENAMED],
      errors: [
        {
          messageId: 'no-section',
          file: REQUIREMENTS,
          line: 20,
          column: 34,
          data: { target: 'idempotency.md', citation: '§Concurrency' },
        },
      ],
    },
    {
      name: 'fires at an id minted twice and at one the schema refuses, and still reads the others',
      base: BASE,
      edits: [
        inRequirements('"openwop.idempotency.concurrent-same-key"', '"openwop.idempotency.replay-marker"'),
        inRequirements('"openwop.identity.tenant-bound-mismatch"', '"openwop.Identity.tenant_bound"'),
      ],
      errors: [
        {
          messageId: 'minted-twice',
          file: REQUIREMENTS,
          line: 15,
          column: 13,
          data: { id: 'openwop.idempotency.replay-marker', first: 4 },
        },
        {
          messageId: 'schema-mismatch',
          file: REQUIREMENTS,
          line: 23,
          column: 7,
          data: {
            schema: 'spec/v2/requirements.schema.json',
            against: 'spec/v2/requirements.schema.json',
            error:
              '/records/2/id: must match pattern "^openwop\\.[a-z][a-z0-9]*(-[a-z0-9]+)*\\.[a-z0-9]+(-[a-z0-9]+)*$"',
            places: 1,
          },
        },
      ],
    },
    {
      name: 'fires at an alias of a live id, one that leads nowhere, and each alias of a cycle',
      base: BASE,
      files: {
        [ALIASES]: [
          '{',
          '  "aliases": {',
          '    "openwop.idempotency.replay-marker": "openwop.idempotency.concurrent-same-key",',
          '    "openwop.idempotency.gone": "openwop.idempotency.nowhere",',
          '    "openwop.idempotency.loop-a": "openwop.idempotency.loop-b",',
          '    "openwop.idempotency.loop-b": "openwop.idempotency.loop-a"',
          '  }',
          '}',
          '',
        ].join('\n'),
      },
      errors: [
        {
          messageId: 'alias-of-live-id',
          file: ALIASES,
          line: 3,
          column: 5,
          data: { id: 'openwop.idempotency.replay-marker' },
        },
        {
          messageId: 'alias-leads-nowhere',
          file: ALIASES,
          line: 4,
          column: 33,
          data: { id: 'openwop.idempotency.gone', target: 'openwop.idempotency.nowhere' },
        },
        { messageId: 'alias-cycle', file: ALIASES, line: 5, column: 35, data: { id: 'openwop.idempotency.loop-a' } },
        { messageId: 'alias-cycle', file: ALIASES, line: 6, column: 35, data: { id: 'openwop.idempotency.loop-b' } },
      ],
    },
  ],
});

describe(RULE, () => {
  it('suggests the heading a citation probably meant', () => {
    const [first] = runRule(RULE, BAD_CITATIONS).diagnostics;
    expect(first?.messageId).toBe('no-section');
    expect(first?.hint).toBe('did you mean §"Outcomes"?');
  });
});

describe(`${RULE} against a previous release`, { timeout: 60_000 }, () => {
  const record = (id: string): string =>
    `    { "id": "${id}", "title": "t", "witness": "witnessable-unaided", "rationale": null, "tests": ["v2-x"], "citations": [{ "section": "idempotency.md §Outcomes", "requirement": "r" }] },\n`;
  /** The base corpus as a release that also held the records of `ids`. */
  const previous = (...ids: string[]): string =>
    tempTree(
      caseFiles({
        base: BASE,
        edits: [inRequirements('  "records": [\n', `  "records": [\n${ids.map(record).join('')}`)],
      }),
      'openwop-previous-',
    );
  const findings = async (root: string, ...args: string[]) => {
    const result = await cli(['check', '--root', root, '--rule', RULE, '--no-cache', '--format', 'json', ...args]);
    return {
      status: result.status,
      stderr: result.stderr,
      found: result.stdout
        ? reported(result.stdout).map((d) => ({
            messageId: d.messageId,
            at: `${d.file}:${d.line}:${d.column}`,
            data: d.data,
            hint: d.hint,
          }))
        : [],
    };
  };

  it('fails at the aliases when an id of the previous release is gone without a row, and accepts an aliased one', async () => {
    const before = previous('openwop.idempotency.dropped', 'openwop.idempotency.replay-header');
    const root = tempTree(caseFiles({ base: BASE }), 'openwop-current-');
    try {
      expect(await findings(root, '--previous-release', before)).toEqual({
        status: 1,
        stderr: '',
        found: [
          {
            messageId: 'removed-id',
            at: `${ALIASES}:2:3`,
            data: { id: 'openwop.idempotency.dropped', release: `the release in ${before}` },
            hint: 'add "openwop.idempotency.dropped": "<the id that replaced it>" to the aliases, or restore the record',
          },
        ],
      });
    } finally {
      rmSync(before, { recursive: true, force: true });
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('reads the previous release from a git ref, found by itself as the newest version tag, and refuses a ref that does not exist', async () => {
    const root = previous('openwop.idempotency.dropped');
    try {
      const git = (...args: string[]) =>
        spawnSync(
          'git',
          ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args],
          { cwd: root, encoding: 'utf8' },
        );
      git('init', '-q');
      git('add', '-A');
      git('commit', '-q', '-m', 'previous release');
      git('tag', 'v2.0.0');
      writeFileSync(path.join(root, REQUIREMENTS), caseFiles({ base: BASE })[REQUIREMENTS] ?? '');

      const removed = {
        status: 1,
        stderr: '',
        found: [
          expect.objectContaining({
            messageId: 'removed-id',
            data: { id: 'openwop.idempotency.dropped', release: 'git ref v2.0.0' },
          }),
        ],
      };
      expect(await findings(root, '--previous-release', 'git:v2.0.0')).toEqual(removed);
      // Without the option the previous release is the newest version tag.
      expect(await findings(root)).toEqual(removed);

      // A wrong release is a usage error: one line, exit 2, and no finding.
      expect(await findings(root, '--previous-release', 'git:v9.9.9')).toEqual({
        status: 2,
        stderr: `openwop-spec: --previous-release git:v9.9.9: git:v9.9.9: no such git ref in ${root}\n`,
        found: [],
      });
      expect(await findings(root, '--previous-release', 'v2.0.0')).toEqual({
        status: 2,
        stderr:
          'openwop-spec: --previous-release "v2.0.0" is not a directory or .tgz; a git ref is written git:v2.0.0\n',
        found: [],
      });
      const hostile = await findings(root, '--previous-release', 'git:--output=/tmp/x');
      expect(hostile.status).toBe(2);
      expect(hostile.stderr).toContain('name a git ref after "git:"');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
