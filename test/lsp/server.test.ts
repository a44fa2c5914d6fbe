/**
 * `openwop-spec lsp` through a real client (vscode-languageserver-protocol over the built CLI's
 * stdio), one capability a test, on this corpus (a private copy where the test edits) and on the
 * fixture corpora. The diagnostics are held to `check --format json` over the same bytes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  CodeAction,
  CompletionItem,
  Diagnostic,
  DocumentLink,
  Hover,
  Location,
  Position,
  SymbolInformation,
  TextEdit,
  WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { copyCorpus, copyFixture, findingKey, positionOf, removeTempDirs, reported, spawnCli } from '../helpers.js';
import { startClient, type Client } from './client.js';

afterAll(removeTempDirs);

function published(client: Client): string[] {
  return [...client.diagnostics]
    .flatMap(([file, list]) =>
      list.map((d) => findingKey(file, d.data as { rule: string; message: string; line: number; column: number })),
    )
    .sort();
}

function checked(root: string): string[] {
  const result = spawnCli(['check', '--root', root, '--format', 'json']);
  expect(result.stderr).toBe('');
  return reported(result.stdout)
    .map((d) => findingKey(d.file, d))
    .sort();
}

function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const offset = (p: Position): number => {
    const lines = text.split('\n');
    return lines.slice(0, p.line).reduce((n, line) => n + line.length + 1, 0) + p.character;
  };
  return [...edits]
    .sort((a, b) => offset(b.range.start) - offset(a.range.start))
    .reduce((out, e) => out.slice(0, offset(e.range.start)) + e.newText + out.slice(offset(e.range.end)), text);
}

const CONNECTION_PACKS = 'spec/v2/core/connection-packs.md';
const SECURITY_DEFAULTS = 'spec/v2/core/security-defaults.md';
const ERRORS = 'spec/v2/errors.json';

describe('on this corpus', () => {
  let root: string;
  let client: Client;
  const text = (file: string): string => readFileSync(path.join(root, file), 'utf8');

  beforeAll(async () => {
    root = copyCorpus({ config: true, prefix: 'openwop-lsp-' });
    client = await startClient(root);
    await client.settled();
  }, 120_000);
  afterAll(async () => {
    await client?.stop();
    if (client?.stderr()) process.stderr.write(client.stderr());
  });

  it('publishes what check --format json reports, for the edited file and the files that cite it, and clears them when the edit is undone', async () => {
    expect(published(client)).toEqual(checked(root));
    const original = text(CONNECTION_PACKS);
    const heading = positionOf(original, '## Provider identity', 3);
    client.open(CONNECTION_PACKS, original);
    const errorsPublished = client.nextPublish(ERRORS, (d) => d.length > 0);
    client.change(
      CONNECTION_PACKS,
      2,
      { start: heading, end: { line: heading.line, character: heading.character + 'Provider identity'.length } },
      'Naming of providers',
    );
    const inErrors = await errorsPublished;
    expect(inErrors.some((d) => (d.data as { rule: string }).rule === 'links/section-ref')).toBe(true);
    await client.settled();
    // The same bytes on disk, checked by the CLI.
    const edited = copyCorpus({ from: root, config: true, prefix: 'openwop-lsp-' });
    writeFileSync(
      path.join(edited, CONNECTION_PACKS),
      original.replace('## Provider identity', '## Naming of providers'),
    );
    const expected = checked(edited);
    expect(expected.length).toBeGreaterThan(3);
    expect(published(client)).toEqual(expected);
    expect(new Set(published(client).map((k) => JSON.parse(k)[0])).size).toBeGreaterThan(2);

    const cleared = client.nextPublish(ERRORS, (d) => d.length === 0);
    client.change(
      CONNECTION_PACKS,
      3,
      { start: heading, end: { line: heading.line, character: heading.character + 'Naming of providers'.length } },
      'Provider identity',
    );
    await cleared;
    await client.settled();
    expect(published(client)).toEqual(checked(root));
  }, 240_000);

  it('definition: a citation in markdown and in a JSON string goes to the heading; an error code to its row; an event type to its codemap row; a $ref to its target', async () => {
    const security = text(SECURITY_DEFAULTS);
    const fromMarkdown = await client.connection.sendRequest<Location>('textDocument/definition', {
      textDocument: { uri: client.uri(SECURITY_DEFAULTS) },
      position: positionOf(security, '§"Provider identity"', 4),
    });
    expect(fromMarkdown.uri).toBe(client.uri(CONNECTION_PACKS));
    expect(fromMarkdown.range.start.line).toBe(positionOf(text(CONNECTION_PACKS), '## Provider identity').line);

    const errors = text(ERRORS);
    const fromJson = await client.connection.sendRequest<Location>('textDocument/definition', {
      textDocument: { uri: client.uri(ERRORS) },
      position: positionOf(errors, '§Provider identity', 3),
    });
    expect(fromJson.uri).toBe(client.uri(CONNECTION_PACKS));
    expect(fromJson.range.start.line).toBe(11);

    const code = await client.connection.sendRequest<Location>('textDocument/definition', {
      textDocument: { uri: client.uri(CONNECTION_PACKS) },
      position: positionOf(text(CONNECTION_PACKS), 'connection_provider_unresolved', 5),
    });
    expect(code.uri).toBe(client.uri(ERRORS));
    expect(code.range.start.line).toBe(positionOf(errors, '"code": "connection_provider_unresolved"').line - 1);

    const events = text('spec/v2/core/events.md');
    const codemap = text('spec/v2/event-codemap.json');
    const event = await client.connection.sendRequest<Location>('textDocument/definition', {
      textDocument: { uri: client.uri('spec/v2/core/events.md') },
      position: positionOf(events, '`run.started`', 2),
    });
    expect(event.uri).toBe(client.uri('spec/v2/event-codemap.json'));
    expect(codemap.split('\n')[event.range.start.line]).toContain('"v1": "run.started"');

    const openapi = text('api/v2/openapi.yaml');
    const ref = await client.connection.sendRequest<Location>('textDocument/definition', {
      textDocument: { uri: client.uri('api/v2/openapi.yaml') },
      position: positionOf(openapi, "'#/components/parameters/OpenWOPVersion'", 5),
    });
    expect(ref.uri).toBe(client.uri('api/v2/openapi.yaml'));
    expect(openapi.split('\n')[ref.range.start.line]).toMatch(/^\s+OpenWOPVersion:/);
  });

  it("hover: a citation shows the section's first paragraph; an error code its status, retriability, since and meaning; an event type its names and payload", async () => {
    const security = text(SECURITY_DEFAULTS);
    const section = await client.connection.sendRequest<Hover>('textDocument/hover', {
      textDocument: { uri: client.uri(SECURITY_DEFAULTS) },
      position: positionOf(security, '§"Provider identity"', 4),
    });
    const firstParagraph = text(CONNECTION_PACKS).split('## Provider identity\n\n')[1]?.split('\n\n')[0] ?? '';
    expect(firstParagraph.length).toBeGreaterThan(20);
    expect((section.contents as { value: string }).value).toContain(firstParagraph);

    const code = await client.connection.sendRequest<Hover>('textDocument/hover', {
      textDocument: { uri: client.uri(CONNECTION_PACKS) },
      position: positionOf(text(CONNECTION_PACKS), 'connection_provider_unresolved', 3),
    });
    expect((code.contents as { value: string }).value).toMatch(
      /HTTP 400, not retriable, since 2\.0[\s\S]*registering the dependent connector/,
    );

    const event = await client.connection.sendRequest<Hover>('textDocument/hover', {
      textDocument: { uri: client.uri('spec/v2/core/events.md') },
      position: positionOf(text('spec/v2/core/events.md'), '`run.started`', 2),
    });
    expect((event.contents as { value: string }).value).toMatch(
      /v1: `run\.started`[\s\S]*payload: `runStarted`[\s\S]*```json/,
    );
  });

  it('references: every citation of a heading across markdown, JSON and YAML strings; every mention of an error code', async () => {
    const refs = await client.connection.sendRequest<Location[]>('textDocument/references', {
      textDocument: { uri: client.uri(CONNECTION_PACKS) },
      position: positionOf(text(CONNECTION_PACKS), '## Provider identity', 5),
      context: { includeDeclaration: false },
    });
    const files = refs.map((r) => path.relative(root, new URL(r.uri).pathname)).sort();
    expect(files).toEqual(expect.arrayContaining([CONNECTION_PACKS, SECURITY_DEFAULTS, ERRORS, 'api/v2/openapi.yaml']));
    expect(files.filter((f) => f === ERRORS)).toHaveLength(2);

    const mentions = await client.connection.sendRequest<Location[]>('textDocument/references', {
      textDocument: { uri: client.uri(ERRORS) },
      position: positionOf(text(ERRORS), 'connection_provider_unresolved', 2),
      context: { includeDeclaration: true },
    });
    const where = mentions.map((r) => path.relative(root, new URL(r.uri).pathname));
    expect(where).toEqual(
      expect.arrayContaining([ERRORS, CONNECTION_PACKS, 'spec/v2/core/errors.md', 'api/v2/openapi.yaml']),
    );
  });

  it('completion: headings after §" of the named document and after # of a link; codes in a code span; rule ids in a suppression comment', async () => {
    const uri = client.uri(SECURITY_DEFAULTS);
    const original = text(SECURITY_DEFAULTS);
    client.open(SECURITY_DEFAULTS, original);
    const end = original.split('\n').length - 1;
    const lines = [
      'See connection-packs.md §"Prov',
      'and [x](connection-packs.md#prov',
      'with `connection_prov',
      '<!-- openwop-spec-disable-next-line links/sec',
    ];
    client.change(
      SECURITY_DEFAULTS,
      2,
      { start: { line: end, character: 0 }, end: { line: end, character: 0 } },
      `\n${lines.join('\n\n')}\n`,
    );
    const at = (i: number): Position => ({ line: end + 1 + 2 * i, character: (lines[i] as string).length });
    const labels = async (i: number): Promise<string[]> =>
      (
        await client.connection.sendRequest<CompletionItem[]>('textDocument/completion', {
          textDocument: { uri },
          position: at(i),
        })
      ).map((item) => item.label);
    expect(await labels(0)).toContain('Provider identity');
    expect(await labels(1)).toContain('provider-identity');
    const codes = await client.connection.sendRequest<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri },
      position: at(2),
    });
    expect(codes.find((item) => item.label === 'connection_provider_unresolved')?.detail).toBe('HTTP 400');
    expect(await labels(3)).toContain('links/section-ref');
    client.change(
      SECURITY_DEFAULTS,
      3,
      { start: { line: end, character: 0 }, end: { line: end + 1 + 2 * lines.length, character: 0 } },
      '',
    );

    // Inside a JSON string the quote is escaped, and the completion closes it so.
    const errors = text(ERRORS);
    client.open(ERRORS, errors);
    const cited = positionOf(errors, '§Provider identity');
    const typed = { line: cited.line, character: cited.character + '§Provider identity'.length };
    client.change(ERRORS, 2, { start: cited, end: typed }, '§\\"Prov');
    const inJson = await client.connection.sendRequest<CompletionItem[]>('textDocument/completion', {
      textDocument: { uri: client.uri(ERRORS) },
      position: { line: cited.line, character: cited.character + '§\\"Prov'.length },
    });
    expect((inJson.find((item) => item.label === 'Provider identity')?.textEdit as TextEdit | undefined)?.newText).toBe(
      'Provider identity\\"',
    );
    client.change(
      ERRORS,
      3,
      { start: cited, end: { line: cited.line, character: cited.character + '§\\"Prov'.length } },
      '§Provider identity',
    );
  });

  it('rename: a heading renames its citations in markdown and in JSON and YAML strings, keeping their quoting', async () => {
    const edit = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: client.uri(CONNECTION_PACKS) },
      position: positionOf(text(CONNECTION_PACKS), '## Provider identity', 4),
      newName: 'Provider naming',
    });
    const changes = edit.changes ?? {};
    const renamedErrors = applyEdits(text(ERRORS), changes[client.uri(ERRORS)] ?? []);
    // `§Provider identity` in a JSON string: the whole heading replaced, the quotes escaped.
    expect(renamedErrors).toContain('"source": "spec/v2/core/connection-packs.md §\\"Provider naming\\"",');
    expect(JSON.parse(renamedErrors).rows[0].source).toBe('spec/v2/core/connection-packs.md §"Provider naming"');
    const renamedPacks = applyEdits(text(CONNECTION_PACKS), changes[client.uri(CONNECTION_PACKS)] ?? []);
    expect(renamedPacks).toContain('## Provider naming\n');
    expect(renamedPacks).toContain('[§"Provider naming"](#provider-naming)');
    expect(applyEdits(text(SECURITY_DEFAULTS), changes[client.uri(SECURITY_DEFAULTS)] ?? [])).toContain(
      'connection-packs.md#provider-naming',
    );
    expect(Object.keys(changes)).toContain(client.uri('api/v2/openapi.yaml'));
  });

  it('rename: an error code renames its registry row, its mentions and the regenerated outputs, and says what it breaks', async () => {
    const messages: string[] = [];
    client.connection.onNotification(
      'window/showMessage',
      (params: { message: string }) => void messages.push(params.message),
    );
    const edit = await client.connection.sendRequest<WorkspaceEdit>('textDocument/rename', {
      textDocument: { uri: client.uri(ERRORS) },
      position: positionOf(text(ERRORS), 'connection_provider_unresolved', 2),
      newName: 'connection_provider_unknown',
    });
    const changes = edit.changes ?? {};
    expect(JSON.parse(applyEdits(text(ERRORS), changes[client.uri(ERRORS)] ?? [])).rows[0].code).toBe(
      'connection_provider_unknown',
    );
    expect(applyEdits(text(CONNECTION_PACKS), changes[client.uri(CONNECTION_PACKS)] ?? [])).not.toContain(
      'connection_provider_unresolved',
    );
    expect(applyEdits(text('api/v2/openapi.yaml'), changes[client.uri('api/v2/openapi.yaml')] ?? [])).toContain(
      '- connection_provider_unknown',
    );
    // The stamp digests every file: an edit of any makes it regenerate.
    expect(Object.keys(changes)).toContain(client.uri('CORPUS-STAMP.json'));
    await new Promise((r) => setTimeout(r, 200));
    expect(messages.some((m) => m.includes('clients that match on "connection_provider_unresolved"'))).toBe(true);
  });

  it('code actions on a drift finding in a JSON file: regenerate the stale outputs, suppress through an entry of the suppressions file', async () => {
    const original = text(ERRORS);
    client.open(ERRORS, original);
    const stamp = 'CORPUS-STAMP.json';
    const stale = client.nextPublish(stamp, (d) => d.some((x) => x.code === 'generated/drift'));
    const at = positionOf(original, 'registering the dependent connector');
    client.change(ERRORS, 2, { start: at, end: at }, 'first ');
    const drift = (await stale).filter((d) => d.code === 'generated/drift');
    expect(drift.length).toBeGreaterThan(0);
    const first = drift[0] as Diagnostic;
    const actions = await client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri: client.uri(stamp) },
      range: first.range,
      context: { diagnostics: [first] },
    });
    const regenerate = actions.find((action) => action.title.startsWith('Regenerate'));
    const regenerated = regenerate?.edit?.changes?.[client.uri(stamp)] ?? [];
    expect(regenerated).toHaveLength(1);
    const fresh = JSON.parse(applyEdits(text(stamp), regenerated)) as { digest: string };
    expect(fresh.digest).not.toBe((JSON.parse(text(stamp)) as { digest: string }).digest);
    const suppress = actions.find((action) => action.title.startsWith('Suppress generated/drift'));
    const created = suppress?.edit?.documentChanges ?? [];
    expect(created[0]).toEqual({
      kind: 'create',
      uri: client.uri('openwop-spec.suppressions.json'),
      options: { ignoreIfExists: true },
    });
    const entry = JSON.parse((created[1] as { edits: TextEdit[] }).edits[0]?.newText ?? '{}') as {
      suppressions: Array<Record<string, string>>;
    };
    expect(entry.suppressions).toEqual([
      {
        rule: 'generated/drift',
        file: stamp,
        fingerprint: (first.data as { fingerprint: string }).fingerprint,
        reason: 'say why this finding is accepted',
      },
    ]);
    const cleared = client.nextPublish(stamp, (d) => d.length === 0);
    client.change(ERRORS, 3, { start: at, end: { line: at.line, character: at.character + 'first '.length } }, '');
    await cleared;
  }, 60_000);

  it('document links and workspace symbols', async () => {
    const links = await client.connection.sendRequest<DocumentLink[]>('textDocument/documentLink', {
      textDocument: { uri: client.uri(SECURITY_DEFAULTS) },
    });
    expect(links.some((l) => l.target === `${client.uri(CONNECTION_PACKS)}#L12`)).toBe(true);
    const symbols = await client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', { query: 'provider' });
    const names = symbols.map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining(['Provider identity', 'connection_provider_unresolved']));
    const events = await client.connection.sendRequest<SymbolInformation[]>('workspace/symbol', {
      query: 'run.started',
    });
    expect(events.map((s) => s.kind)).toContain(24);
  });
});

describe('on fixture corpora', () => {
  it('diagnostics equal check --format json on a fixture with findings, and a code action applies each fix, fixes all of a rule, suppresses with a reason', async () => {
    const root = copyFixture('good');
    const a = readFileSync(path.join(root, 'spec/v2/core/a.md'), 'utf8');
    const cited = 'Some heading';
    expect(readFileSync(path.join(root, 'spec/v2/core/b.md'), 'utf8')).toContain(`## ${cited}\n`);
    // Two citations of a heading misspelt: links/section-ref suggests the heading and carries a fix.
    const broken = `${a}\nSee b.md §"${cited}x" and again b.md §"${cited}x".\n`;
    writeFileSync(path.join(root, 'spec/v2/core/a.md'), broken);
    const client = await startClient(root);
    try {
      await client.settled();
      expect(published(client)).toEqual(checked(root));
      const diagnostics = client.diagnostics.get('spec/v2/core/a.md') as Diagnostic[];
      const sectionRef = diagnostics.filter((d) => d.code === 'links/section-ref');
      expect(sectionRef).toHaveLength(2);
      const actions = await client.connection.sendRequest<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri: client.uri('spec/v2/core/a.md') },
        range: (sectionRef[0] as Diagnostic).range,
        context: { diagnostics: sectionRef },
      });
      const titles = actions.map((action) => action.title);
      const fix = actions.find((action) => action.title.startsWith('Fix links/section-ref: '));
      expect(applyEdits(broken, fix?.edit?.changes?.[client.uri('spec/v2/core/a.md')] ?? [])).toContain(
        `See b.md §"${cited}" and again b.md §"${cited}x"`,
      );
      const all = actions.find((action) => action.title === 'Fix all 2 findings of links/section-ref');
      expect(applyEdits(broken, all?.edit?.changes?.[client.uri('spec/v2/core/a.md')] ?? [])).toContain(
        `See b.md §"${cited}" and again b.md §"${cited}".`,
      );
      const suppress = actions.find((action) => action.title.startsWith('Suppress links/section-ref'));
      expect(applyEdits(broken, suppress?.edit?.changes?.[client.uri('spec/v2/core/a.md')] ?? [])).toContain(
        `<!-- openwop-spec-disable-next-line links/section-ref -- say why this finding is accepted -->\nSee b.md §"${cited}x"`,
      );
      expect(titles.length).toBe(actions.length);
    } finally {
      await client.stop();
    }
  }, 60_000);

  it('a file changed on disk (workspace/didChangeWatchedFiles) is read again and its findings published', async () => {
    const root = copyFixture('good');
    const client = await startClient(root);
    try {
      await client.settled();
      const file = 'spec/v2/core/a.md';
      const before = client.diagnostics.get(file)?.length ?? 0;
      writeFileSync(path.join(root, file), `${readFileSync(path.join(root, file), 'utf8')}\nSee §"No such heading".\n`);
      const next = client.nextPublish(file, (d) => d.length > before);
      void client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: client.uri(file), type: 2 }],
      });
      const found = await next;
      expect(found.some((d) => (d.data as { message: string }).message.includes('No such heading'))).toBe(true);
      await client.settled();
      expect(published(client)).toEqual(checked(root));
    } finally {
      await client.stop();
    }
  }, 60_000);
});
