/**
 * CORPUS-STAMP.json: the hash of every file the package ships and the digest over them. It runs
 * last and hashes what the files WILL be once this run's other outputs are written, so one
 * `generate` leaves a stamp that is already current.
 */
import type { Corpus } from '../core/model/index.js';
import { defineGenerator, type GenerationContext } from '../core/run/index.js';
import { buildStamp, formatStamp, isShipped, PACKAGE_NAME, readPackageManifest, SHIPPED_DIRECTORIES, STAMP_PATH } from '../core/release/index.js';

export default defineGenerator({
  id: 'corpus-stamp',
  summary: 'CORPUS-STAMP.json holds the SHA-256 of every shipped file and the digest of the release',
  inputs: ['package.json', ...SHIPPED_DIRECTORIES.map((directory) => `${directory}/`)],
  runsLast: true,
  generate(corpus, report, context) {
    const manifest = readPackageManifest(corpus.root);
    if (!('version' in manifest)) {
      // A corpus that is not a package (a fixture, a scratch directory) has no release to stamp;
      // a stamp that can no longer be refreshed is a finding.
      if (manifest.missing && !corpus.get(STAMP_PATH)) return [];
      report({
        file: manifest.missing ? STAMP_PATH : 'package.json',
        message: `cannot refresh ${STAMP_PATH}: ${manifest.problem}`,
        hint: 'the stamp takes its version from the "version" of the package.json beside the corpus directories',
      });
      return [];
    }
    const contents = new Map<string, string | Uint8Array>();
    for (const file of shippedPaths(corpus, context)) {
      const content = plannedBytes(corpus, context, file);
      if (content !== undefined) contents.set(file, content);
    }
    return [{ path: STAMP_PATH, content: formatStamp(buildStamp(PACKAGE_NAME, manifest.version, contents)) }];
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
  if (typeof content === 'string' && existing && existing.kind !== 'binary' && existing.text === content) return existing.bytes;
  return content;
}
