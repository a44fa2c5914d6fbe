/**
 * What `pack` ships, as bytes: the corpus files and their stamp, the TypeScript declarations,
 * a README for consumers, the package.json, and the package record over those additions. A
 * function of the corpus (and the repository's version and license) alone, so the same corpus
 * stages the same bytes anywhere.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Corpus } from '../model/index.js';
import { compareStrings } from '../output/index.js';
import { renderTable } from '../markdown/index.js';
import { buildPackageStamp, formatPackageStamp, PACKAGE_STAMP_PATH } from './package-stamp.js';
import { buildStamp, formatStamp, isShipped, PACKAGE_NAME, SHIPPED_DIRECTORIES, STAMP_PATH, type CorpusStamp } from './stamp.js';
import { schemaDeclarations, TYPES_DIRECTORY, TYPES_INDEX, type TypeDeclarations } from './types.js';

export class StageError extends Error {
  constructor(
    message: string,
    readonly problems: Array<{ file: string; message: string }> = [],
  ) {
    super(message);
  }
}

export interface StagedPackage {
  /** Package path -> bytes, in code-unit order of the paths. */
  files: Map<string, Buffer>;
  stamp: CorpusStamp;
  corpusFiles: number;
  typeFiles: number;
}

export interface StageOptions {
  version: string;
  license?: string;
}

export async function stagePackage(corpus: Corpus, options: StageOptions): Promise<StagedPackage> {
  const shipped = new Map<string, Buffer>();
  for (const [file, entry] of corpus.files) if (isShipped(file)) shipped.set(file, entry.bytes);
  const stamp = buildStamp(PACKAGE_NAME, options.version, shipped);
  const stampText = formatStamp(stamp);
  const onDisk = corpus.get(STAMP_PATH);
  if (!onDisk || onDisk.bytes.toString('utf8') !== stampText) {
    throw new StageError(`${STAMP_PATH} does not match the corpus it would ship; run \`openwop-spec generate\``);
  }

  const types = await schemaDeclarations(corpus);
  if (types.problems.length > 0) throw new StageError('some schemas have no TypeScript declarations', types.problems);

  const added = new Map<string, Buffer>();
  for (const [file, content] of types.files) added.set(file, Buffer.from(content, 'utf8'));
  added.set('README.md', Buffer.from(renderReadme(stamp, shipped, types), 'utf8'));
  added.set('package.json', Buffer.from(renderManifest(stamp, options.license), 'utf8'));
  const record = buildPackageStamp(PACKAGE_NAME, stamp.version, stamp.digest, added);

  const files = new Map<string, Buffer>([...shipped, [STAMP_PATH, onDisk.bytes], ...added, [PACKAGE_STAMP_PATH, Buffer.from(formatPackageStamp(record), 'utf8')]]);
  return {
    files: new Map([...files].sort(([a], [b]) => compareStrings(a, b))),
    stamp,
    corpusFiles: shipped.size,
    typeFiles: types.files.size,
  };
}

/**
 * Writes the staged files under `directory` with fixed modes (0644 files, 0755 directories), so
 * neither the umask nor the checkout decides what ends up in the tarball.
 */
export function writeStaged(directory: string, files: ReadonlyMap<string, Buffer>): void {
  const made = new Set<string>();
  for (const [file, bytes] of files) {
    const target = path.join(directory, ...file.split('/'));
    const parent = path.dirname(target);
    if (!made.has(parent)) {
      mkdirSync(parent, { recursive: true });
      for (let dir = parent; dir.startsWith(directory) && dir !== directory && !made.has(dir); dir = path.dirname(dir)) {
        chmodSync(dir, 0o755);
        made.add(dir);
      }
    }
    writeFileSync(target, bytes, { mode: 0o644 });
    chmodSync(target, 0o644);
  }
}

/**
 * The package.json of @openwop/spec-artifacts. Every corpus file is importable at its corpus path
 * (`@openwop/spec-artifacts/spec/v2/errors.json`, as JSON with `with { type: 'json' }`); the types
 * are the package's main entry and importable per schema under `types/`.
 */
export function renderManifest(stamp: CorpusStamp, license: string | undefined): string {
  const exports: Record<string, unknown> = {
    '.': { types: `./${TYPES_INDEX}` },
    './types': { types: `./${TYPES_INDEX}` },
    './types/*': { types: `./${TYPES_DIRECTORY}/*.d.ts` },
    './package.json': './package.json',
    [`./${STAMP_PATH}`]: `./${STAMP_PATH}`,
    [`./${PACKAGE_STAMP_PATH}`]: `./${PACKAGE_STAMP_PATH}`,
  };
  for (const directory of SHIPPED_DIRECTORIES) exports[`./${directory}/*`] = `./${directory}/*`;
  const manifest: Record<string, unknown> = {
    name: stamp.package,
    version: stamp.version,
    description: 'The OpenWOP v2 specification corpus: API documents, JSON Schemas, registries, conformance requirements and security invariants, with TypeScript types and a digest stamp.',
  };
  if (license) manifest.license = license;
  Object.assign(manifest, { types: `./${TYPES_INDEX}`, exports, sideEffects: false });
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function renderReadme(stamp: CorpusStamp, shipped: ReadonlyMap<string, Buffer>, types: TypeDeclarations): string {
  const counts = SHIPPED_DIRECTORIES.map((directory) => [`\`${directory}/\``, String([...shipped.keys()].filter((file) => file.startsWith(`${directory}/`)).length)]);
  const firstType = types.schemas[0];
  const registry = [...shipped.keys()].find((file) => file.startsWith('spec/') && file.endsWith('.json') && !file.endsWith('.schema.json'));
  const examples = [
    ...(registry ? [`import registry from '${stamp.package}/${registry}' with { type: 'json' };`] : []),
    ...(firstType ? [`import type { ${firstType.rootType} } from '${stamp.package}';`] : []),
  ];
  return [
    `# ${stamp.package}`,
    '',
    `The OpenWOP v2 specification corpus, release ${stamp.version}, packed for conformance suites and SDKs.`,
    '',
    `Digest: \`${stamp.digest}\``,
    '',
    '## Verify before use',
    '',
    `Pin this package exactly, pin the digest above, and check it when your suite starts: a mismatch means the files are not the release you pinned, and the suite must refuse to run.`,
    '',
    '```sh',
    `openwop-spec verify node_modules/${stamp.package} --digest ${stamp.digest}`,
    '```',
    '',
    `\`${STAMP_PATH}\` holds the SHA-256 of every corpus file and the digest: the SHA-256 of the RFC 8785 (JCS) form of \`{package, version, files}\`. \`${PACKAGE_STAMP_PATH}\` does the same for this README, \`package.json\` and \`types/\`, bound to that digest. Any other file in the package fails verification.`,
    '',
    '## Contents',
    '',
    renderTable(['Directory', 'Files'], counts).trimEnd(),
    '',
    `\`types/\` holds ${types.schemas.length} declaration file${types.schemas.length === 1 ? '' : 's'}, one per JSON Schema, and \`types/index.d.ts\`.`,
    '',
    '## Use',
    '',
    'Every corpus file is importable at its corpus path:',
    '',
    '```ts',
    ...examples,
    '```',
    '',
  ].join('\n');
}
