/**
 * Packs a corpus into @openwop/spec-artifacts: stage the bytes, write them with fixed modes into
 * a scratch directory, `npm pack` that. Whether the corpus may be packed (its gates pass, its
 * generated files are current) is the caller's decision.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Corpus } from '../model/index.js';
import { npmPack, type PackedTarball } from './npm-pack.js';
import { stagePackage, writeStaged, type StageOptions } from './stage.js';

export interface PackResult extends PackedTarball {
  package: string;
  version: string;
  digest: string;
  files: number;
  corpusFiles: number;
  typeFiles: number;
}

export async function packCorpus(corpus: Corpus, options: StageOptions & { out: string }): Promise<PackResult> {
  const staged = await stagePackage(corpus, options);
  const out = path.resolve(options.out);
  mkdirSync(out, { recursive: true });
  const scratch = mkdtempSync(path.join(tmpdir(), 'openwop-pack-'));
  try {
    const directory = path.join(scratch, 'package');
    writeStaged(directory, staged.files);
    const packed = npmPack(directory, out, [...staged.files.keys()]);
    return {
      ...packed,
      package: staged.stamp.package,
      version: staged.stamp.version,
      digest: staged.stamp.digest,
      files: staged.files.size,
      corpusFiles: staged.corpusFiles,
      typeFiles: staged.typeFiles,
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
