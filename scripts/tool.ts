/** The tool's name, version, exit codes and usage error: what the command line needs before any verb is loaded. */
import { readFileSync } from 'node:fs';

export const EXIT = { clean: 0, findings: 1, usage: 2 } as const;

/** A problem with how the tool was called or with what it was pointed at: one line, exit 2. */
export class UsageError extends Error {}

export const TOOL_NAME = 'openwop-spec';

export function toolVersion(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return manifest.version;
}
