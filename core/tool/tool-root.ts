/**
 * The directory of the tool's own package, whichever file asks: a module of dist/ as tsc wrote it,
 * a chunk of the bundled command line (dist/scripts/chunks/), or a source file under vitest. Paths
 * relative to one module's URL broke as soon as the module moved into a bundle.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = '@openwop/spec';
let found: string | undefined;

export function toolRoot(): string {
  if (found !== undefined) return found;
  let directory = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { name?: unknown };
      if (manifest.name === PACKAGE_NAME) return (found = directory);
    } catch {
      // No package.json here, or not JSON: keep going up.
    }
    const parent = path.dirname(directory);
    if (parent === directory)
      throw new Error(`cannot find the ${PACKAGE_NAME} package above ${fileURLToPath(import.meta.url)}`);
    directory = parent;
  }
}
