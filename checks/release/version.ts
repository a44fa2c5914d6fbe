/**
 * The release identity agrees with itself, so that what `pack` refuses `check` has already said:
 * spec/v2/release.json names the version package.json carries (the one version the release is
 * packed as), and a version already published is not stamped over other content (a published
 * version is frozen: a change ships under a new one).
 */
import { Location } from '../../core/model/index.js';
import {
  parseStamp,
  readPackageManifest,
  RELEASE_PATH,
  releasedDigestsOf,
  stampPath,
} from '../../core/release/index.js';
import { defineCheck } from '../../core/run/index.js';

export default defineCheck({
  id: 'release/version',
  summary:
    'spec/v2/release.json gives the version package.json carries, and a version already released is not stamped over other content',
  description:
    '`pack` builds the package at the version of package.json and refuses when spec/v2/release.json names another, or when that version was released (its `released` map) with another corpus digest than the stamp records. This rule says both in `check`, so that `pack` refuses exactly when `check` fails. A corpus with no package.json beside it (a fixture, a scratch copy) has no release to judge.',
  severity: 'error',
  messages: {
    'version-differs':
      '{{file}} gives version "{{recorded}}" and package.json {{packaged}}; the release has one version',
    'version-missing': '{{file}} gives no version, and package.json {{packaged}}; the release has one version',
    'released-digest-differs':
      '{{version}} was released with digest {{published}}, and this corpus is stamped {{stamped}}',
  },
  run(corpus, report) {
    const record = corpus.data(RELEASE_PATH);
    if (!record) return;
    const manifest = readPackageManifest(corpus.root);
    if (!('version' in manifest)) return;
    const recorded =
      typeof record.value === 'object' && record.value !== null
        ? (record.value as Record<string, unknown>).version
        : undefined;
    if (recorded !== manifest.version) {
      report({
        location: Location.pointer(record, ['version'], 'value'),
        ...(typeof recorded === 'string'
          ? { messageId: 'version-differs', data: { file: RELEASE_PATH, recorded, packaged: manifest.version } }
          : { messageId: 'version-missing', data: { file: RELEASE_PATH, packaged: manifest.version } }),
        hint: 'bump both together: the version in package.json and in spec/v2/release.json',
      });
      return;
    }
    const published = releasedDigestsOf(record.value).get(manifest.version);
    const stamp = corpus.get(stampPath(corpus));
    const stamped = stamp && stamp.kind !== 'binary' ? parseStamp(stamp.text).stamp?.digest : undefined;
    if (published && stamped && published !== stamped) {
      report({
        location: Location.pointer(record, ['version'], 'value'),
        messageId: 'released-digest-differs',
        data: { version: manifest.version, published, stamped },
        hint: 'a released version is frozen: bump the version (package.json and spec/v2/release.json) for the change',
      });
    }
  },
});
