// Reason: error-envelope.schema.json admits a code of spec/v2/errors.json or a vendor code
// under a registered org; `no_such_code` is neither, and neither is `nobody.rate_limited`
// (nobody is not a registered org).
import type { ErrorEnvelope } from '@openwop/spec-artifacts';

export const unknown: ErrorEnvelope = { error: 'no_such_code', message: 'x' }; // expect-error TS2322
export const foreign: ErrorEnvelope = { error: 'nobody.rate_limited', message: 'x' }; // expect-error TS2322
