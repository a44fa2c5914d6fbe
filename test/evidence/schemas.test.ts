/** The schemas of the identity and evidence contracts say what the prose says: instances both ways. */
import { describe, expect, it } from 'vitest';
import { loadCorpus } from '../../core/model/corpus.js';
import { corpusSchemas } from '../../core/schemas/json-schema.js';
import { REPO } from '../helpers.js';

const schemas = corpusSchemas(loadCorpus(REPO));
const valid = (file: string, instance: unknown, pointer = ''): boolean => schemas.validator(file, pointer)(instance);

const subject = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  issuer: 'https://idp.example',
  subjectId: 'u-1',
  tenant: 'acme',
  lane: 'oidc',
  kind: 'user',
  ...overrides,
});

describe('ids.schema.json', () => {
  const kind = (name: string, value: string) => valid('schemas/v2/ids.schema.json', value, `/$defs/${name}`);

  it('admits `_` in typeId after the first segment, as pack names do', () => {
    expect(kind('typeId', 'vendor.acme.my_tools.echo')).toBe(true);
    expect(kind('typeId', 'core.http.fetchJson')).toBe(true);
    expect(kind('typeId', 'my_pack.echo')).toBe(false);
    expect(kind('typeId', 'vendor')).toBe(false);
  });

  it('binds tenant-bound kinds to <tenantId>/<opaque>, the opaque part 16 to 128 characters', () => {
    expect(kind('runId', 'acme/0123456789abcdef')).toBe(true);
    expect(kind('runId', 'acme/short')).toBe(false);
    expect(kind('runId', '0123456789abcdef')).toBe(false);
    expect(kind('effectId', 'acme/0123456789abcdef')).toBe(true);
  });

  it('holds W3C trace ids and the issuer-scoped subject id to their grammars', () => {
    expect(kind('traceId', '4bf92f3577b34da6a3ce929d0e0e4736')).toBe(true);
    expect(kind('spanId', '00f067aa0ba902b7')).toBe(true);
    expect(kind('spanId', '00F067AA0BA902B7')).toBe(false);
    expect(kind('subjectId', 'a/b')).toBe(false);
  });
});

describe('subject.schema.json', () => {
  const file = 'schemas/v2/subject.schema.json';

  it('is closed, and requires its five members', () => {
    expect(valid(file, subject())).toBe(true);
    expect(valid(file, subject({ principal: 'x' }))).toBe(false);
    const { tenant: _, ...noTenant } = subject();
    expect(valid(file, noTenant)).toBe(false);
  });

  it('has keyClass exactly when the lane is saml or scim', () => {
    expect(valid(file, subject({ lane: 'saml', keyClass: 'opaque-idp' }))).toBe(true);
    expect(valid(file, subject({ lane: 'scim' }))).toBe(false);
    expect(valid(file, subject({ lane: 'oidc', keyClass: 'opaque-idp' }))).toBe(false);
  });

  it('ties kind anonymous and lane anonymous to each other', () => {
    expect(valid(file, subject({ lane: 'anonymous', kind: 'anonymous' }))).toBe(true);
    expect(valid(file, subject({ lane: 'anonymous', kind: 'user' }))).toBe(false);
    expect(valid(file, subject({ lane: 'oidc', kind: 'anonymous' }))).toBe(false);
  });

  it('nests actors four levels deep and refuses a fifth', () => {
    const chain = (depth: number): Record<string, unknown> =>
      depth === 0 ? subject() : subject({ actor: chain(depth - 1), kind: 'agent' });
    expect(valid(file, chain(4))).toBe(true);
    expect(valid(file, chain(5))).toBe(false);
  });

  it('closes every actor level', () => {
    expect(valid(file, subject({ actor: subject({ actor: subject({ extra: 1 }) }) }))).toBe(false);
  });
});

describe('subject-link.schema.json', () => {
  const file = 'schemas/v2/subject-link.schema.json';
  const link = (overrides: Record<string, unknown> = {}) => ({
    a: { issuer: 'https://idp.example/saml', subjectId: 'u-1' },
    b: { issuer: 'urn:host.example:scim:c', subjectId: 'u-2' },
    keyClass: 'configured-immutable',
    issuer: 'https://idp.example/saml',
    tenant: 'acme',
    formedAt: '2026-09-04T10:15:00Z',
    ...overrides,
  });

  it('accepts the record, deniedAt included', () => {
    expect(valid(file, link())).toBe(true);
    expect(valid(file, link({ deniedAt: '2026-10-01T00:00:00Z' }))).toBe(true);
  });

  it('rejects the legacy issuer on either side, an open SubjectRef and an open record', () => {
    expect(valid(file, link({ a: { issuer: 'urn:openwop:legacy', subjectId: 'u-1' } }))).toBe(false);
    expect(valid(file, link({ b: { issuer: 'https://idp.example/saml', subjectId: 'u-2', lane: 'saml' } }))).toBe(
      false,
    );
    expect(valid(file, link({ merged: true }))).toBe(false);
  });
});

