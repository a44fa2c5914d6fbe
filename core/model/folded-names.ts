/**
 * How file systems fold names: macOS folds Unicode normalization, and both it and Windows fold
 * case. Two paths with one folded name are one file there; a link whose target folds to a corpus
 * file names that file on one system and nothing on another.
 */

/** The name a folding file system sees: NFC, then case-folded. */
export function foldedName(path: string): string {
  return path.normalize('NFC').toLowerCase();
}

/** How two paths of one folded name differ: in Unicode normalization only, or in case. */
export function howNamesDiffer(a: string, b: string): 'Unicode normalization (NFC/NFD)' | 'case' {
  return a.normalize('NFC') === b.normalize('NFC') ? 'Unicode normalization (NFC/NFD)' : 'case';
}
