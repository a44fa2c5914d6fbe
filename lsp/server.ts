/**
 * The server: JSON-RPC over stdio (vscode-languageserver), one workspace model, one run. Every
 * change (an edit, a file changed on disk) re-parses what changed and runs the run again over the
 * model in memory, handing it the last result so that only the gates and generators whose reads
 * the change touches run again (core/run/reuse.ts), then publishes the findings of every file whose
 * findings changed, empty lists included, so that a fixed file is cleared. The run is the one
 * `check` makes, so what the editor shows is what `check --format json` reports for the same bytes.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createConnection,
  DidChangeWatchedFilesNotification,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ProposedFeatures,
  ShowMessageNotification,
  StreamMessageReader,
  StreamMessageWriter,
  TextDocuments,
  TextDocumentSyncKind,
  type Connection,
  type InitializeParams,
} from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { readConfigText, type Config } from '../core/config/index.js';
import { guardedPath, ReadRefused } from '../core/fs/index.js';
import { isActive, type Diagnostic } from '../core/output/index.js';
import { offsetAt, rangeOf, textual, toLsp } from './convert.js';
import { codeActions, completions, rename, renameTarget } from './edit.js';
import { declarationOf, documentLinks, hoverOf, meaningAt, referencesOf, workspaceSymbols } from './navigate.js';
import type { CorpusRun, RunResult } from './run.js';
import { Workspace } from './workspace.js';

export interface ServerOptions {
  /** The corpus root when the command line names one; else the client's workspace folder, else the working directory. */
  root?: string;
  /** The config of a root, and the run it makes (wired by the verb: the server knows no gate). */
  open(root: string): { config: Config; run: CorpusRun };
  input?: NodeJS.ReadableStream;
  output?: NodeJS.WritableStream;
}