describe('run-snapshot.schema.json', () => {
  it('has the closed owner block { tenant, workspace?, subject } with subject required', () => {
    const owner = (value: unknown) => valid('schemas/v2/run-snapshot.schema.json', value, '/$defs/owner');
    expect(owner({ tenant: 'acme', workspace: 'ops', subject: subject() })).toBe(true);
    expect(owner({ tenant: 'acme' })).toBe(false);
    expect(owner({ tenant: 'acme', subject: subject(), principal: 'u-1' })).toBe(false);
  });
});

describe('certification-bundle.schema.json', () => {
  const file = 'schemas/v2/certification-bundle.schema.json';
  const sha = 'a'.repeat(64);
  const bundle = (overrides: Record<string, unknown> = {}) => ({
    bundleVersion: '3',
    suite: { name: '@openwop/openwop-conformance', version: '2.0.0', targetMajor: 2, specArtifactsVersion: '2.42.8' },
    host: { name: 'host', version: '1.0.0', build: { kind: 'commit', id: 'abc123' } },
    discovery: {
      url: 'https://host.example/.well-known/openwop',
      sha256: sha,
      protocolVersions: ['2.0'],
      preferredVersion: '2.0',
    },
    claimedProfiles: [{ id: 'openwop-core-standard', evidenceTier: 'self', witnessCount: 3, certified: true }],
    results: {
      totals: { executedPass: 3, executedFail: 0, skipped: 0, blocked: 0 },
      requirements: [{ requirementId: 'openwop.idempotency.replay-marker', outcome: 'pass' }],
    },
    witnessSha256: sha,
    assertionCount: 3,
    signature: {
      alg: 'Ed25519',
      keyId: 'bundle-2026-09',
      over: ['witnessSha256', 'host.build', 'suite.version', 'discovery.sha256'],
      value: 'c2lnbmF0dXJl',
    },
    ...overrides,
  });

  it('accepts a bundle v3 and closes its root', () => {
    expect(valid(file, bundle())).toBe(true);
    expect(valid(file, bundle({ bundleVersion: '2' }))).toBe(false);
    expect(valid(file, bundle({ notes: 'x' }))).toBe(false);
  });

  it('signs over exactly the four members', () => {
    const over = (list: string[]) =>
      valid(file, bundle({ signature: { alg: 'Ed25519', keyId: 'k', over: list, value: 'c2ln' } }));
    expect(over(['witnessSha256', 'host.build', 'suite.version'])).toBe(false);
    expect(over(['witnessSha256', 'host.build', 'suite.version', 'suite.version'])).toBe(false);
    expect(over(['witnessSha256', 'host.build', 'suite.version', 'host.name'])).toBe(false);
  });

  it('requires detail.nonPass once a total other than executedPass is non-zero, and a verifier key for independent evidence', () => {
    const failing = { totals: { executedPass: 2, executedFail: 1, skipped: 0, blocked: 0 }, requirements: [] };
    expect(valid(file, bundle({ results: failing }))).toBe(false);
    expect(
      valid(
        file,
        bundle({
          results: failing,
          detail: { nonPass: [{ requirementId: 'openwop.events.poll-past-end', outcome: 'fail' }] },
        }),
      ),
    ).toBe(true);
    expect(
      valid(
        file,
        bundle({
          claimedProfiles: [
            { id: 'openwop-core-standard', evidenceTier: 'independent', witnessCount: 3, certified: true },
          ],
        }),
      ),
    ).toBe(false);
  });

  it('cannot carry a corpus-gate rule id as a requirement', () => {
    expect(
      valid(
        file,
        bundle({
          results: {
            totals: { executedPass: 1, executedFail: 0, skipped: 0, blocked: 0 },
            requirements: [{ requirementId: 'ids/bindings', outcome: 'pass' }],
          },
        }),
      ),
    ).toBe(false);
  });
});

describe('the auth facet', () => {
  const lane = (value: Record<string, unknown>) => valid('spec/v2/facets/auth.schema.json', value, '/$defs/lane');
  const oidc = {
    lane: 'oidc',
    issuers: ['https://idp.example'],
    revocation: 'exp-and-recheck',
    revocationWindowSeconds: 300,
    minimumAssurance: 'sender-constrained',
    delegationProofs: ['dpop'],
  };

  it('holds each lane to its revocation rule, and a windowed rule to its window', () => {
    expect(lane(oidc)).toBe(true);
    expect(lane({ ...oidc, revocation: 'next-request' })).toBe(false);
    const { revocationWindowSeconds: _, ...noWindow } = oidc;
    expect(lane(noWindow)).toBe(false);
    expect(
      lane({ lane: 'anonymous', issuers: ['urn:host:anon-surface'], revocation: 'none', minimumAssurance: 'bearer' }),
    ).toBe(true);
  });

  it('scopes delegation proofs to their lanes', () => {
    expect(lane({ ...oidc, delegationProofs: ['svid-chain'] })).toBe(false);
    expect(
      lane({
        lane: 'workload',
        issuers: ['spiffe://example'],
        revocation: 'delegation-expiry',
        minimumAssurance: 'key-bound',
        delegationProofs: ['svid-chain'],
      }),
    ).toBe(true);
    expect(
      lane({
        lane: 'api-key',
        issuers: ['urn:host:api-key'],
        revocation: 'next-request',
        minimumAssurance: 'bearer',
        delegationProofs: ['dpop'],
      }),
    ).toBe(false);
  });

  it('requires at least one issuer', () => {
    expect(lane({ ...oidc, issuers: [] })).toBe(false);
  });
});

