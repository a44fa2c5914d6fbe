// Reason: an event's timestamp is a date-time (format date-time): `yesterday` is not one.
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.paused',
  payload: {},
  timestamp: 'yesterday', // expect-error TS2322
  sequence: 0,
  schemaVersion: 2,
};