export function startServer(options: ServerOptions): Connection {
  const connection = createConnection(
    ProposedFeatures.all,
    new StreamMessageReader(options.input ?? process.stdin),
    new StreamMessageWriter(options.output ?? process.stdout),
  );
  const documents = new TextDocuments(TextDocument);
  let workspace: Workspace | undefined;
  let corpusRun: CorpusRun | undefined;
  let result: (RunResult & { version: number }) | undefined;
  /** Root-relative file → the findings last published for it, as JSON, so that unchanged files are not sent again. */
  const published = new Map<string, string>();
  let scheduled = false;
  let watchRegistration = false;
  let rootDir = options.root;

  const uriOf = (file: string): string => (workspace as Workspace).uriOf(file);

  const fail = (error: unknown): void => {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // A notification, not a request: the author is told, and nothing waits on an answer.
    void connection.sendNotification(ShowMessageNotification.type, {
      type: MessageType.Error,
      message: `openwop-spec: ${message}`,
    });
    connection.console.error(`openwop-spec: ${message}`);
  };

  /** Paths changed on disk since the last run that are not corpus files (a linked README): the run cannot see those by comparing models. */
  const changedOnDisk = new Set<string>();

  /** The run over the model as it is now, once per change: it re-runs what the change touches and keeps the rest of the last run. */
  const current = (): RunResult | undefined => {
    if (!workspace || !corpusRun) return undefined;
    if (result && result.version === workspace.version) return result;
    try {
      const since = result ? { previous: result, changed: [...changedOnDisk] } : undefined;
      changedOnDisk.clear();
      result = { ...corpusRun.run(workspace.corpus, since), version: workspace.version };
    } catch (error) {
      fail(error);
      return undefined;
    }
    return result;
  };

  const publish = (first?: string): void => {
    scheduled = false;
    const ran = current();
    if (!ran || !workspace) return;
    const byFile = new Map<string, Diagnostic[]>();
    for (const d of ran.diagnostics) if (isActive(d)) byFile.set(d.file, [...(byFile.get(d.file) ?? []), d]);
    // The edited file is published after every edit, findings or none, so that the editor knows they are of its latest text.
    const files = new Set([...byFile.keys(), ...published.keys(), ...(first ? [first] : [])]);
    // The edited file first: its findings are what the author is looking at.
    const order = first && files.has(first) ? [first, ...[...files].filter((f) => f !== first)] : [...files];
    for (const file of order) {
      const found = byFile.get(file) ?? [];
      const key = JSON.stringify(found);
      if (published.get(file) === key && file !== first) continue;
      if (found.length === 0) published.delete(file);
      else published.set(file, key);
      const model = workspace.corpus.get(file);
      void connection.sendDiagnostics({ uri: uriOf(file), diagnostics: found.map((d) => toLsp(d, model, uriOf)) });
    }
  };

  const schedule = (edited?: string): void => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => publish(edited));
  };

  const open = (): void => {
    const root = path.resolve(rootDir ?? process.cwd());
    const opened = options.open(root);
    corpusRun = opened.run;
    workspace = new Workspace(root, opened.config);
    for (const document of documents.all()) {
      const file = workspace.pathOf(document.uri);
      if (file) workspace.setText(file, document.getText());
    }
    result = undefined;
    changedOnDisk.clear();
  };

  connection.onInitialize((params: InitializeParams) => {
    if (!rootDir) {
      const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
      if (folder?.startsWith('file:')) rootDir = fileURLToPath(folder);
      else if (params.rootPath) rootDir = params.rootPath;
    }
    watchRegistration = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        definitionProvider: true,
        hoverProvider: true,
        referencesProvider: true,
        renameProvider: { prepareProvider: true },
        completionProvider: { triggerCharacters: ['"', '“', '#', '`', ' ', '.', '_'] },
        codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll'] },
        documentLinkProvider: { resolveProvider: false },
        workspaceSymbolProvider: true,
      },
      serverInfo: { name: 'openwop-spec' },
    };
  });

  connection.onInitialized(() => {
    try {
      open();
    } catch (error) {
      fail(error);
      return;
    }
    if (watchRegistration) {
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: [{ globPattern: '**/*.{md,json,yaml,yml}' }],
      });
    }
    schedule();
  });

  documents.onDidChangeContent(({ document }) => {
    const file = workspace?.pathOf(document.uri);
    if (!workspace || !file) return;
    if (workspace.setText(file, document.getText())) schedule(file);
  });
  documents.onDidClose(({ document }) => {
    const file = workspace?.pathOf(document.uri);
    if (!workspace || !file) return;
    workspace.close(file);
    workspace.reload();
    schedule();
  });

  connection.onDidChangeWatchedFiles(({ changes }) => {
    if (!workspace) return;
    const files = changes
      .map((change) => workspace?.pathOf(change.uri))
      .filter((file): file is string => file !== undefined);
    if (files.length === 0) return;
    try {
      // The config and the suppressions file decide what the run is: a change to either opens the root afresh.
      if (files.some((file) => corpusRun?.configuration.includes(file))) open();
      else {
        for (const file of files) changedOnDisk.add(file);
        workspace.reload();
      }
    } catch (error) {
      fail(error);
      return;
    }
    schedule();
  });

  /** The model's file and offset under a protocol position, when the document is a corpus file. */
  const at = (uri: string, position: { line: number; character: number }) => {
    const file = workspace?.pathOf(uri);
    const model = file ? textual(workspace?.corpus.get(file)) : undefined;
    return workspace && file && model
      ? { corpus: workspace.corpus, file, offset: offsetAt(model, position) }
      : undefined;
  };

  connection.onDefinition(({ textDocument, position }) => {
    const here = at(textDocument.uri, position);
    const found = here && meaningAt(here.corpus, here.file, here.offset);
    return (found && declarationOf(here.corpus, found.meaning, uriOf)) ?? null;
  });

  connection.onHover(({ textDocument, position }) => {
    const here = at(textDocument.uri, position);
    const found = here && meaningAt(here.corpus, here.file, here.offset);
    return found ? hoverOf(here.corpus, found.meaning) : null;
  });

  connection.onReferences(({ textDocument, position, context }) => {
    const here = at(textDocument.uri, position);
    const found = here && meaningAt(here.corpus, here.file, here.offset);
    return found ? referencesOf(here.corpus, found.meaning, context.includeDeclaration, uriOf) : [];
  });

  connection.onCompletion(({ textDocument, position }) => {
    const here = at(textDocument.uri, position);
    return here && corpusRun ? completions(here.corpus, here.file, here.offset, corpusRun.rules) : [];
  });

  connection.onPrepareRename(({ textDocument, position }) => {
    const here = at(textDocument.uri, position);
    const found = here && meaningAt(here.corpus, here.file, here.offset);
    const placeholder = found && renameTarget(found.meaning);
    const model = here ? textual(here.corpus.get(here.file)) : undefined;
    if (!found || !placeholder || !model) return null;
    return { range: rangeOf(model, found.start, found.end), placeholder };
  });

  connection.onRenameRequest(({ textDocument, position, newName }) => {
    const here = at(textDocument.uri, position);
    const found = here && meaningAt(here.corpus, here.file, here.offset);
    if (!here || !found || !corpusRun) return null;
    const renamed = rename(here.corpus, found.meaning, newName, uriOf, (corpus) =>
      (corpusRun as CorpusRun).generate(corpus),
    );
    if (!renamed)
      return renameTarget(found.meaning)
        ? new ResponseError(
            LSPErrorCodes.RequestFailed,
            'a heading is renamed to one line of text, a code or an event type to one word',
          )
        : null;
    if (renamed.consequence)
      void connection.sendNotification(ShowMessageNotification.type, {
        type: MessageType.Warning,
        message: renamed.consequence,
      });
    return renamed.edit;
  });

  connection.onCodeAction(({ textDocument, range, context }) => {
    const file = workspace?.pathOf(textDocument.uri);
    const ran = current();
    if (!workspace || !file || !ran) return [];
    const readSuppressions = (relative: string): string | undefined => {
      const open = documents.get(workspace?.uriOf(relative) ?? '');
      if (open) return open.getText();
      // Through the root's guard, as the run reads it: a link or a path out of the root is refused
      // (the request fails with the reason), never followed; only a missing file is "none yet".
      try {
        return readConfigText(guardedPath(workspace?.root ?? '', relative), 'suppressions file');
      } catch (error) {
        if (error instanceof ReadRefused && error.code === 'ENOENT') return undefined;
        throw error;
      }
    };
    const asked = context.diagnostics.flatMap((d) => {
      const data = d.data as { rule?: unknown; line?: unknown; column?: unknown } | undefined;
      return typeof data?.rule === 'string' && typeof data.line === 'number' && typeof data.column === 'number'
        ? [{ rule: data.rule, line: data.line, column: data.column }]
        : [];
    });
    return codeActions(workspace.corpus, file, range, ran.diagnostics, ran.plan, uriOf, readSuppressions, asked);
  });

  connection.onDocumentLinks(({ textDocument }) => {
    const file = workspace?.pathOf(textDocument.uri);
    return workspace && file ? documentLinks(workspace.corpus, file, uriOf) : [];
  });

  connection.onWorkspaceSymbol(({ query }) => (workspace ? workspaceSymbols(workspace.corpus, query, uriOf) : []));

  documents.listen(connection);
  connection.listen();
  return connection;
}
