// Reason: a Subject is closed (unevaluatedProperties false over its fields): `nickname` is not one of them.
import type { Subject } from '@openwop/spec-artifacts';

export const subject: Subject = { issuer: 'https://idp.example', subjectId: 'u1', tenant: 't1', lane: 'oidc', kind: 'user', nickname: 'x' }; // expect-error TS2353
