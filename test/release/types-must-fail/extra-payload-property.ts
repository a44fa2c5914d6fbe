// Reason: the runPaused payload is closed (additionalProperties false).
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.paused',
  payload: { reason: 'maintenance', pausedFor: 60 }, // expect-error TS2353
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
};
