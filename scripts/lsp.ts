/** `openwop-spec lsp`: the language server over stdio, for editors; the findings are those `check` reports. */
import type { Command } from 'commander';
import { startServer } from '../lsp/index.js';
import { corpusRun } from './lsp-run.js';

export function register(program: Command): void {
  program
    .command('lsp')
    .description(
      'run the language server over stdio: live findings, navigation, completion, rename and fixes for §-citations, error codes, event types and $refs',
    )
    .option('--root <dir>', "corpus root (default: the editor's workspace folder)")
    // Clients pass the transport; stdio is the only one.
    .option('--stdio', 'talk JSON-RPC over stdin and stdout (the default and only transport)')
    .action(
      (options: { root?: string }) =>
        new Promise<void>((resolve) => {
          const connection = startServer({
            ...(options.root !== undefined ? { root: options.root } : {}),
            open(root) {
              const run = corpusRun(root);
              return { config: run.config, run };
            },
          });
          connection.onExit(() => resolve());
          // An editor that goes away closes the pipe without a word: that ends the session too.
          process.stdin.once('end', () => resolve());
          process.stdin.once('close', () => resolve());
        }),
    );
}
