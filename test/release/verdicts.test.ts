/**
 * Release pairs built from this repository's corpus, each the change a protocol maintainer makes
 * and the impact the maintainer gives it: the diff must say the same, count it once, and
 * `--check-semver` must accept exactly the bumps at least as large as that impact requires.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffReleases, semverVerdict, type ReleaseDiff } from '../../core/release/diff.js';
import { loadRelease, type Release } from '../../core/release/source.js';
import { cli, CORPUS_ENTRIES, REPO } from '../helpers.js';

const CORPUS = [...CORPUS_ENTRIES, 'openwop-spec.config.json'];
const roots: string[] = [];
let base: Release;

function copy(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'openwop-verdict-'));
  roots.push(root);
  for (const entry of CORPUS) cpSync(path.join(REPO, entry), path.join(root, entry), { recursive: true });
  return root;
}

function change(root: string, file: string, from: string, to: string): void {
  const target = path.join(root, file);
  const text = readFileSync(target, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not hold ${JSON.stringify(from)}`);
  writeFileSync(target, text.replace(from, to));
}

beforeAll(() => {
  base = loadRelease(copy(), '/');
});
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** The diff from this corpus to a copy changed by `edit`, regenerated when `regenerate`. */
async function pair(edit: (root: string) => void, regenerate = false): Promise<ReleaseDiff> {
  const root = copy();
  edit(root);
  if (regenerate) {
    const generated = await cli(['generate', '--root', root]);
    expect(generated.status, generated.stdout + generated.stderr).toBe(0);
  }
  return diffReleases(base, loadRelease(root, '/'));
}

const counted = (diff: ReleaseDiff) =>
  diff.changes.filter((entry) => !entry.derivedFrom).map((entry) => `${entry.level} ${entry.rule}`);

/** The bumps --check-semver accepts from 2.4.1. */
function accepted(diff: ReleaseDiff): string[] {
  return ['2.4.1', '2.4.2', '2.5.0', '3.0.0'].filter(
    (version) =>
      semverVerdict({
        ...diff,
        from: { ...diff.from, version: '2.4.1', digest: undefined },
        to: { ...diff.to, version, digest: undefined },
      }).ok,
  );
}

const RUN_REQUEST_TAIL =
  "        configurable: { $ref: '../../schemas/v2/run-snapshot.schema.json#/$defs/configurable' }\n    RunList:";

