/**
 * What `pack` ships, as bytes: the corpus files and their stamp, the TypeScript declarations,
 * a README for consumers, the package.json, and the package record over those additions. A
 * function of the corpus (and the repository's version and license) alone, so the same corpus
 * stages the same bytes anywhere.
 */
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Corpus } from '../model/index.js';
import { compareStrings } from '../output/index.js';
import { toolRoot } from '../tool/index.js';
import { renderTable } from '../markdown/index.js';
import { corpusSchemas, expectedSchemaId, isSchemaPath } from '../schemas/index.js';
import { buildPackageStamp, formatPackageStamp, PACKAGE_STAMP_PATH } from './package-stamp.js';
import {
  buildStamp,
  formatStamp,
  isShipped,
  PACKAGE_NAME,
  SHIPPED_DIRECTORIES,
  STAMP_PATH,
  type CorpusStamp,
} from './stamp.js';
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
  /** How many files of each kind; the counts add up to `files.size`. */
  counts: StagedCounts;
}

export interface StagedCounts {
  corpus: number;
  types: number;
  /** The verifier and the validator helper under lib/, with their declarations. */
  modules: number;
  /** schemas.json and vocabulary.json. */
  schemaIndex: number;
  /** CORPUS-STAMP.json and PACKAGE-STAMP.json. */
  stamps: number;
  /** README.md and package.json. */
  manifest: number;
}

/** What the package carries beside the corpus to be verified and used without the toolchain. */
const LIB_DIRECTORY = 'lib';
const SCHEMA_INDEX_PATH = 'schemas.json';
const VOCABULARY_PATH = 'vocabulary.json';
const SHIPPED_MODULES = ['verify.js', 'verify.d.ts', 'cli.js', 'cli.d.ts', 'validator.js', 'validator.d.ts'] as const;

/** The URI of the vocabulary the OpenWOP annotation keywords belong to. */
const VOCABULARY_URI = 'https://openwop.dev/vocab/v2/annotations';
const VOCABULARY_META_SCHEMA_ID = 'https://openwop.dev/meta/v2/schema';

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
  const modules = shippedModules();
  for (const [file, content] of modules) added.set(file, content);
  const index = schemaIndex(corpus);
  added.set(SCHEMA_INDEX_PATH, Buffer.from(`${JSON.stringify(index, null, 2)}\n`, 'utf8'));
  const keywords = corpusSchemas(corpus).keywords;
  added.set(VOCABULARY_PATH, Buffer.from(renderVocabulary(keywords), 'utf8'));
  added.set('README.md', Buffer.from(renderReadme(stamp, shipped, types, index, keywords), 'utf8'));
  added.set('package.json', Buffer.from(renderManifest(stamp, options.license), 'utf8'));
  const record = buildPackageStamp(PACKAGE_NAME, stamp.version, stamp.digest, added);

  const files = new Map<string, Buffer>([
    ...shipped,
    [STAMP_PATH, onDisk.bytes],
    ...added,
    [PACKAGE_STAMP_PATH, Buffer.from(formatPackageStamp(record), 'utf8')],
  ]);
  return {
    files: new Map([...files].sort(([a], [b]) => compareStrings(a, b))),
    stamp,
    counts: {
      corpus: shipped.size,
      types: types.files.size,
      modules: modules.size,
      schemaIndex: 2,
      stamps: 2,
      manifest: 2,
    },
  };
}

/**
 * The compiled verifier and validator (core/release/shipped/), as `npm run build` emitted them;
 * from the sources (under vitest) they are read from dist/. The source-map comment goes: the maps
 * stay behind.
 */
