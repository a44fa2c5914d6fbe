// Reason: run-event.schema.json admits a registered protocol type or a vendor type under a
// registered org (acme, example); `run.no-such-type` is neither.
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.no-such-type', // expect-error TS2322
  payload: {},
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
};
