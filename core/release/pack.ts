/**
 * Packs a corpus into @openwop/spec-artifacts: stage the bytes, write them with fixed modes into
 * a scratch directory, `npm pack` that into the scratch directory too, verify the tarball, sign
 * it, and only then move the tarball (and its signature) into `out`. A pack that fails at any
 * step leaves `out` as it was: an older tarball of the same name is never half-replaced or
 * replaced by one that did not verify. Whether the corpus may be packed (its gates pass, its
 * generated files are current) is the caller's decision.
 *
 * The tarball and its envelope change together: the envelope is first placed under a name of its
 * own, the tarball's content address (`<tgz>.<sha256 prefix>.dsse.json`, which verify looks for
 * first), and only then does the tarball replace the old one, in one rename. A pack killed at any
 * point leaves in `out` a tarball whose envelope is beside it, the old pair or the new. The scratch
 * directory is made inside `out` (same file system: renames, not copies), removed on every exit,
 * a signal included, and one a killed pack left is removed by the next.
 */
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash, type KeyObject } from 'node:crypto';
import { faultPoint, isAlive } from '../output/index.js';
import path from 'node:path';
import type { Corpus } from '../model/index.js';
import { npmPack, NpmPackError, stopNpm, type PackedTarball } from './npm-pack.js';
import { givenTarget, LinkRefused } from '../fs/index.js';
import { PACKAGE_STAMP_PATH } from './package-stamp.js';
import { addressedEnvelope, formatEnvelope, keyFingerprint, SIGNATURE_SUFFIX, signRelease } from './sign.js';
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
  // --out is where the user said (outside the root too: the flag means it), never through a link.
  let out: string;
  try {
    out = givenTarget(options.out);
  } catch (error) {
    if (error instanceof LinkRefused) throw new NpmPackError(`cannot write into ${options.out}: ${error.message}`);
    throw error;
  }
  let scratch: string;
  try {
    mkdirSync(out, { recursive: true });
    removeAbandonedScratch(out);
    scratch = mkdtempSync(path.join(out, `${SCRATCH_PREFIX}${process.pid}-`));
  } catch (error) {
    throw new NpmPackError(`cannot write into ${out}: ${describeFsError(error)}`);
  }
  // npm is ended first: it would otherwise go on writing into the directory being removed, or outlive the pack.
  const removeScratch = onEveryExit(() => {
    stopNpm();
    rmSync(scratch, { recursive: true, force: true });
  });
  try {
    const directory = path.join(scratch, 'package');
    const built = path.join(scratch, 'out');
    mkdirSync(built);
    writeStaged(directory, staged.files);
    const packed = await npmPack(directory, built, [...staged.files.keys()]);

    // What is moved into `out` is what verifies: the tarball npm wrote, read back.
    const check = verifyArtifacts(packed.tarball, { digest: staged.stamp.digest });
    if (!check.ok)
      throw new NpmPackError(`the packed tarball does not verify:\n${describeVerification(check).trimEnd()}`);

    const name = path.basename(packed.tarball);
    let signature: PackResult['signature'];
    let tarballSha256OfSigned = '';
    if (options.signingKey) {
      const tarballSha256 = createHash('sha256').update(readFileSync(packed.tarball)).digest('hex');
      tarballSha256OfSigned = tarballSha256;
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
      writeFileSync(addressedEnvelope(packed.tarball, tarballSha256), formatEnvelope(envelope));
      signature = {
        file: path.join(out, `${name}${SIGNATURE_SUFFIX}`),
        keyFingerprint: keyFingerprint(options.signingKey),
      };
    }

    const sha256 = signature
      ? tarballSha256OfSigned
      : createHash('sha256').update(readFileSync(packed.tarball)).digest('hex');
    const addressed = path.basename(addressedEnvelope(packed.tarball, sha256));
    // The envelope under its content address first: a new name, so the pair in `out` is untouched;
    // then the tarball, in one rename, after which the new pair is complete; then the envelope
    // under its conventional name, and envelopes of earlier tarballs of this name go.
    if (signature) {
      faultPoint();
      moveInto(path.join(built, addressed), path.join(out, addressed));
    }
    faultPoint();
    moveInto(packed.tarball, path.join(out, name));
    faultPoint();
    if (signature) moveInto(`${packed.tarball}${SIGNATURE_SUFFIX}`, path.join(out, `${name}${SIGNATURE_SUFFIX}`));
    // An unsigned pack removes every envelope of this name: each would claim a tarball that is gone.
    else rmSync(path.join(out, `${name}${SIGNATURE_SUFFIX}`), { force: true });
    for (const entry of readdirSync(out)) {
      if (entry !== addressed && entry.startsWith(`${name}.`) && ADDRESSED.test(entry.slice(name.length)))
        rmSync(path.join(out, entry), { force: true });
    }
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
    removeScratch();
  }
}

const SCRATCH_PREFIX = '.openwop-pack-';
const ADDRESSED = new RegExp(`^\\.[0-9a-f]{16}${SIGNATURE_SUFFIX.replace(/\./g, '\\.')}$`);

/** Removes scratch directories in `out` left by packs that were killed (their process is gone). */
function removeAbandonedScratch(out: string): void {
  for (const entry of readdirSync(out)) {
    const pid = /^\.openwop-pack-(\d+)-/.exec(entry)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    rmSync(path.join(out, entry), { recursive: true, force: true });
  }
}

/**
 * Runs `cleanup` once: when the returned function is called, or when the process is ended by
 * SIGINT, SIGTERM or SIGHUP (then the signal is raised again, so the process ends as it was told).
 */
function onEveryExit(cleanup: () => void): () => void {
  let done = false;
  const run = (): void => {
    if (done) return;
    done = true;
    for (const signal of SIGNALS) process.removeListener(signal, onSignal);
    process.removeListener('exit', run);
    cleanup();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    run();
    process.kill(process.pid, signal);
  };
  for (const signal of SIGNALS) process.once(signal, onSignal);
  process.once('exit', run);
  return run;
}

const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/** rename(2), or across file systems a copy beside the target renamed over it: never a partial file at `target`. */
function moveInto(source: string, target: string): void {
  try {
    renameSync(source, target);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV')
      throw new NpmPackError(`cannot move the tarball into ${path.dirname(target)}: ${describeFsError(error)}`);
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
