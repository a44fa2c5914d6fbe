import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffReleases, semverVerdict, versionBump, type ReleaseDiff } from '../../core/release/diff.js';
import { formatDiffJson, formatMarkdown, formatPatch } from '../../core/release/diff-format.js';
import { loadRelease } from '../../core/release/source.js';
import { unifiedHunks } from '../../core/release/unified-diff.js';
import { cli } from '../helpers.js';
import { BASE, edit, editJson, stampedCopy, tempDir } from './helpers.js';

/**
 * Applies `patch` with `git apply` to a copy of the release at `from`, and says whether every
 * shipped file then has the bytes `to` has (and no other shipped file is left).
 */
function applied(
  from: string,
  patch: string,
  to: { files: Map<string, Buffer> },
): { status: number | null; same: boolean } {
  const copy = tempDir();
  cpSync(from, copy, { recursive: true });
  const patchFile = path.join(tempDir(), 'release.patch');
  writeFileSync(patchFile, patch);
  const result = spawnSync('git', ['apply', '--unsafe-paths', '--directory=', patchFile], {
    cwd: copy,
    encoding: 'utf8',
  });
  if (result.status !== 0) return { status: result.status, same: false };
  const now = loadRelease(copy, '/');
  const same =
    now.files.size === to.files.size &&
    [...to.files].every(([file, bytes]) => now.files.get(file)?.equals(bytes) === true);
  return { status: result.status, same };
}

/** The diff between two copies of the base fixture, each changed. */
function diffBetween(first: (root: string) => void, second: (root: string) => void): ReleaseDiff {
  const [a, b] = [tempDir(), tempDir()];
  cpSync(BASE, a, { recursive: true });
  cpSync(BASE, b, { recursive: true });
  first(a);
  second(b);
  return diffReleases(loadRelease(a, '/'), loadRelease(b, '/'));
}

/** The diff from the base fixture to a copy changed by `change`. */
function diffAfter(change: (root: string) => void, generated?: Parameters<typeof diffReleases>[2]): ReleaseDiff {
  const root = tempDir();
  cpSync(BASE, root, { recursive: true });
  change(root);
  return diffReleases(loadRelease(BASE, '/'), loadRelease(root, '/'), generated);
}

const diffSummary = (diff: ReleaseDiff) =>
  diff.changes.map((change) => `${change.level} ${change.rule} ${change.file}${change.line ? `:${change.line}` : ''}`);
const messages = (diff: ReleaseDiff) => diff.changes.map((change) => change.message);

describe('diff: error codes', () => {
  it('classifies a removed code as breaking and an added one as additive, at their rows', () => {
    const diff = diffAfter((root) =>
      editJson(root, 'spec/v2/errors.json', (registry) => {
        registry.rows.splice(1, 1);
        registry.rows.push({ ...registry.rows[0], code: 'conflict', httpStatus: 409 });
      }),
    );
    expect(diffSummary(diff)).toEqual([
      'breaking error/removed spec/v2/errors.json:17',
      'additive error/added spec/v2/errors.json:27',
    ]);
    expect(messages(diff)).toEqual([
      'error code `run_not_found` (404) was removed',
      'error code `conflict` (409) was added',
    ]);
    expect(diff.required).toBe('major');
  });

  it('classifies a status or retriability change as breaking and a deprecation as additive; prose alone is editorial', () => {
    const diff = diffAfter((root) =>
      editJson(root, 'spec/v2/errors.json', (registry) => {
        registry.rows[0].httpStatus = 422;
        registry.rows[2].retriable = false;
        registry.rows[1].deprecated = { since: '2.1', note: 'use invalid_request' };
      }),
    );
    expect(diffSummary(diff)).toEqual([
      'breaking error/status-changed spec/v2/errors.json:7',
      'breaking error/retriable-changed spec/v2/errors.json:31',
      'additive error/deprecated spec/v2/errors.json:17',
    ]);
    const prose = diffAfter((root) =>
      editJson(root, 'spec/v2/errors.json', (registry) => (registry.rows[0].meaning = 'Reworded.')),
    );
    expect(diffSummary(prose)).toEqual(['editorial file/changed spec/v2/errors.json:14']);
    expect(prose.required).toBe('patch');
  });
});