describe('release verdicts on this corpus', () => {
  it('an event type added with its codemap row, payload definition and regenerated outputs is one additive change', async () => {
    const diff = await pair((root) => {
      change(
        root,
        'spec/v2/event-codemap.json',
        '  "rows": [\n',
        '  "rows": [\n    { "v1": "run.throttled", "v2": "run.throttled", "payloadDef": "runThrottled", "status": "decided", "review": false },\n',
      );
      change(
        root,
        'schemas/v2/run-event-payloads.schema.json',
        '  "$defs": {\n',
        '  "$defs": {\n    "runThrottled": {\n      "description": "run.throttled: the run was throttled.",\n      "type": "object",\n      "additionalProperties": false,\n      "properties": { "reason": { "type": "string" } }\n    },\n',
      );
    }, true);
    expect(counted(diff).filter((entry) => !entry.startsWith('editorial'))).toEqual(['additive event/added']);
    expect(diff.counts.breaking).toBe(0);
    // The generated type enum and the payload definition restate the addition: shown, not counted.
    expect(
      diff.changes
        .filter((entry) => entry.derivedFrom)
        .map((entry) => entry.rule)
        .sort(),
    ).toEqual(['schema/definition-added', 'schema/enum-added']);
    expect(diff.required).toBe('minor');
    expect(accepted(diff)).toEqual(['2.5.0', '3.0.0']);
  });

  it('an error code added and regenerated is one additive change', async () => {
    const diff = await pair((root) => {
      const file = path.join(root, 'spec/v2/errors.json');
      const registry = JSON.parse(readFileSync(file, 'utf8'));
      registry.rows.push({ ...registry.rows[0], code: 'run_throttled', httpStatus: 429 });
      writeFileSync(file, `${JSON.stringify(registry, null, 2)}\n`);
    }, true);
    expect(counted(diff).filter((entry) => !entry.startsWith('editorial'))).toEqual(['additive error/added']);
    expect(diff.required).toBe('minor');
    expect(accepted(diff)).toEqual(['2.5.0', '3.0.0']);
  });

  it('an optional field added to a request body is additive', async () => {
    const diff = await pair((root) =>
      change(
        root,
        'api/v2/openapi.yaml',
        RUN_REQUEST_TAIL,
        RUN_REQUEST_TAIL.replace('\n    RunList:', '\n        priority:\n          type: integer\n    RunList:'),
      ),
    );
    expect(counted(diff)).toEqual(['additive schema/property-added']);
    expect(diff.changes[0]?.direction).toBe('request');
    expect(accepted(diff)).toEqual(['2.5.0', '3.0.0']);
  });

  it('an optional field added to an event payload (a response) is additive', async () => {
    const diff = await pair((root) =>
      change(
        root,
        'schemas/v2/run-event-payloads.schema.json',
        '"runPaused": {\n      "description": "run.paused: the run was paused.",\n      "type": "object",\n      "additionalProperties": false,\n      "required": [],\n      "properties": {\n',
        '"runPaused": {\n      "description": "run.paused: the run was paused.",\n      "type": "object",\n      "additionalProperties": false,\n      "required": [],\n      "properties": {\n        "until": { "type": "string" },\n',
      ),
    );
    expect(counted(diff)).toEqual(['additive schema/property-added']);
    expect(diff.changes[0]?.direction).toBe('response');
    expect(accepted(diff)).toEqual(['2.5.0', '3.0.0']);
  });

  it('an enum member added to a response is additive: consumers accept members they do not recognize', async () => {
    const diff = await pair((root) =>
      change(
        root,
        'schemas/v2/run-snapshot.schema.json',
        '        "failed",\n        "cancelled"\n      ]',
        '        "failed",\n        "cancelled",\n        "throttled"\n      ]',
      ),
    );
    expect(counted(diff)).toEqual(['additive schema/enum-added']);
    expect(diff.changes[0]?.direction).not.toBe('unknown');
    expect(accepted(diff)).toEqual(['2.5.0', '3.0.0']);
  });

  it('a required field added to a request is one breaking change', async () => {
    const diff = await pair((root) => {
      change(
        root,
        'api/v2/openapi.yaml',
        RUN_REQUEST_TAIL,
        RUN_REQUEST_TAIL.replace('\n    RunList:', '\n        priority:\n          type: integer\n    RunList:'),
      );
      change(
        root,
        'api/v2/openapi.yaml',
        '      required: [workflowId]\n      properties:\n        workflowId:',
        '      required: [workflowId, priority]\n      properties:\n        workflowId:',
      );
    });
    expect(counted(diff)).toEqual(['breaking schema/required-added']);
    expect(diff.changes[0]?.message).toMatch(/required property "priority" was added to `POST \/runs request/);
    expect(accepted(diff)).toEqual(['3.0.0']);
  });

  it('an optional query parameter added is additive; a required one, or one made required, is breaking', async () => {
    const fork =
      "        - { $ref: '#/components/parameters/AcceptLanguage' }\n      requestBody:\n        description: 'Where to fork";
    const withParameter = (required: boolean) =>
      fork.replace(
        '\n      requestBody:',
        `\n        - { name: dryRun, in: query, required: ${required}, schema: { type: boolean } }\n      requestBody:`,
      );
    const optional = await pair((root) => change(root, 'api/v2/openapi.yaml', fork, withParameter(false)));
    expect(counted(optional)).toEqual(['additive parameter/added']);
    expect(accepted(optional)).toEqual(['2.5.0', '3.0.0']);
    const required = await pair((root) => change(root, 'api/v2/openapi.yaml', fork, withParameter(true)));
    expect(counted(required)).toEqual(['breaking parameter/required-added']);
    expect(required.changes[0]?.message).toBe(
      'required query parameter `dryRun` was added to forkRun (POST /runs/{runId}/fork)',
    );
    expect(accepted(required)).toEqual(['3.0.0']);
  });

  it('a field removed from a request is breaking', async () => {
    const diff = await pair((root) =>
      change(
        root,
        'api/v2/openapi.yaml',
        '        version:\n          description: >-\n            Pin a version of the workflow; without it the latest is used.\n          type: string\n',
        '',
      ),
    );
    expect(counted(diff)).toEqual(['breaking schema/property-removed']);
    expect(accepted(diff)).toEqual(['3.0.0']);
  });

  it('a required field removed from a response is one breaking change', async () => {
    const diff = await pair((root) => {
      change(root, 'schemas/v2/run-snapshot.schema.json', '    "lastSequence",\n', '');
      change(
        root,
        'schemas/v2/run-snapshot.schema.json',
        '    "lastSequence": {\n      "description": "The highest sequence in the log when the snapshot was projected; -1 for an empty log.",\n      "type": "integer",\n      "minimum": -1\n    },\n',
        '',
      );
    });
    expect(counted(diff)).toEqual(['breaking schema/property-removed']);
    expect(diff.changes[0]?.message).toMatch(/^required property "lastSequence" of .* was removed$/);
    expect(accepted(diff)).toEqual(['3.0.0']);
  });

  it('a heading other documents cite, renamed, is breaking for deep links and says where it was cited', async () => {
    const diff = await pair((root) => change(root, 'spec/v2/core/events.md', '## The envelope', '## Envelope'));
    expect(counted(diff)).toEqual(['breaking heading/removed']);
    expect(diff.changes[0]?.message).toMatch(
      /heading "The envelope" \(#the-envelope\) was renamed "Envelope" \(#envelope\); deep links and citations into it break: cited from \S+:\d+, \S+:\d+, \S+:\d+ and \d+ more$/,
    );
    expect(diff.changes[0]?.citedFrom).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^spec\/v2\/core\/overview\.md:\d+$/),
        expect.stringMatching(/^api\/v2\/openapi\.yaml:\d+$/),
      ]),
    );
    expect(diff.changes[0]?.before?.line).toBeGreaterThan(1);
    expect(diff.changes[0]?.after?.line).toBe(diff.changes[0]?.before?.line);
    expect(accepted(diff)).toEqual(['3.0.0']);
  });

  it('counts citations from the strings of JSON and YAML documents: an OpenAPI description, a registry row', async () => {
    const diff = await pair((root) => change(root, 'spec/v2/core/runs.md', '\n## Fork\n', '\n## Forking\n'));
    expect(counted(diff)).toEqual(['breaking heading/removed']);
    expect(diff.changes[0]?.message).toMatch(/cited from .*api\/v2\/openapi\.yaml:\d+/);
  });

  it('an operation removed is breaking', async () => {
    const diff = await pair((root) => {
      const file = path.join(root, 'api/v2/openapi.yaml');
      const text = readFileSync(file, 'utf8');
      const at = text.indexOf('      operationId: forkRun');
      const start = text.lastIndexOf('\n    post:', at) + 1;
      const end = text.indexOf('\n  /', at) + 1;
      writeFileSync(file, text.slice(0, start) + text.slice(end));
    });
    expect(counted(diff)).toEqual(['breaking operation/removed']);
    expect(accepted(diff)).toEqual(['3.0.0']);
  });

  it('a definition moved into a new schema file behind a $ref, with no change of meaning, is editorial only', async () => {
    const diff = await pair((root) => {
      const file = path.join(root, 'schemas/v2/run-snapshot.schema.json');
      const snapshot = JSON.parse(readFileSync(file, 'utf8'));
      const status = snapshot.$defs.status;
      snapshot.$defs.status = { $ref: 'run-status.schema.json' };
      writeFileSync(file, `${JSON.stringify(snapshot, null, 2)}\n`);
      const moved = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://openwop.dev/schemas/v2/run-status.schema.json',
        title: 'Run status',
        ...status,
      };
      writeFileSync(path.join(root, 'schemas/v2/run-status.schema.json'), `${JSON.stringify(moved, null, 2)}\n`);
    });
    expect(counted(diff).sort()).toEqual(['editorial file/changed', 'editorial schema/extracted']);
    expect(accepted(diff)).toEqual(['2.4.2', '2.5.0', '3.0.0']);
  });

  it('a request schema moved from the API document into a schema file: editorial, unless its meaning changed on the way', async () => {
    const inline =
      '      type: object\n      additionalProperties: false\n      properties:\n        reason:\n          type: string\n          maxLength: 1024\n    TransitionRequest:';
    const extract = (maxLength: number) => (root: string) => {
      change(
        root,
        'api/v2/openapi.yaml',
        inline,
        "      $ref: '../../schemas/v2/cancel-request.schema.json'\n    TransitionRequest:",
      );
      const schema = {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'https://openwop.dev/schemas/v2/cancel-request.schema.json',
        type: 'object',
        additionalProperties: false,
        properties: { reason: { type: 'string', maxLength } },
      };
      writeFileSync(path.join(root, 'schemas/v2/cancel-request.schema.json'), `${JSON.stringify(schema, null, 2)}\n`);
    };
    const same = await pair(extract(1024));
    expect(counted(same).sort()).toEqual(['editorial file/changed', 'editorial schema/extracted']);
    const tighter = await pair(extract(512));
    expect(counted(tighter).sort()).toEqual([
      'breaking schema/constraint-tightened',
      'editorial file/changed',
      'editorial schema/extracted',
    ]);
    expect(tighter.changes.find((entry) => entry.level === 'breaking')?.direction).toBe('request');
    expect(accepted(tighter)).toEqual(['3.0.0']);
  });

  it('a schema moved behind $ref with no change of meaning is editorial only', async () => {
    const inline =
      '      type: object\n      additionalProperties: false\n      properties:\n        reason:\n          type: string\n          maxLength: 1024\n    TransitionRequest:';
    const moved =
      "      $ref: '#/components/schemas/CancelReason'\n    CancelReason:\n      type: object\n      additionalProperties: false\n      properties:\n        reason: { $ref: '#/components/schemas/ReasonText' }\n    ReasonText:\n      type: string\n      maxLength: 1024\n    TransitionRequest:";
    const diff = await pair((root) => change(root, 'api/v2/openapi.yaml', inline, moved));
    expect(counted(diff)).toEqual(['editorial file/changed']);
    expect(accepted(diff)).toEqual(['2.4.2', '2.5.0', '3.0.0']);
  });
});
