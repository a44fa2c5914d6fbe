import { testRule } from '../../rule-tester.js';

const RELEASE = 'spec/v2/release.json';
const release = (version: string | null, released: Record<string, string> = {}) =>
  `${JSON.stringify({ version, corpusTag: null, released }, null, 2)}\n`;
const stampText = (digest: string) =>
  `${JSON.stringify({ package: '@openwop/spec-artifacts', version: '2.1.0', canonicalization: 'RFC 8785', files: {}, digest })}\n`;
const packageManifest = (version: string) =>
  JSON.stringify({ name: '@openwop/spec-artifacts', version, license: 'Apache-2.0' });
const AA = `sha256:${'a'.repeat(64)}`;
const BB = `sha256:${'b'.repeat(64)}`;

testRule('release/version', {
  valid: [
    {
      name: 'release.json and package.json give one version',
      files: { [RELEASE]: release('2.1.0'), 'package.json': packageManifest('2.1.0') },
    },
    {
      name: 'a released version stamped with the digest it was released with',
      files: {
        [RELEASE]: release('2.1.0', { '2.1.0': AA }),
        'package.json': packageManifest('2.1.0'),
        'CORPUS-STAMP.json': stampText(AA),
      },
    },
    {
      name: 'a corpus that is no package (no package.json beside it) has no release to judge',
      files: { [RELEASE]: release('2.1.0') },
    },
  ],
  invalid: [
    {
      name: 'two versions: at the version of release.json',
      files: { [RELEASE]: release('2.1.0'), 'package.json': packageManifest('2.1.1') },
      errors: [
        {
          messageId: 'version-differs',
          file: RELEASE,
          line: 2,
          column: 14,
          data: { file: RELEASE, recorded: '2.1.0', packaged: '2.1.1' },
        },
      ],
    },
    {
      name: 'release.json without a version',
      files: { [RELEASE]: release(null), 'package.json': packageManifest('2.1.1') },
      errors: [
        {
          messageId: 'version-missing',
          file: RELEASE,
          line: 2,
          column: 14,
          data: { file: RELEASE, packaged: '2.1.1' },
        },
      ],
    },
    {
      name: 'a released version stamped over other content',
      files: {
        [RELEASE]: release('2.1.0', { '2.1.0': AA }),
        'package.json': packageManifest('2.1.0'),
        'CORPUS-STAMP.json': stampText(BB),
      },
      errors: [
        {
          messageId: 'released-digest-differs',
          file: RELEASE,
          line: 2,
          column: 14,
          data: { version: '2.1.0', published: AA, stamped: BB },
        },
      ],
    },
  ],
});