describe('diff: event types', () => {
  it('tells a rename (same v1 name, new type) from a removal and an addition', () => {
    const diff = diffAfter((root) =>
      editJson(root, 'spec/v2/event-codemap.json', (codemap) => {
        codemap.rows[1].v2Override = 'run.resumed';
        codemap.rows.splice(2, 1);
        codemap.rows.push({
          v1: 'run.paused',
          v2: 'run.paused',
          payloadDef: 'runPaused',
          status: 'decided',
          review: false,
        });
        codemap.rows.push({
          v1: 'run.proposed',
          v2: 'run.proposed',
          payloadDef: 'x',
          status: 'proposed',
          review: true,
        });
      }),
    );
    expect(diffSummary(diff)).toEqual([
      'breaking event/removed spec/v2/event-codemap.json:6',
      'breaking event/renamed spec/v2/event-codemap.json:11',
      'additive event/added spec/v2/event-codemap.json:19',
    ]);
    expect(messages(diff)[1]).toBe('event type `run.resume-started` was renamed `run.resumed` (v1 `run.resuming`)');
  });
});

describe('diff: operations, headers and channels', () => {
  it('classifies operations and channels added and removed', () => {
    const diff = diffAfter((root) => {
      edit(root, 'api/v2/openapi.yaml', (text) =>
        text.replace('  /runs/{runId}:\n    get:', '  /runs/{runId}/snapshot:\n    get:'),
      );
      edit(root, 'api/v2/asyncapi.yaml', (text) => text.replace('runEvents:', 'hostEvents:'));
    });
    expect(diffSummary(diff)).toEqual([
      'breaking channel/removed api/v2/asyncapi.yaml:6',
      'breaking operation/removed api/v2/openapi.yaml:18',
      'additive channel/added api/v2/asyncapi.yaml:6',
      'additive operation/added api/v2/openapi.yaml:18',
    ]);
  });

  it('classifies a removed header, a header made required and a new optional header', () => {
    const diff = diffAfter((root) =>
      edit(root, 'api/v2/openapi.yaml', (text) =>
        text
          .replace(
            "            ETag:\n              description: The snapshot's entity tag.\n              schema:\n                type: string\n",
            '',
          )
          .replace('      required: false', '      required: true')
          .replace(
            '      parameters:\n        - name: runId',
            '      parameters:\n        - name: Accept-Language\n          in: header\n          schema:\n            type: string\n        - name: runId',
          ),
      ),
    );
    expect(diffSummary(diff)).toEqual([
      'breaking header/required-added api/v2/openapi.yaml',
      'breaking header/removed api/v2/openapi.yaml',
      'additive header/added api/v2/openapi.yaml',
    ]);
    expect(messages(diff)).toEqual([
      'request header `Idempotency-Key` is now required by createRun (POST /runs)',
      'response header `ETag` was removed from getRun (GET /runs/{runId})',
      'request header `Accept-Language` was added to getRun (GET /runs/{runId})',
    ]);
  });
});