function shippedModules(): Map<string, Buffer> {
  const compiled = pathToFileURL(path.join(toolRoot(), 'dist', 'core', 'release', 'shipped') + path.sep);
  const modules = new Map<string, Buffer>();
  for (const name of SHIPPED_MODULES) {
    let text: string;
    try {
      text = readFileSync(new URL(name, compiled), 'utf8');
    } catch {
      throw new StageError(
        `the package's verifier is not built: ${new URL(name, compiled).pathname} is missing; run \`npm run build\``,
      );
    }
    modules.set(
      `${LIB_DIRECTORY}/${name}`,
      Buffer.from(text.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n'), 'utf8'),
    );
  }
  return modules;
}

/** `$id` -> path, for every schema the package ships, in path order. */
function schemaIndex(corpus: Corpus): Record<string, string> {
  const index: Record<string, string> = {};
  const files = corpus
    .dataFiles()
    .filter((file) => isShipped(file.path) && isSchemaPath(file.path))
    .sort((a, b) => compareStrings(a.path, b.path));
  for (const file of files) {
    const declared =
      typeof file.value === 'object' && file.value !== null ? (file.value as Record<string, unknown>).$id : undefined;
    index[typeof declared === 'string' ? declared : expectedSchemaId(file.path)] = file.path;
  }
  return index;
}

/**
 * The annotation keywords as a JSON Schema 2020-12 vocabulary: a meta-schema that lists the
 * standard vocabularies and OpenWOP's (optional, so a validator that does not know it may still
 * process the schemas) and declares each keyword as a property. A strict validator is told the
 * keywords by name (ajv: `addVocabulary(Object.keys(vocabulary.properties))`).
 */
function renderVocabulary(keywords: readonly string[]): string {
  const standard = ['core', 'applicator', 'unevaluated', 'validation', 'meta-data', 'format-annotation', 'content'];
  const vocabulary: Record<string, boolean> = {};
  for (const name of standard) vocabulary[`https://json-schema.org/draft/2020-12/vocab/${name}`] = true;
  vocabulary[VOCABULARY_URI] = false;
  const properties: Record<string, unknown> = {};
  for (const keyword of [...keywords].sort(compareStrings))
    properties[keyword] = {
      description:
        'An OpenWOP annotation: it describes the schema for tools and documents; it does not constrain instances.',
    };
  const meta = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: VOCABULARY_META_SCHEMA_ID,
    $vocabulary: vocabulary,
    $dynamicAnchor: 'meta',
    title: 'JSON Schema 2020-12 with the OpenWOP annotation keywords',
    allOf: [{ $ref: 'https://json-schema.org/draft/2020-12/schema' }],
    properties,
  };
  return `${JSON.stringify(meta, null, 2)}\n`;
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
      for (
        let dir = parent;
        dir.startsWith(directory) && dir !== directory && !made.has(dir);
        dir = path.dirname(dir)
      ) {
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
 * are the package's main entry and importable per schema under `types/`; `./verify` and the bin
 * are the package's own verifier, `./validator` the ajv helper (ajv is an optional peer: only
 * that entry needs it).
 */
function renderManifest(stamp: CorpusStamp, license: string | undefined): string {
  const exports: Record<string, unknown> = {
    '.': { types: `./${TYPES_INDEX}` },
    './types': { types: `./${TYPES_INDEX}` },
    './types/*': { types: `./${TYPES_DIRECTORY}/*.d.ts` },
    './verify': { types: `./${LIB_DIRECTORY}/verify.d.ts`, default: `./${LIB_DIRECTORY}/verify.js` },
    './validator': { types: `./${LIB_DIRECTORY}/validator.d.ts`, default: `./${LIB_DIRECTORY}/validator.js` },
    [`./${SCHEMA_INDEX_PATH}`]: `./${SCHEMA_INDEX_PATH}`,
    [`./${VOCABULARY_PATH}`]: `./${VOCABULARY_PATH}`,
    './package.json': './package.json',
    [`./${STAMP_PATH}`]: `./${STAMP_PATH}`,
    [`./${PACKAGE_STAMP_PATH}`]: `./${PACKAGE_STAMP_PATH}`,
  };
  for (const directory of SHIPPED_DIRECTORIES) exports[`./${directory}/*`] = `./${directory}/*`;
  const manifest: Record<string, unknown> = {
    name: stamp.package,
    version: stamp.version,
    description:
      'The OpenWOP v2 specification corpus: API documents, JSON Schemas, registries, conformance requirements and security invariants, with TypeScript types, a schema index, a validator helper and its own verifier.',
  };
  if (license) manifest.license = license;
  Object.assign(manifest, {
    type: 'module',
    types: `./${TYPES_INDEX}`,
    bin: { 'openwop-spec-artifacts': `${LIB_DIRECTORY}/cli.js` },
    exports,
    engines: { node: '>=20.19' },
    peerDependencies: { ajv: '^8.20.0', 'ajv-formats': '^3.0.1' },
    peerDependenciesMeta: { ajv: { optional: true }, 'ajv-formats': { optional: true } },
    sideEffects: false,
  });
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function renderReadme(
  stamp: CorpusStamp,
  shipped: ReadonlyMap<string, Buffer>,
  types: TypeDeclarations,
  index: Record<string, string>,
  keywords: readonly string[],
): string {
  const counts = SHIPPED_DIRECTORIES.map((directory) => [
    `\`${directory}/\``,
    String([...shipped.keys()].filter((file) => file.startsWith(`${directory}/`)).length),
  ]);
  const firstType = types.schemas[0];
  const registry = [...shipped.keys()].find(
    (file) => file.startsWith('spec/') && file.endsWith('.json') && !file.endsWith('.schema.json'),
  );
  const examples = [
    ...(registry ? [`import registry from '${stamp.package}/${registry}' with { type: 'json' };`] : []),
    ...(firstType ? [`import type { ${firstType.rootType} } from '${stamp.package}';`] : []),
  ];
  const [exampleId, exampleFile] = Object.entries(index).find(([, file]) => file.endsWith('/run-event.schema.json')) ??
    Object.entries(index)[0] ?? ['', ''];
  const exampleName = path.posix.basename(exampleFile, '.schema.json');
  return [
    `# ${stamp.package}`,
    '',
    `The OpenWOP v2 specification corpus, release ${stamp.version}, packed for conformance suites and SDKs.`,
    '',
    `Digest: \`${stamp.digest}\``,
    '',
    '## Verify before use',
    '',
    `Pin this package exactly, pin the digest above, and check it when your suite starts: a mismatch means the files are not the release you pinned, and the suite must refuse to run. The package carries its own verifier, which needs nothing but Node.js:`,
    '',
    '```sh',
    `npx ${stamp.package} verify --digest ${stamp.digest}`,
    '```',
    '',
    `(or \`node_modules/.bin/openwop-spec-artifacts verify --digest …\`; exit 0 verified, 1 a problem named by file, 2 a usage error). From code: \`verifyArtifacts(undefined, { digest })\` from \`${stamp.package}/verify\` returns \`{ ok, problems }\`.`,
    '',
    `\`${STAMP_PATH}\` holds the SHA-256 of every corpus file and the digest: the SHA-256 of the RFC 8785 (JCS) form of \`{package, version, files}\`. \`${PACKAGE_STAMP_PATH}\` does the same for the files around the corpus (this README, \`package.json\`, \`${LIB_DIRECTORY}/\`, \`types/\`, \`${SCHEMA_INDEX_PATH}\`, \`${VOCABULARY_PATH}\`), bound to that digest. Any other file in the package fails verification.`,
    '',
    "The stamps prove the files are consistent with the digest; who made the release is proven by its signature, a DSSE envelope published beside the tarball (`<tarball>.dsse.json`, an in-toto Statement over the tarball's SHA-256, ed25519). Check it with the toolchain, pinning the release key's fingerprint as well as the digest:",
    '',
    '```sh',
    `npx openwop-spec verify ${stamp.package.replace('@', '').replace('/', '-')}-${stamp.version}.tgz --digest ${stamp.digest} --public-key release-key.pub`,
    '```',
    '',
    '## Validate with the schemas',
    '',
    `Every schema is importable at its path (\`${stamp.package}/${exampleFile}\`); \`${SCHEMA_INDEX_PATH}\` maps each \`$id\` to its file, and \`${VOCABULARY_PATH}\` is a 2020-12 meta-schema declaring the OpenWOP annotation keywords (${keywords.map((keyword) => `\`${keyword}\``).join(', ')}), which a strict validator must be told of. With ajv and ajv-formats installed (\`npm install ajv ajv-formats\`), the helper gives a ready validator, every cross-file \`$ref\` resolved:`,
    '',
    '```js',
    `import { validator } from '${stamp.package}/validator';`,
    `const validate = validator('${exampleName}'); // a file name, a path or a $id`,
    `if (!validate(event)) console.error(validate.errors);`,
    '```',
    '',
    'With a plain ajv of your own:',
    '',
    '```js',
    `import { Ajv2020 } from 'ajv/dist/2020.js';`,
    `import addFormats from 'ajv-formats';`,
    `import { createRequire } from 'node:module';`,
    `const require = createRequire(import.meta.url);`,
    `const ajv = new Ajv2020({ allowUnionTypes: true });`,
    `addFormats(ajv);`,
    `ajv.addVocabulary(Object.keys(require('${stamp.package}/${VOCABULARY_PATH}').properties));`,
    `for (const file of Object.values(require('${stamp.package}/${SCHEMA_INDEX_PATH}'))) ajv.addSchema(require(\`${stamp.package}/\${file}\`));`,
    `const validate = ajv.getSchema('${exampleId}');`,
    '```',
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
