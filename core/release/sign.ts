/**
 * Release signatures: an in-toto Statement (v1) naming the package tarball by its SHA-256 (and its
 * PACKAGE-STAMP.json, so that an installed copy, which has no tarball, can be checked too), in a
 * DSSE envelope signed with ed25519 through node:crypto. Keys come from files or the environment;
 * nothing is fetched. The stamps say the files agree with a digest; the signature says who
 * published that digest.
 */
import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { readRegularFile, ReadRefused } from '../fs/index.js';
import { isObject } from '../model/index.js';

const DSSE_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
const PREDICATE_TYPE = 'https://openwop.dev/attestation/release/v1';
/** Where `pack` writes the envelope: beside the tarball, since it signs the tarball's bytes. */
export const SIGNATURE_SUFFIX = '.dsse.json';
/**
 * Where the envelope of the tarball at `tarball` (of SHA-256 `sha256`) is kept under its content
 * address, beside the tarball: pack places it before the tarball, and verify looks for it first.
 */
export function addressedEnvelope(tarball: string, sha256: string): string {
  return `${tarball}.${sha256.slice(0, 16)}${SIGNATURE_SUFFIX}`;
}

export const SIGNING_KEY_ENV = 'OPENWOP_SPEC_SIGNING_KEY';
export const SIGNING_KEY_FILE_ENV = 'OPENWOP_SPEC_SIGNING_KEY_FILE';

export class SigningKeyError extends Error {}

export interface DsseEnvelope {
  payloadType: string;
  /** base64 of the Statement's JSON. */
  payload: string;
  signatures: Array<{ keyid: string; sig: string }>;
}

interface ReleaseStatement {
  _type: string;
  subject: Array<{ name: string; digest: Record<string, string> }>;
  predicateType: string;
  predicate: { package: string; version: string; corpusDigest: string };
}

/** DSSE's pre-authentication encoding: what is signed, so the payload type cannot be swapped. */
function pae(payloadType: string, payload: Buffer): Buffer {
  const type = Buffer.from(payloadType, 'utf8');
  return Buffer.concat([
    Buffer.from(`DSSEv1 ${type.length} `, 'utf8'),
    type,
    Buffer.from(` ${payload.length} `, 'utf8'),
    payload,
  ]);
}

/** `sha256:<hex>` of the key's SubjectPublicKeyInfo (DER): the name a consumer pins. */
export function keyFingerprint(key: KeyObject): string {
  const spki = (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'der' });
  return `sha256:${createHash('sha256').update(spki).digest('hex')}`;
}

