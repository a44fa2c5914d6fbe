// Reason: the CloudEvents rendering binds `data` to the payload of its `type` as the run stream
// does: a run.paused event's data is the closed runPaused payload; and its `source` is a run's
// path, `/runs/…` (pattern ^/runs/).
import type { Cloudevent } from '@openwop/spec-artifacts';

const common = { specversion: '1.0', datacontenttype: 'application/json', id: 'e1', runid: 'tenant/0123456789abcdef', time: '2026-01-01T00:00:00Z', sequence: 0, schemaversion: 2 } as const;

export const wrongData: Cloudevent = { ...common, source: '/runs/tenant%2F0123456789abcdef', type: 'run.paused', data: { reason: 'x', workflowId: 'w' } }; // expect-error TS2353
export const wrongSource: Cloudevent = { ...common, source: 'https://host.example/runs/1', type: 'run.paused', data: {} }; // expect-error TS2322
