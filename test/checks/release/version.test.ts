import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../../core/model/index.js';
import { run } from '../../helpers.js';
import { rootWith } from '../../trust/helpers.js';

const release = (version: string, released: Record<string, string> = {}) => `${JSON.stringify({ version, corpusTag: null, released }, null, 2)}\n`;
const stamp = (digest: string) => `${JSON.stringify({ package: '@openwop/spec-artifacts', version: '2.1.0', canonicalization: 'RFC 8785', files: {}, digest })}\n`;
const manifest = (version: string) => JSON.stringify({ name: '@openwop/spec-artifacts', version, license: 'Apache-2.0' });
const AA = `sha256:${'a'.repeat(64)}`;
const BB = `sha256:${'b'.repeat(64)}`;
const found = (files: Record<string, string>) => run('release/version', loadCorpus(rootWith(files), { cache: false }));

describe('release/version', () => {
  it('passes when release.json and package.json give one version, and a released version keeps its digest', () => {
    expect(found({ 'spec/v2/release.json': release('2.1.0'), 'package.json': manifest('2.1.0') })).toEqual([]);
    expect(found({ 'spec/v2/release.json': release('2.1.0', { '2.1.0': AA }), 'package.json': manifest('2.1.0'), 'CORPUS-STAMP.json': stamp(AA) })).toEqual([]);
  });

  it('says nothing of a corpus that is no package (no package.json beside it)', () => {
    expect(found({ 'spec/v2/release.json': release('2.1.0') })).toEqual([]);
  });

  it('reports two versions at the version of release.json', () => {
    const [d, ...rest] = found({ 'spec/v2/release.json': release('2.1.0'), 'package.json': manifest('2.1.1') });
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ file: 'spec/v2/release.json', line: 2, messageId: 'version-differs', data: { recorded: '2.1.0', packaged: '2.1.1' } });
  });

  it('reports a released version stamped over other content', () => {
    const [d, ...rest] = found({ 'spec/v2/release.json': release('2.1.0', { '2.1.0': AA }), 'package.json': manifest('2.1.0'), 'CORPUS-STAMP.json': stamp(BB) });
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ messageId: 'released-digest-differs', data: { version: '2.1.0', published: AA, stamped: BB } });
  });
});
