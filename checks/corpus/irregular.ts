import { foldedName, howNamesDiffer, Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'corpus/irregular',
  summary:
    'Every corpus entry is a regular file inside the root: no symbolic link, device or pipe is read, and none passes unsaid; no two names are one name on macOS or Windows (equal under Unicode normalization or case folding)',
  severity: 'error',
  messages: {
    'not-regular':
      '{{file}} is {{kind}}; the corpus is read from regular files inside the root only, so it is not read, and nothing it holds is checked or shipped',
    'name-collision':
      '{{file}} and {{other}} differ only in {{how}}: on macOS or Windows they are one file, and an install or checkout keeps only one of them',
  },
  run(corpus, report) {
    for (const file of corpus.irregular) {
      const kind = corpus.irregularKinds.get(file) ?? 'not a regular file';
      report({
        location: Location.file(file),
        messageId: 'not-regular',
        data: { file, kind },
        hint: 'replace it with the file itself (a link that points out of the root could make a check pass on anything)',
      });
    }
    // macOS folds Unicode normalization and both it and Windows fold case: two such names install as one file.
    for (const [first, ...others] of collidingNames([...corpus.files.keys()])) {
      for (const other of others) {
        const how = howNamesDiffer(other, first as string);
        report({
          location: Location.file(other),
          messageId: 'name-collision',
          data: { file: other, other: first as string, how },
          hint: 'rename one of them (or remove the copy), so that every name is its own on every file system',
        });
      }
    }
  },
});

/** Groups of paths (sorted by code unit, more than one each) that are one name under NFC and case folding. */
function collidingNames(paths: readonly string[]): string[][] {
  const groups = new Map<string, string[]>();
  for (const file of paths) {
    const key = foldedName(file);
    const group = groups.get(key);
    if (group) group.push(file);
    else groups.set(key, [file]);
  }
  return [...groups.values()]
    .filter((group) => group.length > 1)
    .map((group) => group.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
}
