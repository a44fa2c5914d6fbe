/**
 * A release to compare: its shipped files as a corpus model, and its version. It can be a
 * directory (a repository checkout, an installed or staged package), a packed `.tgz`, or
 * `git:<ref>` of the repository at a root.
 */
import path from 'node:path';
import { corpusFromFiles, type Corpus, isObject } from '../model/index.js';
import { runGit } from './git.js';
import { buildStamp, isShipped, PACKAGE_NAME, parseStamp, SEMVER, SHIPPED_DIRECTORIES, STAMP_PATH } from './stamp.js';
import { SHA256_DIGEST } from '../output/index.js';
import { loadArtifactTree, ReleaseSourceError, sortedMap, treeFromTarball, type ArtifactTree } from './tree.js';

export interface ReleaseFiles {
  label: string;
  version: string | undefined;
  /** The corpus digest of the shipped files, as `stamp` would record it for `version`. */
  digest: string | undefined;
  /** Version -> the corpus digest it was published with, from spec/v2/release.json's `released`. */
  released: Map<string, string>;
  /** The shipped files only. */
  files: Map<string, Buffer>;
  /** Where the files' corpus model is rooted: the repository for a git ref, else the release itself. */
  root: string;
}

export interface Release extends ReleaseFiles {
  corpus: Corpus;
}

/** `spec` relative to `root`; `git:<ref>` is read from the git repository at `root`. */
export function loadRelease(spec: string, root: string): Release {
  const release = loadReleaseFiles(spec, root);
  return { ...release, corpus: corpusFromFiles(release.root, Object.fromEntries(release.files)) };
}

/** The shipped files of a release, without a model of them: for a reader that needs only a few. */
export function loadReleaseFiles(spec: string, root: string): ReleaseFiles {
  if (spec.startsWith('git:')) return releaseFromTree(gitTree(spec, spec.slice(4), root), root);
  return releaseFromTree(loadArtifactTree(path.resolve(root, spec)), undefined);
}

function releaseFromTree(tree: ArtifactTree, root: string | undefined): ReleaseFiles {
  const shipped = sortedMap(new Map([...tree.files].filter(([file]) => isShipped(file))));
  // Compared against an empty release every file would read as added: a wrong path, not a diff.
  if (shipped.size === 0)
    throw new ReleaseSourceError(
      `${tree.label} holds no corpus: none of ${SHIPPED_DIRECTORIES.map((directory) => `${directory}/`).join(', ')} has a file there`,
    );
  const large = (tree.oversized ?? []).filter(isShipped);
  if (large.length > 0)
    throw new ReleaseSourceError(
      `${tree.label}: ${large[0]} is larger than any corpus file can be (${large.length} such file${large.length === 1 ? '' : 's'})`,
    );
  if (tree.duplicates?.length)
    throw new ReleaseSourceError(`${tree.label}: ${tree.duplicates[0]} appears more than once in the tarball`);
  // Refused before any entry is read as a change, as verify refuses it: a release holds regular files inside the package only.
  const escaping = tree.escaping?.[0];
  if (escaping !== undefined)
    throw new ReleaseSourceError(
      `${tree.label}: refused: the entry ${escaping} leaves the package (an absolute path or a .. segment); \`openwop-spec verify\` refuses it too`,
    );
  // A shipped directory that is itself a link is as irregular as a file that is one.
  const irregular = tree.irregular.find((entry) => {
    const name = entry.replace(/ \([A-Za-z]+\)$/, '');
    return isShipped(name) || (SHIPPED_DIRECTORIES as readonly string[]).includes(name) || tree.kind === 'package';
  });
  if (irregular !== undefined)
    throw new ReleaseSourceError(
      `${tree.label}: refused: ${irregular} is not a regular file (a link, a hard link or a device); a release holds files only, and \`openwop-spec verify\` refuses it too`,
    );
  const version = versionOf(tree);
  const digest = version === undefined ? undefined : buildStamp(PACKAGE_NAME, version, shipped).digest;
  return {
    label: tree.label,
    version,
    digest,
    released: releasedDigests(shipped.get(RELEASE_PATH)),
    files: shipped,
    root: root ?? tree.label,
  };
}

/** The release record of the corpus: its version, its tag once cut, and what was published. */
export const RELEASE_PATH = 'spec/v2/release.json';

/** `released` of a release record: `{ "<version>": "sha256:…" }`; what is not of that shape is left out. */
function releasedDigests(bytes: Buffer | undefined): Map<string, string> {
  const released = new Map<string, string>();
  if (!bytes) return released;
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8'));
  } catch {
    return released;
  }
  return releasedDigestsOf(value);
}

/** The `released` map of an already parsed release record: version to the corpus digest it shipped with. */
export function releasedDigestsOf(value: unknown): Map<string, string> {
  const released = new Map<string, string>();
  const record = isObject(value) ? value.released : undefined;
  if (isObject(record))
    for (const [version, digest] of Object.entries(record))
      if (typeof digest === 'string' && SHA256_DIGEST.test(digest)) released.set(version, digest);
  return released;
}

/** The package.json version (the stamp takes it from there), else the stamp's. */
function versionOf(tree: ArtifactTree): string | undefined {
  const manifest = tree.files.get('package.json');
  if (manifest) {
    try {
      const value: unknown = JSON.parse(manifest.toString('utf8'));
      if (isObject(value) && typeof value.version === 'string' && SEMVER.test(value.version)) return value.version;
    } catch {
      // fall through to the stamp
    }
  }
  const stamp = tree.files.get(STAMP_PATH);
  return stamp ? parseStamp(stamp.toString('utf8')).stamp?.version : undefined;
}

function gitTree(label: string, ref: string, root: string): ArtifactTree {
  if (ref === '' || ref.startsWith('-')) throw new ReleaseSourceError(`${label}: name a git ref after "git:"`);
  const prefix = git(root, ['rev-parse', '--show-prefix'], label).toString('utf8').trim();
  git(root, ['rev-parse', '--verify', '--quiet', `${ref}^{tree}`], label, `${label}: no such git ref in ${root}`);
  const tar = git(root, ['archive', '--format=tar', `${ref}:${prefix}`], label);
  const tree = treeFromTarball(label, tar, '');
  return { ...tree, kind: 'repository' };
}

function git(cwd: string, args: string[], label: string, failure?: string): Buffer {
  const result = runGit(cwd, args);
  if (result.error) throw new ReleaseSourceError(`${label}: cannot run git: ${result.error}`);
  if (result.status !== 0)
    throw new ReleaseSourceError(
      failure ?? `${label}: git ${args[0]} failed${result.message ? `: ${result.message}` : ''}`,
    );
  return result.stdout;
}
