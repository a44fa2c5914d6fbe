/**
 * The server over a sequence of edits, as an editor makes them, on a private copy of this corpus:
 * after each edit the diagnostics it has published, for every file and not only the edited one,
 * are what `check --format json` reports for the same bytes written to another copy (the server
 * re-runs only what each edit touches, core/run/reuse.ts; this holds it to a fresh run). Then
 * definition, hover, references and rename at positions inside JSON and YAML strings.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Hover, Location, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { copyCorpus, findingKey, positionOf, removeTempDirs, reported, spawnCli } from '../helpers.js';
import { startClient, type Client } from './client.js';

afterAll(removeTempDirs);

const CONNECTION_PACKS = 'spec/v2/core/connection-packs.md';
const SECURITY_DEFAULTS = 'spec/v2/core/security-defaults.md';
const ERRORS = 'spec/v2/errors.json';
const OPENAPI = 'api/v2/openapi.yaml';
const HEADING = 'Provider identity';

describe('a sequence of edits', () => {
  let root: string;
  let client: Client;
  /** The text of every file the test has edited, as the server holds it. */
  const edited = new Map<string, string>();
  let version = 1;
  const text = (file: string): string => edited.get(file) ?? readFileSync(path.join(root, file), 'utf8');

  const published = (): string[] =>
    [...client.diagnostics]
      .flatMap(([file, list]) =>
        list.map((d) => findingKey(file, d.data as { rule: string; message: string; line: number; column: number })),
      )
      .sort();
  /** `check --format json` over the same bytes: a copy of the root with the edited texts written. */
  const checkedNow = (): string[] => {
    const copy = copyCorpus({ from: root, config: true, prefix: 'openwop-lsp-seq-' });
    for (const [file, content] of edited) writeFileSync(path.join(copy, file), content);
    const result = spawnCli(['check', '--root', copy, '--format', 'json']);
    expect(result.stderr).toBe('');
    return reported(result.stdout)
      .map((d) => findingKey(d.file, d))
      .sort();
  };
  /** The whole document replaced, as an editor's full-text change; resolves once the server has published what it causes. */
  const edit = async (file: string, content: string): Promise<void> => {
    if (!edited.has(file)) client.open(file, text(file));
    const lines = text(file).split('\n');
    edited.set(file, content);
    client.change(
      file,
      ++version,
      { start: { line: 0, character: 0 }, end: { line: lines.length - 1, character: (lines.at(-1) ?? '').length } },
      content,
    );
    await client.nextPublish(file, () => true, 120_000);
    await client.settled(1500);
  };

  beforeAll(async () => {
    root = copyCorpus({ config: true, prefix: 'openwop-lsp-seq-' });
    client = await startClient(root);
    await client.settled(1500);
  }, 180_000);
  afterAll(async () => {
    await client?.stop();
  });

  it('publishes, after each edit, what check --format json reports for the same bytes, in every file', async () => {
    const before = checkedNow();
    expect(published()).toEqual(before);
    const packs = text(CONNECTION_PACKS);
    const errors = text(ERRORS);
    const security = text(SECURITY_DEFAULTS);

    // A heading cited from markdown and from JSON strings renamed: the citing files' findings change.
    await edit(CONNECTION_PACKS, packs.replace(`## ${HEADING}`, '## Naming of providers'));
    const renamed = checkedNow();
    expect(
      renamed.filter((k) => JSON.parse(k)[0] === ERRORS && JSON.parse(k)[3] === 'links/section-ref').length,
    ).toBeGreaterThan(0);
    expect(published()).toEqual(renamed);

    // An error code added to the registry: the generated outputs that list the codes go stale.
    const registry = JSON.parse(errors) as { rows: Array<Record<string, unknown>> };
    const row = {
      ...registry.rows[0],
      code: 'connection_provider_refused',
      meaning: 'A provider refused the connection.',
    };
    await edit(ERRORS, errors.replace('"rows": [', `"rows": [\n    ${JSON.stringify(row)},`));
    const added = checkedNow();
    expect(added.some((k) => JSON.parse(k)[3] === 'generated/drift')).toBe(true);
    expect(published()).toEqual(added);

    // A link broken, then restored.
    const link = /\]\(([a-z-]+\.md)#/.exec(security);
    expect(link).not.toBeNull();
    await edit(SECURITY_DEFAULTS, security.replace(`](${link?.[1]}#`, '](no-such-document.md#'));
    const broken = checkedNow();
    expect(broken.some((k) => JSON.parse(k)[0] === SECURITY_DEFAULTS && JSON.parse(k)[3] === 'links/file')).toBe(true);
    expect(published()).toEqual(broken);
    await edit(SECURITY_DEFAULTS, security);
    expect(published()).toEqual(checkedNow());

    // Everything undone: what the corpus reported at the start.
    await edit(ERRORS, errors);
    await edit(CONNECTION_PACKS, packs);
    expect(published()).toEqual(before);
  }, 600_000);

  it('answers definition, hover, references and rename at positions inside JSON and YAML strings', async () => {
    const at = (file: string, needle: string, delta: number) => ({
      textDocument: { uri: client.uri(file) },
      position: positionOf(text(file), needle, delta),
    });
    const relative = (uri: string): string => path.relative(root, new URL(uri).pathname);
    const headingLine = positionOf(text(CONNECTION_PACKS), `## ${HEADING}`).line;

    // A § citation inside a JSON string.
    const citation = at(ERRORS, `§${HEADING}`, 5);
    const definition = await client.connection.sendRequest<Location>('textDocument/definition', citation);
    expect([relative(definition.uri), definition.range.start.line]).toEqual([CONNECTION_PACKS, headingLine]);
    const hover = await client.connection.sendRequest<Hover>('textDocument/hover', citation);
    expect((hover.contents as { value: string }).value).toContain(`**${HEADING}** (${CONNECTION_PACKS})`);
    const references = await client.connection.sendRequest<Location[]>('textDocument/references', {
      ...citation,
      context: { includeDeclaration: true },
    });
    expect(new Set(references.map((r) => relative(r.uri)))).toEqual(
      new Set([CONNECTION_PACKS, SECURITY_DEFAULTS, ERRORS, OPENAPI]),
    );
    const rename = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      ...citation,
      newName: 'Provider naming',
    });
    expect(Object.keys(rename.changes ?? {}).map(relative)).toEqual(
      expect.arrayContaining([CONNECTION_PACKS, SECURITY_DEFAULTS, ERRORS, OPENAPI]),
    );

    // An error code inside a YAML list item.
    const code = at(OPENAPI, '- connection_provider_unresolved', 5);
    const row = await client.connection.sendRequest<Location>('textDocument/definition', code);
    expect(relative(row.uri)).toBe(ERRORS);
    expect(text(ERRORS).split('\n')[row.range.start.line + 1]).toContain('"code": "connection_provider_unresolved"');
    const codeHover = await client.connection.sendRequest<Hover>('textDocument/hover', code);
    expect((codeHover.contents as { value: string }).value).toContain('HTTP 400');
    const mentions = await client.connection.sendRequest<Location[]>('textDocument/references', {
      ...code,
      context: { includeDeclaration: false },
    });
    expect(mentions.map((r) => relative(r.uri))).toEqual(expect.arrayContaining([OPENAPI, ERRORS, CONNECTION_PACKS]));
    const renamedCode = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      ...code,
      newName: 'connection_provider_unknown',
    });
    expect(Object.keys(renamedCode.changes ?? {}).map(relative)).toEqual(
      expect.arrayContaining([OPENAPI, ERRORS, CONNECTION_PACKS]),
    );

    // An event type inside a JSON string of the codemap.
    const event = at('spec/v2/event-codemap.json', '"v2": "run.started"', 8);
    const eventRefs = await client.connection.sendRequest<Location[]>('textDocument/references', {
      ...event,
      context: { includeDeclaration: true },
    });
    expect(eventRefs.map((r) => relative(r.uri))).toEqual(
      expect.arrayContaining(['spec/v2/event-codemap.json', 'spec/v2/core/events.md']),
    );
    const eventHover = await client.connection.sendRequest<Hover>('textDocument/hover', event);
    expect((eventHover.contents as { value: string }).value).toContain('**`run.started`**');

    // A $ref inside a JSON schema: its target, and every $ref that reaches it.
    const ref = at('schemas/v2/run-event.schema.json', 'ids.schema.json#/$defs/eventId', 5);
    const target = await client.connection.sendRequest<Location>('textDocument/definition', ref);
    expect(relative(target.uri)).toBe('schemas/v2/ids.schema.json');
    expect(text('schemas/v2/ids.schema.json').split('\n')[target.range.start.line]).toMatch(/"eventId":/);
    const refs = await client.connection.sendRequest<Location[]>('textDocument/references', {
      ...ref,
      context: { includeDeclaration: false },
    });
    expect(refs.map((r) => relative(r.uri))).toContain('schemas/v2/run-event.schema.json');

    // A family: every mention, in prose code spans and in JSON strings.
    const family = at('schemas/v2/capabilities.schema.json', 'Family `aiEnvelope`', 9);
    const familyRefs = await client.connection.sendRequest<Location[]>('textDocument/references', {
      ...family,
      context: { includeDeclaration: false },
    });
    expect(new Set(familyRefs.map((r) => relative(r.uri)))).toEqual(
      new Set([
        'spec/v2/core/capabilities.md',
        'spec/v2/core/host-services.md',
        'spec/v2/core/security-defaults.md',
        'schemas/v2/capabilities.schema.json',
        'spec/v2/declaration.json',
      ]),
    );
    // Each location is the key itself (a facet's mention, `aiEnvelope.await`, points at its family part).
    expect(
      new Set(
        familyRefs.map((location) =>
          (text(relative(location.uri)).split('\n')[location.range.start.line] ?? '').slice(
            location.range.start.character,
            location.range.end.character,
          ),
        ),
      ),
    ).toEqual(new Set(['aiEnvelope']));
  }, 120_000);
});