describe('diff: schemas', () => {
  it('classifies each kind of schema change', () => {
    const diff = diffAfter((root) => {
      editJson(root, 'schemas/v2/run.schema.json', (schema) => {
        delete schema.properties.label;
        schema.required.push('owner');
        schema.properties.state.enum = ['running', 'completed', 'failed'];
        schema.properties.owner.additionalProperties = false;
        schema.properties.owner.properties.tenantId.type = 'integer';
        schema.properties.attempt = { type: 'integer', minimum: 0 };
      });
      editJson(root, 'schemas/v2/ids.schema.json', (schema) => {
        schema.$defs.runId.pattern = '^run_[0-9a-z]{20}$';
        schema.$defs.workflowId = { type: 'string' };
      });
      writeFileSync(path.join(root, 'schemas/v2/new.schema.json'), '{"type": "object"}\n');
    });
    expect(diffSummary(diff)).toEqual([
      'breaking schema/constraint-tightened schemas/v2/ids.schema.json:9',
      'breaking schema/required-added schemas/v2/run.schema.json:8',
      'breaking schema/property-removed schemas/v2/run.schema.json:12',
      'breaking schema/enum-removed schemas/v2/run.schema.json:19',
      'breaking schema/type-changed schemas/v2/run.schema.json:29',
      'breaking schema/closed schemas/v2/run.schema.json:32',
      'additive schema/added schemas/v2/new.schema.json',
      'additive schema/enum-added schemas/v2/run.schema.json:19',
      'additive schema/property-added schemas/v2/run.schema.json:34',
      'editorial schema/definition-added schemas/v2/ids.schema.json:12',
    ]);
    expect(messages(diff)).toContain('`/state` no longer admits "waiting"');
    expect(messages(diff)).toContain('`/owner/tenantId` changed type from string to integer');
  });

  it('calls a move behind $ref, into allOf or across files, a reordering and const for a one-member enum editorial', () => {
    const diff = diffAfter((root) => {
      editJson(root, 'schemas/v2/run.schema.json', (schema) => {
        // The state property moves into $defs, the owner's fields behind an allOf of two parts,
        // required is reordered, and the label's maxLength moves to another file.
        schema.$defs = { ...schema.$defs, state: schema.properties.state };
        schema.properties.state = { $ref: '#/$defs/state' };
        const { properties, ...rest } = schema.properties.owner;
        schema.properties.owner = { allOf: [rest, { properties }] };
        schema.required.reverse();
        const { maxLength, ...label } = schema.properties.label;
        schema.properties.label = { ...label, $ref: 'ids.schema.json#/$defs/labelLength' };
        expect(maxLength).toBe(200);
      });
      editJson(root, 'schemas/v2/ids.schema.json', (schema) => (schema.$defs.labelLength = { maxLength: 200 }));
    });
    expect(diff.counts.breaking + diff.counts.additive).toBe(0);
    expect(diff.changes.map((change) => change.rule)).toEqual(['schema/definition-added', 'schema/definition-added']);

    const one = (schema: any) => (schema.properties.attempt = { type: 'integer', enum: [1] });
    const same = diffBetween(
      (root) => editJson(root, 'schemas/v2/run.schema.json', one),
      (root) =>
        editJson(
          root,
          'schemas/v2/run.schema.json',
          (schema) => (schema.properties.attempt = { const: 1, type: ['integer'] }),
        ),
    );
    expect(same.changes.map((change) => change.rule)).toEqual(['file/changed']);
  });

  it('reports one enum value removed once, as breaking, at its place in both releases', () => {
    const diff = diffAfter((root) =>
      editJson(
        root,
        'schemas/v2/run.schema.json',
        (schema) =>
          (schema.properties.state.enum = schema.properties.state.enum.filter((value: string) => value !== 'waiting')),
      ),
    );
    expect(diff.counts).toEqual({ breaking: 1, additive: 0, editorial: 0 });
    expect(diff.changes).toEqual([
      expect.objectContaining({
        rule: 'schema/enum-removed',
        level: 'breaking',
        message: '`/state` no longer admits "waiting"',
        before: { file: 'schemas/v2/run.schema.json', line: 11 },
        after: { file: 'schemas/v2/run.schema.json', line: 18 },
      }),
    ]);
    // Moved behind a $ref at the same time: still one change, and the new place is the $defs entry.
    const moved = diffAfter((root) =>
      editJson(root, 'schemas/v2/run.schema.json', (schema) => {
        schema.$defs = {
          state: {
            ...schema.properties.state,
            enum: schema.properties.state.enum.filter((value: string) => value !== 'waiting'),
          },
        };
        schema.properties.state = { $ref: '#/$defs/state' };
      }),
    );
    expect(moved.changes.filter((change) => change.level === 'breaking')).toEqual([
      expect.objectContaining({
        rule: 'schema/enum-removed',
        before: { file: 'schemas/v2/run.schema.json', line: 11 },
        after: { file: 'schemas/v2/run.schema.json', line: expect.any(Number) },
      }),
    ]);
    const after = moved.changes.find((change) => change.rule === 'schema/enum-removed')?.after?.line ?? 0;
    expect(after).toBeGreaterThan(30);
  });

  it('calls a relaxed schema additive and a description-only change editorial', () => {
    const relaxed = diffAfter((root) =>
      editJson(root, 'schemas/v2/run.schema.json', (schema) => {
        delete schema.additionalProperties;
        schema.required = ['runId'];
        schema.properties.label.maxLength = 500;
      }),
    );
    expect(diffSummary(relaxed)).toEqual([
      'additive schema/opened schemas/v2/run.schema.json:1',
      'additive schema/required-removed schemas/v2/run.schema.json:7',
      'additive schema/constraint-relaxed schemas/v2/run.schema.json:24',
    ]);
    const worded = diffAfter((root) =>
      editJson(root, 'schemas/v2/run.schema.json', (schema) => (schema.description = 'A run.')),
    );
    expect(diffSummary(worded)).toEqual(['editorial file/changed schemas/v2/run.schema.json:5']);
  });
});

