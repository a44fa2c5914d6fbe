/**
 * The package record, PACKAGE-STAMP.json: the hashes of the files `pack` adds around the corpus
 * (package.json, README.md, types/), bound to the corpus digest. The corpus stamp is the release
 * identity a consumer pins and is the same file in the repository and the package; this second
 * record lets `verify` account for every other byte of the package too.
 */
import { CANONICALIZATION, jcsDigest } from '../output/index.js';
import { hashFiles, readRecord } from './stamp.js';

export const PACKAGE_STAMP_PATH = 'PACKAGE-STAMP.json';

export interface PackageStamp {
  package: string;
  version: string;
  canonicalization: string;
  /** The digest of the corpus stamp this package was built around. */
  corpus: string;
  files: Record<string, string>;
  /** `sha256:<hex>` over the JCS form of `{package, version, corpus, files}`. */
  digest: string;
}

export function buildPackageStamp(
  name: string,
  version: string,
  corpusDigest: string,
  contents: ReadonlyMap<string, string | Uint8Array>,
): PackageStamp {
  const files = hashFiles(contents);
  return {
    package: name,
    version,
    canonicalization: CANONICALIZATION,
    corpus: corpusDigest,
    files,
    digest: packageStampDigest({ package: name, version, corpus: corpusDigest, files }),
  };
}

export function packageStampDigest(record: {
  package: string;
  version: string;
  corpus: string;
  files: Record<string, string>;
}): string {
  return jcsDigest({ package: record.package, version: record.version, corpus: record.corpus, files: record.files });
}

export function formatPackageStamp(stamp: PackageStamp): string {
  const ordered = {
    package: stamp.package,
    version: stamp.version,
    canonicalization: stamp.canonicalization,
    corpus: stamp.corpus,
    files: stamp.files,
    digest: stamp.digest,
  };
  return `${JSON.stringify(ordered, null, 2)}\n`;
}

export function parsePackageStamp(text: string): { stamp: PackageStamp | undefined; problems: string[] } {
  const { value, problems } = readRecord(
    text,
    ['package', 'version', 'canonicalization', 'corpus', 'digest'],
    ['corpus', 'digest'],
  );
  if (!value || problems.length > 0) return { stamp: undefined, problems };
  const record = value as Record<string, string>;
  return {
    stamp: {
      package: record.package as string,
      version: record.version as string,
      canonicalization: record.canonicalization as string,
      corpus: record.corpus as string,
      files: value.files as Record<string, string>,
      digest: record.digest as string,
    },
    problems,
  };
}
