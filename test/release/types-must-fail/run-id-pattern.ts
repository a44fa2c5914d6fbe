// Reason: a runId is tenant-bound, `<tenantId>/<opaque>` (ids.schema.json pattern); one without the `/` is invalid.
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'no-tenant-here', // expect-error TS2322
  type: 'run.paused',
  payload: {},
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
};