describe('diff: requirements, documents and files', () => {
  it('calls a requirement removed without an alias breaking, and with one editorial', () => {
    const removed = diffAfter((root) => editJson(root, 'conformance/requirements.json', (file) => file.records.pop()));
    expect(diffSummary(removed)).toEqual(['breaking requirement/removed conformance/requirements.json:4']);
    const aliased = diffAfter((root) => {
      editJson(root, 'conformance/requirements.json', (file) => (file.records[1].id = 'openwop.errors.envelope-shape'));
      editJson(
        root,
        'conformance/requirement-aliases.json',
        (file) => (file.aliases['openwop.errors.envelope'] = 'openwop.errors.envelope-shape'),
      );
    });
    expect(diffSummary(aliased)).toEqual([
      'additive requirement/added conformance/requirements.json:14',
      'editorial file/changed conformance/requirement-aliases.json:2',
      'editorial requirement/aliased conformance/requirements.json:4',
    ]);
  });

  it('classifies documents and unmodelled files added, removed and changed; unshipped files are not compared', () => {
    const diff = diffAfter((root) => {
      edit(root, 'spec/v2/core/errors.md', (text) => text.replace('MAY retry', 'SHOULD retry'));
      writeFileSync(path.join(root, 'spec/v2/core/new.md'), '# New\n');
      rmSync(path.join(root, 'SECURITY/invariants.yaml'));
      writeFileSync(path.join(root, 'SECURITY/threats.yaml'), 'threats: []\n');
      edit(root, 'docs/notes.md', (text) => `${text}More.\n`);
    });
    expect(diffSummary(diff)).toEqual([
      'breaking file/removed SECURITY/invariants.yaml',
      'additive file/added SECURITY/threats.yaml',
      'additive document/added spec/v2/core/new.md',
      'editorial document/changed spec/v2/core/errors.md:11',
    ]);
  });

  it('shows changes to a generated file whose inputs changed as derived, and does not count them again', () => {
    const generated = () => new Map([['schemas/v2/run.schema.json', ['spec/v2/errors.json']]]);
    const diff = diffAfter((root) => {
      editJson(root, 'spec/v2/errors.json', (registry) => registry.rows.splice(1, 1));
      editJson(
        root,
        'schemas/v2/run.schema.json',
        (schema) => (schema.properties.state.enum = ['running', 'completed']),
      );
    }, generated);
    expect(diff.counts).toEqual({ breaking: 1, additive: 0, editorial: 0 });
    expect(diff.changes.map((change) => [change.rule, change.derivedFrom])).toEqual([
      ['schema/enum-removed', ['spec/v2/errors.json']],
      ['error/removed', undefined],
    ]);
    // With no input changed, a generated file's change is the change: it counts.
    const alone = diffAfter(
      (root) => editJson(root, 'schemas/v2/run.schema.json', (schema) => (schema.properties.state.enum = ['running'])),
      generated,
    );
    expect(alone.counts.breaking).toBe(2);
  });

  it('finds no change between a release and itself', () => {
    const diff = diffReleases(loadRelease(BASE, '/'), loadRelease(BASE, '/'));
    expect(diff).toMatchObject({ changes: [], required: 'none', counts: { breaking: 0, additive: 0, editorial: 0 } });
  });
});

