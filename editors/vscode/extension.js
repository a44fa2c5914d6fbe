// Starts `openwop-spec lsp` over stdio for the markdown, JSON and YAML files of the workspace; the
// server does the rest. The command is the workspace's installed tool unless the setting names one.
const path = require('node:path');
const vscode = require('vscode');
const { LanguageClient, TransportKind } = require('vscode-languageclient/node');

let client;

function serverCommand(folder) {
  const configured = vscode.workspace.getConfiguration('openwop-spec').get('command') || [];
  if (configured.length > 0) return { command: configured[0], args: configured.slice(1) };
  const bin = path.join(folder, 'node_modules', '.bin', process.platform === 'win32' ? 'openwop-spec.cmd' : 'openwop-spec');
  return { command: bin, args: ['lsp'] };
}

async function activate(context) {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  if (!folder) return;
  const { command, args } = serverCommand(folder);
  const server = { command, args, transport: TransportKind.stdio, options: { cwd: folder } };
  client = new LanguageClient('openwop-spec', 'openwop-spec', server, {
    documentSelector: ['markdown', 'json', 'jsonc', 'yaml'].map((language) => ({ scheme: 'file', language })),
    synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.{md,json,yaml,yml}') },
  });
  context.subscriptions.push(client);
  await client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