describe('workflow-definition.schema.json EdgeCondition', () => {
  const condition = (value: unknown) =>
    valid('schemas/v2/workflow-definition.schema.json', value, '/$defs/EdgeCondition');

  it('takes the seven operators, right absent for truthy and falsy only', () => {
    for (const type of ['expression', 'equals', 'notEquals', 'contains', 'regex'])
      expect(condition({ type, left: 'fields.a', right: 'x' })).toBe(true);
    expect(condition({ type: 'truthy', left: 'fields.a' })).toBe(true);
    expect(condition({ type: 'falsy', left: 'fields.a', right: 1 })).toBe(false);
    expect(condition({ type: 'equals', left: 'fields.a' })).toBe(false);
    expect(condition({ type: 'matches', left: 'fields.a', right: 'x' })).toBe(false);
  });

  it('refuses a regex that is not a pattern', () => {
    expect(condition({ type: 'regex', left: 'fields.a', right: '(' })).toBe(false);
  });
});

describe('the remaining contracts', () => {
  it('ai-envelope requires correlationId and meta.source', () => {
    const file = 'schemas/v2/ai-envelope.schema.json';
    expect(valid(file, { kind: 'message', correlationId: 'c-0123456789abcdef', meta: { source: 'model-x' } })).toBe(
      true,
    );
    expect(valid(file, { kind: 'message', meta: { source: 'model-x' } })).toBe(false);
    expect(valid(file, { kind: 'message', correlationId: 'c-1', meta: { source: 'model-x' } })).toBe(false);
    expect(valid(file, { kind: 'message', correlationId: 'c-0123456789abcdef', meta: {} })).toBe(false);
    expect(valid(file, { kind: 'openwop.message', correlationId: 'c-0123456789abcdef', meta: { source: 'm' } })).toBe(
      false,
    );
    expect(
      valid(file, {
        kind: 'acme.summary',
        correlationId: 'c-0123456789abcdef',
        meta: { source: 'm', contentTrust: 'untrusted' },
      }),
    ).toBe(true);
  });

  it('a form field carries a when condition and the validation constraints', () => {
    const field = (value: unknown) => valid('schemas/v2/form-content-pack-manifest.schema.json', value, '/$defs/field');
    expect(
      field({
        id: 'email',
        type: 'text',
        label: { en: 'Email', ja: 'メール' },
        required: true,
        format: 'email',
        minLength: 3,
      }),
    ).toBe(true);
    expect(field({ id: 'x', type: 'text', label: 'X', format: 'phone' })).toBe(false);
    expect(field({ id: 'x', type: 'text', label: 'X', when: { type: 'truthy', left: 'fields.y', right: true } })).toBe(
      false,
    );
  });

  it('heartbeat messages are closed and share one state vocabulary', () => {
    expect(
      valid('schemas/v2/heartbeat-evaluated.schema.json', {
        type: 'heartbeat.evaluated',
        evaluatedAt: '2026-09-04T10:00:00Z',
        state: 'healthy',
      }),
    ).toBe(true);
    expect(
      valid('schemas/v2/heartbeat-state-changed.schema.json', {
        type: 'heartbeat.state-changed',
        changedAt: '2026-09-04T10:00:00Z',
        from: 'healthy',
        to: 'sleepy',
      }),
    ).toBe(false);
    expect(
      valid('schemas/v2/heartbeat-evaluated.schema.json', {
        type: 'heartbeat.evaluated',
        evaluatedAt: '2026-09-04T10:00:00Z',
        state: 'healthy',
        runId: 'acme/0123456789abcdef',
      }),
    ).toBe(false);
  });

  it('the effect ledger projection lists the four effect states', () => {
    const effect = {
      effectId: 'acme/0123456789abcdef',
      nodeId: 'n1',
      attempt: 1,
      keying: 'business-identity',
      state: 'claimed',
      at: '2026-09-04T10:00:00Z',
    };
    expect(
      valid('schemas/v2/effect-ledger-projection.schema.json', { runId: 'acme/0123456789abcdef', effects: [effect] }),
    ).toBe(true);
    expect(
      valid('schemas/v2/effect-ledger-projection.schema.json', {
        runId: 'acme/0123456789abcdef',
        effects: [{ ...effect, state: 'retried' }],
      }),
    ).toBe(false);
  });
});