describe('semver', () => {
  it('names the bump between two versions', () => {
    expect(versionBump('2.42.8', '2.42.9')).toBe('patch');
    expect(versionBump('2.42.8', '2.43.0')).toBe('minor');
    expect(versionBump('2.42.8', '3.0.0')).toBe('major');
    expect(versionBump('2.42.8', '2.42.8')).toBe('none');
    expect(versionBump('2.42.8', '2.41.9')).toBe('downgrade');
    expect(versionBump('3.0.0-rc.1', '3.0.0')).toBe('patch');
  });

  it('fails a patch bump over a breaking change and passes a major one', () => {
    const breaking = diffAfter((root) => editJson(root, 'spec/v2/errors.json', (registry) => registry.rows.pop()));
    breaking.to.version = '1.4.3';
    expect(semverVerdict(breaking)).toMatchObject({ ok: false, bump: 'patch', required: 'major' });
    breaking.to.version = '2.0.0';
    expect(semverVerdict(breaking)).toMatchObject({ ok: true, bump: 'major' });
    breaking.from.version = '0.3.1';
    breaking.to.version = '0.4.0';
    expect(semverVerdict(breaking)).toMatchObject({ ok: true, required: 'minor' });
    breaking.to.version = undefined;
    expect(semverVerdict(breaking)).toMatchObject({ ok: false, message: expect.stringMatching(/no version/) });
  });
});

describe('diff formats', () => {
  const diffWithRelease = () => {
    const root = tempDir();
    cpSync(BASE, root, { recursive: true });
    edit(root, 'spec/v2/core/errors.md', (text) => text.replace('MAY retry', 'SHOULD retry'));
    writeFileSync(path.join(root, 'spec/v2/core/new.md'), '# New\n\nA line.\n');
    editJson(root, 'package.json', (manifest) => (manifest.version = '1.4.3'));
    const before = loadRelease(BASE, '/');
    const after = loadRelease(root, '/');
    return { before, after, diff: diffReleases(before, after) };
  };

  it("writes a patch in git's form, which git apply applies to the old release to give the new", () => {
    const { before, after, diff } = diffWithRelease();
    const patch = formatPatch(diff, before, after);
    expect(patch).toBe(
      [
        '@openwop/spec-artifacts 1.4.2 → 1.4.3',
        '',
        'diff --git a/spec/v2/core/errors.md b/spec/v2/core/errors.md',
        '--- a/spec/v2/core/errors.md',
        '+++ b/spec/v2/core/errors.md',
        '@@ -8,4 +8,4 @@ An error names its code and carries a status; the codes are registered in `spec/',
        ' ',
        ' ## Retries',
        ' ',
        '-A client MAY retry a retriable code after the delay the server gives.',
        '+A client SHOULD retry a retriable code after the delay the server gives.',
        'diff --git a/spec/v2/core/new.md b/spec/v2/core/new.md',
        'new file mode 100644',
        '--- /dev/null',
        '+++ b/spec/v2/core/new.md',
        '@@ -0,0 +1,3 @@',
        '+# New',
        '+',
        '+A line.',
        '',
      ].join('\n'),
    );
    expect(applied(BASE, patch, after)).toEqual({ status: 0, same: true });
  });

  it('writes a patch git apply takes for a schema change, a removed file and an empty new file', () => {
    const root = tempDir();
    cpSync(BASE, root, { recursive: true });
    editJson(root, 'schemas/v2/run.schema.json', (schema) => (schema.properties.state.enum = ['running']));
    rmSync(path.join(root, 'spec/v2/core/errors.md'));
    writeFileSync(path.join(root, 'spec/v2/core/empty.md'), '');
    writeFileSync(path.join(root, 'spec/v2/core/no-newline.md'), '# Last\n\nno newline');
    const before = loadRelease(BASE, '/');
    const after = loadRelease(root, '/');
    const patch = formatPatch(diffReleases(before, after), before, after);
    expect(patch).toMatch(/^deleted file mode 100644$/m);
    expect(applied(BASE, patch, after)).toEqual({ status: 0, same: true });
  });

  it('writes release notes in markdown and a parsable JSON report', () => {
    const { diff } = diffWithRelease();
    expect(formatMarkdown(diff)).toBe(
      '# @openwop/spec-artifacts 1.4.2 → 1.4.3\n\n0 breaking, 1 additive and 1 editorial changes; a minor version bump is required.\n\n## Additions\n\n### Documents\n\n- spec/v2/core/new.md was added (now `spec/v2/core/new.md`; document/added)\n\n## Editorial changes\n\n### Documents\n\n- spec/v2/core/errors.md was changed (now `spec/v2/core/errors.md:11`; document/changed)\n',
    );
    expect(JSON.parse(formatDiffJson(diff, semverVerdict(diff)))).toMatchObject({
      from: { version: '1.4.2' },
      to: { version: '1.4.3' },
      counts: { breaking: 0, additive: 1, editorial: 1 },
      required: 'minor',
      semver: { ok: false, bump: 'patch' },
      changes: [
        { level: 'additive', rule: 'document/added', file: 'spec/v2/core/new.md' },
        { level: 'editorial', rule: 'document/changed', line: 11 },
      ],
    });
  });

  it('writes hunks as git does: a count of 1 left out, no-newline markers, distant changes in separate hunks', () => {
    expect(unifiedHunks('a\nb\nc\n', 'a\nB\nc\n')).toBe('@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n');
    expect(unifiedHunks('only\n', 'other\n')).toBe('@@ -1 +1 @@\n-only\n+other\n');
    expect(unifiedHunks('x\n', 'x')).toBe('@@ -1 +1 @@\n-x\n+x\n\\ No newline at end of file\n');
    expect(unifiedHunks('gone\n', undefined)).toBe('@@ -1 +0,0 @@\n-gone\n');
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    const changed = lines.map((line, i) => (i === 1 || i === 17 ? line.toUpperCase() : line));
    expect(unifiedHunks(`${lines.join('\n')}\n`, `${changed.join('\n')}\n`).match(/^@@.*$/gm)).toEqual([
      '@@ -1,5 +1,5 @@',
      '@@ -15,6 +15,6 @@ line 14',
    ]);
  });
});

