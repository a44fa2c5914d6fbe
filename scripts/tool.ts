/** The tool's name, version, exit codes and usage error: what the command line needs before any verb is loaded. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toolRoot } from '../core/tool/index.js';

export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** A problem with how the tool was called or with what it was pointed at: one line, exit 2. */
export class UsageError extends Error {}

export const TOOL_NAME = 'openwop-spec';

export function toolVersion(): string {
  const manifest = JSON.parse(readFileSync(path.join(toolRoot(), 'package.json'), 'utf8')) as { version: string };
  return manifest.version;
}

/**
 * How the person reading can run this tool. In this repository it is not on PATH: there it is
 * `npm run spec --`. From another package's npm script it is `npx openwop-spec`.
 */
function commandPrefix(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  if (env.npm_lifecycle_event !== undefined)
    return env.npm_package_name === THIS_PACKAGE ? 'npm run spec --' : `npx ${TOOL_NAME}`;
  try {
    const manifest = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')) as { name?: unknown };
    if (manifest.name === THIS_PACKAGE) return 'npm run spec --';
  } catch {
    // not in this repository
  }
  return TOOL_NAME;
}

const THIS_PACKAGE = '@openwop/spec';

// Keyed by what the answer depends on, not computed once: tests run the command line many times
// in one process, from different directories and environments.
const prefixes = new Map<string, string>();
/** A message or hint with every `` `openwop-spec <verb>` `` written as the command that works here. */
export function say(text: string): string {
  if (!text.includes(`\`${TOOL_NAME} `)) return text;
  const key = JSON.stringify([process.env.npm_lifecycle_event, process.env.npm_package_name, process.cwd()]);
  let prefix = prefixes.get(key);
  if (prefix === undefined) prefixes.set(key, (prefix = commandPrefix()));
  return prefix === TOOL_NAME ? text : text.replaceAll(`\`${TOOL_NAME} `, `\`${prefix} `);
}
