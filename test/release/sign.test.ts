import { createHash, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { buildPackageStamp, formatPackageStamp, parsePackageStamp } from '../../core/release/package-stamp.js';
import { packCorpus, type PackResult } from '../../core/release/pack.js';
import {
  formatEnvelope,
  keyFingerprint,
  loadPublicKey,
  loadSigningKey,
  SIGNATURE_SUFFIX,
  SigningKeyError,
  signRelease,
} from '../../core/release/sign.js';
import { buildStamp, formatStamp, isShipped, parseStamp } from '../../core/release/stamp.js';
import { readTar } from '../../core/release/tar.js';
import { verifyArtifacts } from '../../core/release/verify.js';
import { cli } from '../helpers.js';
import { installInEmptyProject, keyPair, stampedCopy, tempDir } from './helpers.js';

/**
 * What an attacker with write access to a mirror does: change a corpus file, recompute both
 * stamps as the toolchain would, and pack the result again, keeping the old signature beside it.
 */
function restamp(tarball: string, out: string): string {
  const files = new Map(
    readTar(readFileSync(tarball))
      .filter((entry) => entry.type === 'file')
      .map((entry) => [entry.path.slice('package/'.length), entry.data]),
  );
  files.set('spec/v2/errors.json', Buffer.from(String(files.get('spec/v2/errors.json')).replace('"rows"', '"rows" ')));
  const old = parseStamp(String(files.get('CORPUS-STAMP.json'))).stamp;
  const corpus = buildStamp(
    old?.package ?? '',
    old?.version ?? '',
    new Map([...files].filter(([file]) => isShipped(file))),
  );
  files.set('CORPUS-STAMP.json', Buffer.from(formatStamp(corpus)));
  const record = parsePackageStamp(String(files.get('PACKAGE-STAMP.json'))).stamp;
  const around = new Map(Object.keys(record?.files ?? {}).map((file) => [file, files.get(file) as Buffer]));
  files.set(
    'PACKAGE-STAMP.json',
    Buffer.from(formatPackageStamp(buildPackageStamp(corpus.package, corpus.version, corpus.digest, around))),
  );
  const staging = tempDir();
  for (const [file, bytes] of files) {
    const target = path.join(staging, 'package', file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, bytes);
  }
  const forged = path.join(out, path.basename(tarball));
  spawnSync('tar', ['czf', forged, '-C', staging, 'package']);
  return forged;
}

describe('signed releases', () => {
  let keys: { privateKey: string; publicKey: string };
  let other: { privateKey: string; publicKey: string };
  let packed: PackResult;

  beforeAll(async () => {
    keys = keyPair();
    other = keyPair();
    packed = await packCorpus(loadCorpus(stampedCopy()), {
      version: '1.4.2',
      out: tempDir(),
      signingKey: loadSigningKey(keys.privateKey),
    });
  }, 60_000);

  it('writes an in-toto Statement over the tarball in a DSSE envelope, signed by the key it names', () => {
    expect(packed.signature?.file).toBe(`${packed.tarball}${SIGNATURE_SUFFIX}`);
    const envelope = JSON.parse(readFileSync(`${packed.tarball}${SIGNATURE_SUFFIX}`, 'utf8'));
    expect(envelope.payloadType).toBe('application/vnd.in-toto+json');
    const fingerprint = keyFingerprint(loadPublicKey(keys.publicKey));
    expect(envelope.signatures).toEqual([{ keyid: fingerprint, sig: expect.any(String) }]);
    const statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
    const sha256 = spawnSync('sha256sum', [packed.tarball], { encoding: 'utf8' }).stdout.split(' ')[0];
    expect(statement).toMatchObject({
      _type: 'https://in-toto.io/Statement/v1',
      subject: [
        { name: path.basename(packed.tarball), digest: { sha256 } },
        { name: 'PACKAGE-STAMP.json', digest: { sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } },
      ],
      predicate: { package: '@openwop/spec-artifacts', version: '1.4.2', corpusDigest: packed.digest },
    });
  });

  it('passes an untouched release and names the key that signed it', async () => {
    const result = verifyArtifacts(packed.tarball, { digest: packed.digest, publicKey: keys.publicKey });
    expect(result).toMatchObject({ ok: true, signedBy: keyFingerprint(loadPublicKey(keys.publicKey)), problems: [] });
    const verb = await cli(['verify', packed.tarball, '--public-key', keys.publicKey]);
    expect(verb.status).toBe(0);
    expect(verb.stdout).toContain(`signed by key ${keyFingerprint(loadPublicKey(keys.publicKey))}`);
  });

  it('refuses a release signed by another key, giving the key id it claims as a claim only', async () => {
    const result = await cli(['verify', packed.tarball, '--public-key', other.publicKey]);
    expect(result.status).toBe(1);
    expect(result.stdout).toContain(
      `does not verify with the expected key ${keyFingerprint(loadPublicKey(other.publicKey))}: none of its 1 signature is by that key (the unverified key ids it names: ${keyFingerprint(loadPublicKey(keys.publicKey))})`,
    );
  });

  it('refuses an unsigned release', async () => {
    const copy = path.join(tempDir(), path.basename(packed.tarball));
    cpSync(packed.tarball, copy);
    const result = await cli(['verify', copy, '--public-key', keys.publicKey]);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(/signature {2}the release is unsigned: there is no .*\.dsse\.json/);
    // Without a key the stamps alone are checked: consistency, which a copy has.
    expect((await cli(['verify', copy])).status).toBe(0);
  });

  it('refuses a release an attacker re-stamped and repacked, though its stamps agree', async () => {
    const out = tempDir();
    const forged = restamp(packed.tarball, out);
    cpSync(`${packed.tarball}${SIGNATURE_SUFFIX}`, `${forged}${SIGNATURE_SUFFIX}`);
    expect(verifyArtifacts(forged)).toMatchObject({ ok: true });
    const result = verifyArtifacts(forged, { publicKey: keys.publicKey });
    expect(result.ok).toBe(false);
    // The signature is checked over the tarball's digest before the tarball is inflated: that is the one problem.
    expect(result.problems.map((problem) => problem.message)).toEqual([
      expect.stringMatching(
        /^the signature covers a tarball with SHA-256 [0-9a-f]{64}, but this tarball's is [0-9a-f]{64}: it was repacked after signing$/,
      ),
    ]);
    // Re-signing with the attacker's own key does not help either; the key id it names is reported as a claim, not as the signer.
    const statement = JSON.parse(
      Buffer.from(JSON.parse(readFileSync(`${packed.tarball}${SIGNATURE_SUFFIX}`, 'utf8')).payload, 'base64').toString(
        'utf8',
      ),
    );
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
    const record =
      readTar(readFileSync(forged)).find((entry) => entry.path === 'package/PACKAGE-STAMP.json')?.data ??
      Buffer.alloc(0);
    const attacker = loadSigningKey(other.privateKey) as KeyObject;
    const envelope = signRelease(
      {
        package: '@openwop/spec-artifacts',
        version: '1.4.2',
        corpusDigest: verifyArtifacts(forged).digest ?? '',
        tarball: { name: statement.subject[0].name, sha256: sha256(forged) },
        packageStamp: createHash('sha256').update(record).digest('hex'),
      },
      attacker,
    );
    writeFileSync(`${forged}${SIGNATURE_SUFFIX}`, formatEnvelope(envelope));
    expect(verifyArtifacts(forged, { publicKey: other.publicKey })).toMatchObject({ ok: true });
    const refused = await cli(['verify', forged, '--public-key', keys.publicKey]);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toContain(
      `none of its 1 signature is by that key (the unverified key ids it names: ${keyFingerprint(attacker)})`,
    );
  });

  it('checks an installed copy against the envelope it is given', async () => {
    const project = installInEmptyProject(packed.tarball);
    const installed = path.join(project, 'node_modules', '@openwop', 'spec-artifacts');
    const envelope = `${packed.tarball}${SIGNATURE_SUFFIX}`;
    expect(await cli(['verify', installed, '--public-key', keys.publicKey, '--signature', envelope])).toMatchObject({
      status: 0,
    });
    expect((await cli(['verify', installed, '--public-key', keys.publicKey])).stdout).toMatch(
      /unsigned: name its envelope with --signature/,
    );
    const record = path.join(installed, 'PACKAGE-STAMP.json');
    writeFileSync(record, readFileSync(record, 'utf8').replace('"version"', '"version" '));
    expect((await cli(['verify', installed, '--public-key', keys.publicKey, '--signature', envelope])).stdout).toMatch(
      /it was re-stamped after signing/,
    );
  }, 60_000);

  it('takes the signing key from a file or the environment, and refuses one that is not ed25519', async () => {
    const pem = readFileSync(keys.privateKey, 'utf8');
    const fingerprint = keyFingerprint(loadPublicKey(keys.publicKey));
    expect(keyFingerprint(loadSigningKey(undefined, { OPENWOP_SPEC_SIGNING_KEY: pem }) as never)).toBe(fingerprint);
    expect(keyFingerprint(loadSigningKey(undefined, { OPENWOP_SPEC_SIGNING_KEY_FILE: keys.privateKey }) as never)).toBe(
      fingerprint,
    );
    expect(loadSigningKey(undefined, {})).toBeUndefined();
    const rsa = path.join(tempDir(), 'rsa.pem');
    writeFileSync(
      rsa,
      generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
    );
    expect(() => loadSigningKey(rsa)).toThrow(SigningKeyError);
    expect(() => loadSigningKey(rsa)).toThrow(/is a rsa key; releases are signed with ed25519/);
    const root = stampedCopy();
    expect(await cli(['pack', '--root', root, '--out', tempDir()])).toMatchObject({
      status: 2,
      stderr: expect.stringMatching(/no signing key: pass --signing-key FILE/),
    });
  });
});