describe('openwop-spec diff', () => {
  it('compares a directory with a packed tarball and with a git ref, and --check-semver fails a short bump', async () => {
    const root = stampedCopy();
    const git = (...args: string[]) => spawnSync('git', args, { cwd: root, encoding: 'utf8' });
    git('init', '-q');
    git('add', '.');
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'base');
    editJson(root, 'spec/v2/errors.json', (registry) => registry.rows.splice(0, 1));
    editJson(root, 'package.json', (manifest) => (manifest.version = '1.4.3'));

    const viaGit = await cli(['diff', 'git:HEAD', '.', '--root', root, '--check-semver']);
    expect(viaGit.status).toBe(1);
    expect(viaGit.stdout).toMatch(
      /breaking \(1\)\n {2}spec\/v2\/errors\.json:7 {2}error code `invalid_request` \(400\) was removed {2}error\/removed/,
    );
    expect(viaGit.stdout).toMatch(
      /1\.4\.2 → 1\.4\.3 is a patch bump, but 1 breaking, 0 additive, 0 editorial change\(s\) require a major bump\n$/,
    );

    editJson(root, 'package.json', (manifest) => (manifest.version = '2.0.0'));
    expect((await cli(['diff', 'git:HEAD', root, '--root', root, '--check-semver', '--format', 'json'])).status).toBe(
      0,
    );
    expect((await cli(['diff', BASE, BASE, '--check-semver'])).status).toBe(0);
    expect(await cli(['diff', 'git:no-such-ref', '.', '--root', root])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/no such git ref/),
    });
    expect(await cli(['diff', BASE, BASE, '--format', 'sarif'])).toMatchObject({ status: 2 });
  }, 60_000);

  it('reads a packed .tgz as a release', async () => {
    const tarball = path.join(tempDir(), 'release.tgz');
    // A hand-made npm-style tarball: everything under package/.
    const staging = tempDir();
    cpSync(BASE, path.join(staging, 'package'), { recursive: true });
    spawnSync('tar', ['czf', tarball, '-C', staging, 'package']);
    const result = await cli(['diff', tarball, BASE, '--format', 'json']);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ from: { version: '1.4.2' }, changes: [] });
    expect(readFileSync(tarball).length).toBeGreaterThan(0);
  }, 30_000);
});
