// Reason: payloadByType binds each protocol type to its payload: a run.started payload must
// carry owner and workflowId; the payload of run.paused does not.
import type { RunEvent } from '@openwop/spec-artifacts';

export const event: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.started',
  payload: { reason: 'paused by hand' }, // expect-error TS2353
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
};
