/**
 * Packs a corpus into @openwop/spec-artifacts: stage the bytes, write them with fixed modes into
 * a scratch directory, `npm pack` that into the scratch directory too, verify the tarball, sign
 * it, and only then move the tarball (and its signature) into `out`. A pack that fails at any
 * step leaves `out` as it was: an older tarball of the same name is never half-replaced or
 * replaced by one that did not verify. Whether the corpus may be packed (its gates pass, its
 * generated files are current) is the caller's decision.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createHash, type KeyObject } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Corpus } from '../model/index.js';
import { npmPack, NpmPackError, type PackedTarball } from './npm-pack.js';
import { PACKAGE_STAMP_PATH } from './package-stamp.js';
import { formatEnvelope, keyFingerprint, SIGNATURE_SUFFIX, signRelease } from './sign.js';
import { stagePackage, writeStaged, type StagedCounts, type StageOptions } from './stage.js';
import { describeVerification, verifyArtifacts } from './verify.js';

export interface PackResult extends PackedTarball {
  package: string;
  version: string;
  digest: string;
  files: number;
  counts: StagedCounts;
  /** The DSSE envelope written beside the tarball, and the fingerprint of the key that signed it. */
  signature: { file: string; keyFingerprint: string } | undefined;
}

export interface PackOptions extends StageOptions {
  out: string;
  /** The ed25519 key to sign with; without one the tarball is not signed. */
  signingKey?: KeyObject | undefined;
}

export async function packCorpus(corpus: Corpus, options: PackOptions): Promise<PackResult> {
  const staged = await stagePackage(corpus, options);
  const out = path.resolve(options.out);
  const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-pack-'));
  try {
    const directory = path.join(scratch, 'package');
    const built = path.join(scratch, 'out');
    mkdirSync(built);
    writeStaged(directory, staged.files);
    const packed = npmPack(directory, built, [...staged.files.keys()]);

    // What is moved into `out` is what verifies: the tarball npm wrote, read back.
    const check = verifyArtifacts(packed.tarball, { digest: staged.stamp.digest });
    if (!check.ok) throw new NpmPackError(`the packed tarball does not verify:\n${describeVerification(check).trimEnd()}`);

    const name = path.basename(packed.tarball);
    let signature: PackResult['signature'];
    if (options.signingKey) {
      const tarballSha256 = createHash('sha256').update(readFileSync(packed.tarball)).digest('hex');
      const record = staged.files.get(PACKAGE_STAMP_PATH) as Buffer;
      const envelope = signRelease(
        {
          package: staged.stamp.package,
          version: staged.stamp.version,
          corpusDigest: staged.stamp.digest,
          tarball: { name, sha256: tarballSha256 },
          packageStamp: createHash('sha256').update(record).digest('hex'),
        },
        options.signingKey,
      );
      writeFileSync(`${packed.tarball}${SIGNATURE_SUFFIX}`, formatEnvelope(envelope));
      signature = { file: path.join(out, `${name}${SIGNATURE_SUFFIX}`), keyFingerprint: keyFingerprint(options.signingKey) };
    }

    mkdirSync(out, { recursive: true });
    // The signature first: a tarball in `out` is never newer than the envelope beside it. An
    // unsigned pack removes a stale envelope, which would otherwise claim the new tarball.
    if (signature) moveInto(`${packed.tarball}${SIGNATURE_SUFFIX}`, path.join(out, `${name}${SIGNATURE_SUFFIX}`));
    else rmSync(path.join(out, `${name}${SIGNATURE_SUFFIX}`), { force: true });
    moveInto(packed.tarball, path.join(out, name));
    return {
      ...packed,
      tarball: path.join(out, name),
      package: staged.stamp.package,
      version: staged.stamp.version,
      digest: staged.stamp.digest,
      files: staged.files.size,
      counts: staged.counts,
      signature,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** rename(2), or across file systems a copy beside the target renamed over it: never a partial file at `target`. */
function moveInto(source: string, target: string): void {
  try {
    renameSync(source, target);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw new NpmPackError(`cannot move the tarball into ${path.dirname(target)}: ${describeFsError(error)}`);
  }
  const temporary = `${target}.${process.pid}.partial`;
  try {
    copyFileSync(source, temporary);
    renameSync(temporary, target);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new NpmPackError(`cannot move the tarball into ${path.dirname(target)}: ${describeFsError(error)}`);
  }
}

function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? (error instanceof Error ? error.message : String(error));
}
