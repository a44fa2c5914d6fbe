// Valid documents the types must accept: protocol and vendor events, narrowing by `type`, and
// registered and vendor error codes.
import type { ErrorEnvelope, RunEvent } from '@openwop/spec-artifacts';

export const paused: RunEvent = {
  eventId: 'e1',
  runId: 'tenant/0123456789abcdef',
  type: 'run.paused',
  payload: { reason: 'maintenance' },
  timestamp: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaVersion: 2,
};

export const vendor: RunEvent = {
  eventId: 'e2',
  runId: 'tenant/0123456789abcdef',
  type: 'acme.quota-checked',
  payload: { anything: ['a vendor payload is the vendor\'s'] },
  timestamp: '2026-01-01T00:00:01Z',
  sequence: 1,
  schemaVersion: 2,
};

/** A reader folds the types it knows and skips the others, as events.md says. */
export function reasonOf(event: RunEvent): string | undefined {
  switch (event.type) {
    case 'run.paused':
      return event.payload.reason;
    case 'run.started':
      return event.payload.workflowId;
    default:
      return undefined;
  }
}

export const registered: ErrorEnvelope = { error: 'not_found', message: 'no such run' };
export const vendorCode: ErrorEnvelope = { error: 'acme.rate_limited', message: 'slow down' };

export const rendered: import('@openwop/spec-artifacts').Cloudevent = {
  specversion: '1.0',
  source: '/runs/tenant%2F0123456789abcdef',
  datacontenttype: 'application/json',
  id: 'e1',
  runid: 'tenant/0123456789abcdef',
  type: 'run.paused',
  data: { reason: 'maintenance' },
  time: '2026-01-01T00:00:00Z',
  sequence: 0,
  schemaversion: 2,
};
