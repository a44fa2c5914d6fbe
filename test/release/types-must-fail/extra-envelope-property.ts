// Reason: RunEventDoc is closed (additionalProperties false): a member it does not declare is invalid.
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.paused',
  payload: {},
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
  surprise: true, // expect-error TS2353
};
