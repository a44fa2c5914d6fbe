import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli, lineOf } from '../../helpers.js';
import { check, evidenceCorpus, evidenceDirectory, findings, fixtureFiles, replaceOnce } from '../../evidence/support.js';

describe('requirements/ids', { timeout: 60_000 }, () => {
  it('fires at a malformed id, a second mint, each citation that resolves to no heading, and each bad alias', () => {
    expect(findings(check('requirements/ids', evidenceCorpus('requirements-defects')))).toEqual([
      'conformance/requirement-aliases.json:3:5 `openwop.idempotency.replay-marker` is aliased, but it is still a live requirement id',
      'conformance/requirement-aliases.json:4:33 `openwop.idempotency.gone` is aliased to `openwop.idempotency.nowhere`, which leads to no live requirement id',
      'conformance/requirement-aliases.json:5:35 the aliases of `openwop.idempotency.loop-a` form a cycle',
      'conformance/requirement-aliases.json:6:35 the aliases of `openwop.idempotency.loop-b` form a cycle',
      'conformance/requirements.json:10:22 idempotency.md has no section §"Outcome"; the requirement cites a heading that does not exist',
      'conformance/requirements.json:11:22 citation "idempotence.md §"Outcomes"" names idempotence.md, which is not a corpus document',
      'conformance/requirements.json:15:13 requirement id `openwop.idempotency.replay-marker` is minted twice; the first is at line 4',
      'conformance/requirements.json:20:34 identity.md has no section §7; the requirement cites a heading that does not exist',
      'conformance/requirements.json:23:7 does not match spec/v2/requirements.schema.json: /records/2/id: must match pattern "^openwop\\.[a-z][a-z0-9]*(-[a-z0-9]+)*\\.[a-z0-9]+(-[a-z0-9]+)*$"',
      'conformance/requirements.json:28:34 citation "the identity document, section 5" is not of the form <doc> §<section>',
    ]);
  });

  it('suggests the heading a citation probably meant', () => {
    const found = check('requirements/ids', evidenceCorpus('requirements-defects'));
    expect(found.find((d) => d.message.includes('§"Outcome"'))?.hint).toBe('did you mean §"Outcomes"?');
  });

  it('resolves quoted, numbered and first-word citations, and alias chains to a live id; with no previous release, compares with nothing and says nothing', () => {
    expect(findings(check('requirements/ids', evidenceCorpus('requirements-good')))).toEqual([]);
  });

  it('says nothing on a corpus without requirements', () => {
    expect(check('requirements/ids', evidenceCorpus({}))).toEqual([]);
  });
});

describe('requirements/ids against a previous release', { timeout: 60_000 }, () => {
  const previous = (extra: string): Record<string, string> => {
    const files = fixtureFiles('requirements-good');
    const text = files['conformance/requirements.json'] ?? '';
    files['conformance/requirements.json'] = replaceOnce(text, '  "records": [\n', `  "records": [\n${extra}`);
    return files;
  };
  const record = (id: string): string =>
    `    { "id": "${id}", "title": "t", "witness": "witnessable-unaided", "rationale": null, "tests": ["v2-x"], "citations": [{ "section": "idempotency.md §Outcomes", "requirement": "r" }] },\n`;

  it('fails at the aliases when an id of the previous release is gone without a row, and accepts an aliased one', () => {
    const before = evidenceDirectory(previous(record('openwop.idempotency.dropped') + record('openwop.idempotency.replay-header')));
    const found = check('requirements/ids', evidenceCorpus('requirements-good'), { previousRelease: before });
    expect(findings(found)).toEqual([
      `conformance/requirement-aliases.json:2:3 requirement id \`openwop.idempotency.dropped\` is in the release in ${before} and is gone, with no row in conformance/requirement-aliases.json; every bundle that cites it loses its referent`,
    ]);
    expect(found[0]?.hint).toBe('add "openwop.idempotency.dropped": "<the id that replaced it>" to the aliases, or restore the record');
  });

  it('reads the previous release from a git ref, and reports a ref that does not exist in one finding', async () => {
    const root = evidenceDirectory(previous(record('openwop.idempotency.dropped')));
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', '-c', 'commit.gpgsign=false', ...args], { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'previous release');
    git('tag', 'v2.0.0');
    writeFileSync(path.join(root, 'conformance/requirements.json'), fixtureFiles('requirements-good')['conformance/requirements.json'] ?? '');

    const byRef = await cli(['check', '--root', root, '--rule', 'requirements/ids', '--previous-release', 'git:v2.0.0']);
    expect(byRef.status).toBe(1);
    expect(byRef.stdout).toContain('requirement id `openwop.idempotency.dropped` is in git ref v2.0.0 and is gone');

    // Without the option the previous release is the newest version tag, found by itself.
    const found = await cli(['check', '--root', root, '--rule', 'requirements/ids']);
    expect(found.status).toBe(1);
    expect(found.stdout).toContain('requirement id `openwop.idempotency.dropped` is in git ref v2.0.0 and is gone');

    // A wrong release is a usage error: one line, exit 2, and no finding.
    const missing = await cli(['check', '--root', root, '--rule', 'requirements/ids', '--previous-release', 'git:v9.9.9']);
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe(`openwop-spec: --previous-release git:v9.9.9: git:v9.9.9: no such git ref in ${root}\n`);

    const bare = await cli(['check', '--root', root, '--rule', 'requirements/ids', '--previous-release', 'v2.0.0']);
    expect(bare.status).toBe(2);
    expect(bare.stderr).toBe('openwop-spec: --previous-release "v2.0.0" is not a directory or .tgz; a git ref is written git:v2.0.0\n');

    const hostile = await cli(['check', '--root', root, '--rule', 'requirements/ids', '--previous-release', 'git:--output=/tmp/x']);
    expect(hostile.status).toBe(2);
    expect(hostile.stderr).toContain('name a git ref after "git:"');
  });
});

describe('requirements/ids on the command line', { timeout: 60_000 }, () => {
  it('fails at the requirement when a heading it cites is edited, and passes again once the citation follows', async () => {
    const root = evidenceDirectory('requirements-good');
    expect((await cli(['check', '--root', root, '--rule', 'requirements/ids'])).status).toBe(0);
    const doc = path.join(root, 'spec/v2/core/idempotency.md');
    writeFileSync(doc, replaceOnce(readFileSync(doc, 'utf8'), '### Concurrency', '### Concurrent requests'));
    const requirements = readFileSync(path.join(root, 'conformance/requirements.json'), 'utf8');
    const result = await cli(['check', '--root', root, '--rule', 'requirements/ids']);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(`conformance/requirements.json:${lineOf(requirements, 'idempotency.md §Concurrency')}:`);
    expect(result.stdout).toContain('idempotency.md has no section §Concurrency; the requirement cites a heading that does not exist  requirements/ids');
    writeFileSync(path.join(root, 'conformance/requirements.json'), replaceOnce(requirements, 'idempotency.md §Concurrency', 'idempotency.md §\\"Concurrent requests\\"'));
    expect((await cli(['check', '--root', root, '--rule', 'requirements/ids'])).status).toBe(0);
  });
});
