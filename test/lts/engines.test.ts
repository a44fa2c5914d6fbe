/**
 * `engines` and the Node.js releases CI runs the suite on (test/lts/node.mjs) say the same thing:
 * only maintained lines are allowed, and CI covers the current LTS and the oldest line allowed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { REPO } from '../helpers.js';
import { NODE_RELEASES as releases } from './node.mjs';

const engines = (JSON.parse(readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;

describe('engines and the Node.js releases CI runs on', () => {
  it('allows both releases CI installs', () => {
    expect(semver.satisfies(releases.lts.version, engines)).toBe(true);
    expect(semver.satisfies(releases.oldest.version, engines)).toBe(true);
  });

  it('the oldest release CI runs is of the lowest line engines allows', () => {
    expect(semver.major(semver.minVersion(engines) ?? '0.0.0')).toBe(semver.major(releases.oldest.version));
  });

  it('allows no line past its end of life (20, and the odd lines 21, 23, 25) and every maintained one (22, 24, 26)', () => {
    for (const version of ['20.20.2', '21.7.3', '23.11.1', '25.9.0'])
      expect(semver.satisfies(version, engines), version).toBe(false);
    for (const version of ['22.23.5', '24.22.3', '26.12.1'])
      expect(semver.satisfies(version, engines), version).toBe(true);
  });
});
