/** `openwop-spec init`: a commented starter config for the repository found from the working directory; never overwrites one. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import {
  CONFIG_SCHEMA,
  CONFIG_SCHEMA_FILE,
  configFileIn,
  detectLayout,
  discoverConfig,
  starterConfig,
} from '../core/config/index.js';
import { note, writeFileAtomic } from '../core/output/index.js';
import { toolRoot } from '../core/tool/index.js';
import { EXIT, UsageError, usingConfig } from './common.js';

const STARTER = 'openwop-spec.config.jsonc';

export function register(program: Command): void {
  program
    .command('init')
    .description(
      `write a commented starter config (${STARTER}) for this repository, from the layout found there; refuses to overwrite a config`,
    )
    .option('--root <dir>', 'where to write it (default: the repository root found from the working directory)')
    .action((options: { root?: string }) => {
      process.exitCode = runInit(options);
    });
}

export function runInit(options: { root?: string }): number {
  const root =
    options.root !== undefined ? path.resolve(options.root) : usingConfig(() => discoverConfig(process.cwd())).root;
  if (!existsSync(root)) throw new UsageError(`${options.root} does not exist`);
  const existing = usingConfig(() => configFileIn(root));
  if (existing !== undefined)
    throw new UsageError(
      `${display(existing)} exists; init never overwrites a config (\`openwop-spec check --print-config FILE\` shows what it says)`,
    );
  const layout = detectLayout(root);
  const target = path.join(root, STARTER);
  writeFileAtomic(target, starterConfig(layout, schemaReference(root)));
  note(
    `wrote ${display(target)}: ${layout.directories.length > 0 ? layout.directories.join(', ') : 'no corpus directories found'}; stamp ${layout.stamp}; ${Object.keys(layout.schemaIds).length} $id base${Object.keys(layout.schemaIds).length === 1 ? '' : 's'}; ${layout.required.length} required file${layout.required.length === 1 ? '' : 's'}\n`,
  );
  return EXIT.clean;
}

/** The published schema as the config will find it: relative when the tool is installed under the root, else its $id. */
function schemaReference(root: string): string {
  const installed = path.join(toolRoot(), CONFIG_SCHEMA_FILE);
  const relative = path.relative(root, installed).split(path.sep).join('/');
  if (!relative.startsWith('../') && !path.isAbsolute(relative) && existsSync(installed)) return `./${relative}`;
  return CONFIG_SCHEMA.$id;
}

function display(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') ? relative : file;
}