function parseKey(text: string | Buffer, origin: string, kind: 'private' | 'public'): KeyObject {
  let key: KeyObject;
  try {
    key = kind === 'private' ? createPrivateKey(text) : createPublicKey(text);
  } catch (error) {
    throw new SigningKeyError(
      `${origin} is not a PEM ${kind} key: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
    );
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new SigningKeyError(`${origin} is a ${String(key.asymmetricKeyType)} key; releases are signed with ed25519`);
  return key;
}

/**
 * The signing key: `--signing-key FILE`, else the PEM in $OPENWOP_SPEC_SIGNING_KEY, else the file
 * $OPENWOP_SPEC_SIGNING_KEY_FILE names; undefined when none is given.
 */
export function loadSigningKey(file: string | undefined, env: NodeJS.ProcessEnv = process.env): KeyObject | undefined {
  if (file !== undefined) return parseKey(readKeyFile(file), file, 'private');
  const inline = env[SIGNING_KEY_ENV];
  if (inline) return parseKey(inline, `$${SIGNING_KEY_ENV}`, 'private');
  const named = env[SIGNING_KEY_FILE_ENV];
  if (named) return parseKey(readKeyFile(named), named, 'private');
  return undefined;
}

/**
 * The Ed25519 public key a consumer pinned, from its PEM file. Anything else is refused in one
 * line naming the file and what it is: an empty file, text that is no PEM, an OpenSSH key, a
 * binary (DER) key, a key of another type, and a private key (a pinned key is public; a private
 * key in its place means the secret was copied where it does not belong).
 */
export function loadPublicKey(file: string): KeyObject {
  const bytes = readKeyFile(file);
  const refuse = (what: string, hint = 'give the Ed25519 public key in PEM (-----BEGIN PUBLIC KEY-----)'): never => {
    throw new SigningKeyError(`--public-key ${file} is ${what}; ${hint}`);
  };
  if (bytes.length === 0 || bytes.toString('latin1').trim() === '') refuse('an empty file');
  const text = bytes.toString('latin1');
  if (/-----BEGIN OPENSSH PRIVATE KEY-----/.test(text))
    refuse('an OpenSSH private key', 'never hand out a private key; give the Ed25519 public key in PEM');
  if (/^\s*(ssh-[a-z0-9-]+|ecdsa-sha2-[a-z0-9-]+|sk-[a-z0-9@.-]+) [A-Za-z0-9+/=]+/.test(text))
    refuse('an OpenSSH public key', 'convert it to PEM with `ssh-keygen -e -m PKCS8 -f FILE`');
  if (/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text))
    refuse(
      'a private key',
      'a pinned key is the public half: `openssl pkey -in FILE -pubout`; keep the private key secret',
    );
  const pem = /-----BEGIN ([A-Z0-9 ]+)-----/.exec(text);
  if (!pem) {
    // PEM is text; a file with bytes no text has is a binary encoding such as DER.
    const binary = bytes.some((byte) => byte < 0x09 || (byte > 0x0d && byte < 0x20) || byte > 0x7e);
    refuse(
      binary ? 'a binary file (DER or other), not PEM' : 'not a PEM key (it has no -----BEGIN PUBLIC KEY----- block)',
      binary ? 'convert a DER key with `openssl pkey -pubin -inform DER -in FILE`' : undefined,
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey(text);
  } catch {
    return refuse(`a PEM block (${pem?.[1] ?? ''}) that is not a public key node can read`);
  }
  if (key.type !== 'public') refuse('a private key');
  if (key.asymmetricKeyType !== 'ed25519')
    refuse(
      `${article(String(key.asymmetricKeyType))} ${describeKeyType(String(key.asymmetricKeyType))} public key`,
      'releases are signed with Ed25519',
    );
  return key;
}

function describeKeyType(type: string): string {
  return (
    (
      {
        rsa: 'RSA',
        'rsa-pss': 'RSA-PSS',
        x25519: 'X25519 (a key-agreement key, which cannot sign)',
        x448: 'X448 (a key-agreement key, which cannot sign)',
        ec: 'elliptic-curve (ECDSA)',
        ed448: 'Ed448',
        dsa: 'DSA',
        dh: 'Diffie-Hellman',
      } as Record<string, string>
    )[type] ?? type
  );
}

function article(type: string): string {
  return /^(rsa|x25519|x448|ec|ed448)/.test(type) ? 'an' : 'a';
}

/** A key file is a few hundred bytes; a device, FIFO or huge file in its place is refused, never read without end. */
const MAX_KEY_BYTES = 64 * 1024;

function readKeyFile(file: string): Buffer {
  try {
    // The user names the key, which may sit behind a link (a mounted secret): followed, but it must be a regular file.
    return readRegularFile(file, MAX_KEY_BYTES, 'follow');
  } catch (error) {
    if (error instanceof ReadRefused) throw new SigningKeyError(`the key ${error.message}`);
    throw new SigningKeyError(`cannot read the key ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

export interface SignedSubjects {
  package: string;
  version: string;
  corpusDigest: string;
  /** The tarball's file name and the hex SHA-256 of its bytes. */
  tarball: { name: string; sha256: string };
  /** The hex SHA-256 of PACKAGE-STAMP.json's bytes. */
  packageStamp: string;
}

export function signRelease(subjects: SignedSubjects, key: KeyObject): DsseEnvelope {
  const statement: ReleaseStatement = {
    _type: STATEMENT_TYPE,
    subject: [
      { name: subjects.tarball.name, digest: { sha256: subjects.tarball.sha256 } },
      { name: 'PACKAGE-STAMP.json', digest: { sha256: subjects.packageStamp } },
    ],
    predicateType: PREDICATE_TYPE,
    predicate: { package: subjects.package, version: subjects.version, corpusDigest: subjects.corpusDigest },
  };
  const payload = Buffer.from(JSON.stringify(statement), 'utf8');
  const sig = sign(null, pae(DSSE_PAYLOAD_TYPE, payload), key);
  return {
    payloadType: DSSE_PAYLOAD_TYPE,
    payload: payload.toString('base64'),
    signatures: [{ keyid: keyFingerprint(key), sig: sig.toString('base64') }],
  };
}

export function formatEnvelope(envelope: DsseEnvelope): string {
  return `${JSON.stringify(envelope, null, 2)}\n`;
}

export interface SignatureCheck {
  ok: boolean;
  /** The fingerprint of the key whose signature verified. */
  signedBy: string | undefined;
  /** The key ids the envelope's signatures name (claims, until one verifies). */
  claimedKeys: string[];
  statement: ReleaseStatement | undefined;
  problems: string[];
}

/**
 * Checks an envelope against the public key the consumer pinned and against what was read: the
 * tarball's SHA-256 (when the release is a tarball) or PACKAGE-STAMP.json's (an installed copy),
 * and the corpus digest the stamps give.
 */
export function checkSignature(
  text: string,
  key: KeyObject,
  actual: { tarballSha256?: string; packageStampSha256?: string; corpusDigest?: string },
): SignatureCheck {
  const problems: string[] = [];
  const expected = keyFingerprint(key);
  const result = (fields: Partial<SignatureCheck>): SignatureCheck => ({
    ok: problems.length === 0,
    signedBy: undefined,
    claimedKeys: [],
    statement: undefined,
    ...fields,
    problems,
  });
  let envelope: unknown;
  try {
    envelope = JSON.parse(text);
  } catch {
    problems.push('the signature is not JSON');
    return result({});
  }
  if (
    !isObject(envelope) ||
    typeof envelope.payload !== 'string' ||
    typeof envelope.payloadType !== 'string' ||
    !Array.isArray(envelope.signatures)
  ) {
    problems.push('the signature is not a DSSE envelope (payloadType, payload, signatures)');
    return result({});
  }
  const signatures = envelope.signatures.filter(
    (entry): entry is { keyid: string; sig: string } =>
      isObject(entry) && typeof entry.sig === 'string' && typeof entry.keyid === 'string',
  );
  const claimedKeys = signatures.map((entry) => entry.keyid);
  if (envelope.payloadType !== DSSE_PAYLOAD_TYPE)
    problems.push(`the envelope's payload type is ${envelope.payloadType}, not ${DSSE_PAYLOAD_TYPE}`);
  const payload = Buffer.from(envelope.payload, 'base64');
  const signed = pae(envelope.payloadType, payload);
  const good = signatures.find((entry) => verify(null, signed, key, Buffer.from(entry.sig, 'base64')));
  if (!good) {
    // A keyid is a hint anyone can write: it says nothing of who signed, so it is not reported as the signer.
    const claims =
      signatures.length === 0
        ? 'it holds no signature'
        : `none of its ${signatures.length} signature${signatures.length === 1 ? '' : 's'} is by that key${claimedKeys.length > 0 ? ` (the unverified key ids it names: ${claimedKeys.join(', ')})` : ''}`;
    problems.push(`the signature does not verify with the expected key ${expected}: ${claims}`);
    return result({ claimedKeys });
  }
  let statement: ReleaseStatement | undefined;
  try {
    statement = JSON.parse(payload.toString('utf8')) as ReleaseStatement;
  } catch {
    problems.push('the signed payload is not JSON');
    return result({ claimedKeys, signedBy: expected });
  }
  if (
    statement._type !== STATEMENT_TYPE ||
    statement.predicateType !== PREDICATE_TYPE ||
    !Array.isArray(statement.subject) ||
    !isObject(statement.predicate)
  ) {
    problems.push(`the signed payload is not an ${PREDICATE_TYPE} in-toto Statement`);
    return result({ claimedKeys, signedBy: expected });
  }
  const subject = (name: (value: string) => boolean) =>
    statement?.subject.find((entry) => isObject(entry) && typeof entry.name === 'string' && name(entry.name))?.digest
      ?.sha256;
  if (actual.tarballSha256 !== undefined) {
    const signedTarball = subject((name) => name.endsWith('.tgz'));
    if (signedTarball !== actual.tarballSha256)
      problems.push(
        `the signature covers a tarball with SHA-256 ${String(signedTarball)}, but this tarball's is ${actual.tarballSha256}: it was repacked after signing`,
      );
  }
  if (actual.packageStampSha256 !== undefined) {
    const signedRecord = subject((name) => name === 'PACKAGE-STAMP.json');
    if (signedRecord !== actual.packageStampSha256)
      problems.push(
        `the signature covers a PACKAGE-STAMP.json with SHA-256 ${String(signedRecord)}, but this package's is ${actual.packageStampSha256}: it was re-stamped after signing`,
      );
  }
  if (actual.corpusDigest !== undefined && statement.predicate.corpusDigest !== actual.corpusDigest) {
    problems.push(
      `the signature is for corpus ${String(statement.predicate.corpusDigest)}, not this release's ${actual.corpusDigest}`,
    );
  }
  return result({ claimedKeys, signedBy: expected, statement });
}
