/**
 * CORPUS-STAMP.json: the hash of every file the package ships and the digest over them. It runs
 * last and hashes what the files WILL be once this run's other outputs are written, so one
 * `generate` leaves a stamp that is already current.
 */
import type { Corpus } from '../core/model/index.js';
import { defineGenerator, type GenerationContext } from '../core/run/index.js';
import path from 'node:path';
import {
  buildStamp,
  formatStamp,
  isShipped,
  PACKAGE_NAME,
  readPackageManifest,
  SHIPPED_DIRECTORIES,
  stampPackageDirectory,
  stampPath,
} from '../core/release/index.js';

export default defineGenerator({
  id: 'corpus-stamp',
  summary:
    'The corpus stamp (CORPUS-STAMP.json, or layout.stamp) holds the SHA-256 of every shipped file and the digest of the release',
  inputs: ['package.json', ...SHIPPED_DIRECTORIES.map((directory) => `${directory}/`)],
  runsLast: true,
  messages: {
    'no-manifest': 'cannot refresh {{stamp}}: there is no {{target}} beside it',
    'manifest-unusable': 'cannot refresh {{stamp}}: {{problem}}',
  },
  generate(corpus, report, context) {
    const stamp = stampPath(corpus);
    const directory = stampPackageDirectory(corpus);
    const packageJson = directory ? `${directory}/package.json` : 'package.json';
    const manifest = readPackageManifest(directory ? path.join(corpus.root, directory) : corpus.root);
    if (!('version' in manifest)) {
      // A corpus that is not a package (a fixture, a scratch directory) has no release to stamp;
      // a stamp that can no longer be refreshed is a finding.
      if (manifest.missing && !corpus.get(stamp)) return [];
      report({
        file: manifest.missing ? stamp : packageJson,
        ...(manifest.missing
          ? { messageId: 'no-manifest', data: { stamp, target: packageJson } }
          : { messageId: 'manifest-unusable', data: { stamp, target: packageJson, problem: manifest.problem } }),
        hint: 'the stamp takes its version from the "version" of the package.json beside the corpus directories',
      });
      return [];
    }
    const contents = new Map<string, string | Uint8Array>();
    for (const file of shippedPaths(corpus, context)) {
      const content = plannedBytes(corpus, context, file);
      if (content !== undefined) contents.set(file, content);
    }
    return [{ path: stamp, content: formatStamp(buildStamp(PACKAGE_NAME, manifest.version, contents)) }];
  },
});

function shippedPaths(corpus: Corpus, context: GenerationContext): string[] {
  const paths = new Set<string>();
  for (const file of corpus.files.keys()) if (isShipped(file)) paths.add(file);
  for (const file of context.plannedPaths?.() ?? []) if (isShipped(file)) paths.add(file);
  return [...paths];
}

/**
 * The bytes a file will have on disk after this run. A file no generator changes keeps its bytes
 * (a byte-order mark included, which the model's text drops), so it is hashed from those.
 */
function plannedBytes(corpus: Corpus, context: GenerationContext, file: string): string | Uint8Array | undefined {
  const content = context.contentOf(file);
  const existing = corpus.get(file);
  // The text stands for the bytes when they are the same (hashed alike, and kept from one stamp to
  // the next by core/release's hashFiles); else the bytes as written.
  if (typeof content === 'string' && existing && existing.kind !== 'binary' && existing.text === content)
    return existing.bytesAreText ? content : existing.bytes;
  return content;
}
