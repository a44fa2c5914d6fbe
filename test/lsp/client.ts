/**
 * A language client for the tests: the built CLI's `lsp` verb spawned with stdio, spoken to through
 * vscode-languageserver-protocol, as an editor does. It keeps the last diagnostics published for
 * each file and lets a test wait for the next publication of one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createProtocolConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ProtocolConnection,
} from 'vscode-languageserver-protocol/node';
import type { Diagnostic, PublishDiagnosticsParams } from 'vscode-languageserver-protocol';
import { CLI, cliEnv } from '../helpers.js';

export interface Client {
  root: string;
  connection: ProtocolConnection;
  /** The diagnostics last published, by root-relative file. */
  diagnostics: Map<string, Diagnostic[]>;
  uri(file: string): string;
  /** Resolves with the next publication for `file` that `accept` takes (default: any). */
  nextPublish(file: string, accept?: (diagnostics: Diagnostic[]) => boolean, timeoutMs?: number): Promise<Diagnostic[]>;
  /** Resolves once every publication the first run makes has arrived (the server publishes a run's files in one burst). */
  settled(quietMs?: number): Promise<void>;
  open(file: string, text: string): void;
  change(
    file: string,
    version: number,
    range: { start: { line: number; character: number }; end: { line: number; character: number } },
    text: string,
  ): void;
  stop(): Promise<void>;
  stderr(): string;
  process: ChildProcess;
}

export async function startClient(
  root: string,
  options: { capabilities?: Record<string, unknown> } = {},
): Promise<Client> {
  const child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], {
    cwd: root,
    env: cliEnv(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const connection = createProtocolConnection(
    new StreamMessageReader(child.stdout as NodeJS.ReadableStream),
    new StreamMessageWriter(child.stdin as NodeJS.WritableStream),
  );
  const diagnostics = new Map<string, Diagnostic[]>();
  const waiters: Array<{ file: string; accept: (d: Diagnostic[]) => boolean; resolve: (d: Diagnostic[]) => void }> = [];
  let lastPublish = Date.now();
  const relative = (uri: string): string => path.relative(root, new URL(uri).pathname).split(path.sep).join('/');
  connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
    const file = relative(params.uri);
    diagnostics.set(file, params.diagnostics);
    lastPublish = Date.now();
    // Over a copy: a waiter that accepts is removed from `waiters` inside the loop.
    for (const waiter of waiters.slice()) {
      if (waiter.file === file && waiter.accept(params.diagnostics)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(params.diagnostics);
      }
    }
  });
  connection.onRequest('client/registerCapability', () => null);
  connection.onNotification('window/showMessage', () => undefined);
  connection.onNotification('window/logMessage', () => undefined);
  connection.listen();
  const uri = (file: string): string => pathToFileURL(path.join(root, file)).href;
  await connection.sendRequest('initialize', {
    processId: process.pid,
    rootUri: pathToFileURL(root).href,
    capabilities: { workspace: { didChangeWatchedFiles: { dynamicRegistration: true } }, ...options.capabilities },
    workspaceFolders: null,
  });
  await connection.sendNotification('initialized', {});
  return {
    root,
    connection,
    diagnostics,
    uri,
    process: child,
    stderr: () => stderr,
    nextPublish(file, accept = () => true, timeoutMs = 30_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no diagnostics for ${file} within ${timeoutMs} ms; stderr: ${stderr}`)),
          timeoutMs,
        );
        waiters.push({ file, accept, resolve: (d) => (clearTimeout(timer), resolve(d)) });
      });
    },
    async settled(quietMs = 400) {
      // The first run publishes after `initialized`; wait until publications stop for a while.
      const started = Date.now();
      while (
        Date.now() - Math.max(lastPublish, started) < quietMs ||
        (diagnostics.size === 0 && Date.now() - started < 5000)
      )
        await new Promise((r) => setTimeout(r, 50));
    },
    open(file, text) {
      void connection.sendNotification('textDocument/didOpen', {
        textDocument: {
          uri: uri(file),
          languageId: file.endsWith('.md') ? 'markdown' : file.endsWith('.json') ? 'json' : 'yaml',
          version: 1,
          text,
        },
      });
    },
    change(file, version, range, text) {
      void connection.sendNotification('textDocument/didChange', {
        textDocument: { uri: uri(file), version },
        contentChanges: [{ range, text }],
      });
    },
    async stop() {
      try {
        await connection.sendRequest('shutdown');
        await connection.sendNotification('exit');
      } catch {
        // Already gone.
      }
      await new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        const timer = setTimeout(() => (child.kill(), resolve()), 3000);
        child.on('exit', () => (clearTimeout(timer), resolve()));
      });
      connection.dispose();
    },
  };
}
