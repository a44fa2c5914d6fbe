import { isRecord, siteLocation, describeOperation, OPENAPI_PATH, openApiModel, SEAMS_PATH, SEAMS_PREFIX, type OperationView } from '../../core/api/index.js';
import { type Corpus, Location } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';

const MANIFEST = 'spec/v2/path-manifest.json';
const SEAM_TAGS = new Set(['seams', 'conformance-seams']);
const SAMPLE_HOST_PREFIX = '/sample-host/';

/**
 * conformance.md §"The seams profile": test seams live in api/seams-v2.yaml under
 * /conformance/seams/, and neither the canonical document nor the path manifest holds a seam or
 * sample-host operation, so an SDK generated from the canonical document has no seam method.
 */
export default defineCheck({
  id: 'api/seams-excluded',
  summary: 'No seam or sample-host operation in api/v2/openapi.yaml or the path manifest; every seam operation is in api/seams-v2.yaml under /conformance/seams/',
  severity: 'error',
  messages: {
    'outside-seams': 'seam operation {{operation}} is outside the seams path space {{prefix}}…',
    'seam-in-document': '{{operation}} is a {{kind}} operation ({{reason}}); the canonical document holds none',
    'seam-in-other-document': '{{operation}} is a {{kind}} operation ({{reason}}); seam operations are described only in {{seams}}',
    'seam-in-manifest': 'the path manifest lists {{path}}, a {{kind}} path; it lists protocol operations only',
    'seam-id-in-manifest': 'the path manifest lists {{operationId}}, a seam operation of {{seams}}; it lists protocol operations only',
  },
  run(corpus, report) {
    const seams = openApiModel(corpus, SEAMS_PATH);
    const seamIds = new Set((seams?.operations ?? []).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])));

    for (const operation of seams?.operations ?? []) {
      if (!isSeamPath(operation.path)) {
        report({
          location: siteLocation({ file: operation.file, segments: ['paths', operation.path] }),
          messageId: 'outside-seams',
          data: { operation: describeOperation(operation), prefix: SEAMS_PREFIX },
          hint: `mount it under ${SEAMS_PREFIX}`,
        });
      }
    }

    for (const file of corpus.dataFiles()) {
      if (!file.path.startsWith('api/') || file.path === SEAMS_PATH || !isRecord(file.value) || !('openapi' in file.value)) continue;
      const model = openApiModel(corpus, file.path);
      if (!model) continue;
      const reportedPaths = new Set<string>();
      for (const operation of model.operations) {
        const why = excludedBecause(operation, file.path === OPENAPI_PATH ? seamIds : new Set());
        if (!why) continue;
        const pathLevel = why.byPath;
        if (pathLevel && reportedPaths.has(operation.path)) continue;
        if (pathLevel) reportedPaths.add(operation.path);
        const where = pathLevel ? siteLocation({ file, segments: ['paths', operation.path] }) : siteLocation(operation.site);
        report({
          location: where,
          messageId: file.path === OPENAPI_PATH ? 'seam-in-document' : 'seam-in-other-document',
          data: { operation: describeOperation(operation), kind: why.kind, reason: why.reason, seams: SEAMS_PATH },
          hint: why.kind === 'sample-host' ? 'sample-host operations belong to the sample host, not to the protocol' : `move it to ${SEAMS_PATH}, under ${SEAMS_PREFIX}`,
        });
      }
    }

    checkManifest(corpus, seamIds, report);
  },
});

function isSeamPath(path: string): boolean {
  return path === SEAMS_PREFIX.slice(0, -1) || path.startsWith(SEAMS_PREFIX);
}

interface Excluded {
  kind: 'seam' | 'sample-host';
  /** Whether its path says it (then every operation of the path item is reported once, at the path). */
  byPath: boolean;
  reason: string;
}

/** Why an operation is a seam or sample-host operation, or undefined when it is neither. */
function excludedBecause(operation: OperationView, seamIds: ReadonlySet<string>): Excluded | undefined {
  if (isSeamPath(operation.path)) return { kind: 'seam', byPath: true, reason: `its path is under ${SEAMS_PREFIX}` };
  if (operation.path.startsWith(SAMPLE_HOST_PREFIX)) return { kind: 'sample-host', byPath: true, reason: `its path is under ${SAMPLE_HOST_PREFIX}` };
  const tag = operation.tags.find((t) => SEAM_TAGS.has(t) || t === 'sample-host');
  if (tag) return { kind: tag === 'sample-host' ? 'sample-host' : 'seam', byPath: false, reason: `it is tagged ${tag}` };
  if (operation.value['x-openwop-seam'] === true) return { kind: 'seam', byPath: false, reason: 'it is marked x-openwop-seam' };
  if (operation.value['x-openwop-sample-host'] === true) return { kind: 'sample-host', byPath: false, reason: 'it is marked x-openwop-sample-host' };
  if (operation.operationId && seamIds.has(operation.operationId)) return { kind: 'seam', byPath: false, reason: `${SEAMS_PATH} defines ${operation.operationId}` };
  return undefined;
}

function checkManifest(corpus: Corpus, seamIds: ReadonlySet<string>, report: Report): void {
  const manifest = corpus.data(MANIFEST);
  if (!manifest || !isRecord(manifest.value) || !Array.isArray(manifest.value.operations)) return;
  manifest.value.operations.forEach((entry, index) => {
    if (!isRecord(entry)) return;
    const path = typeof entry.path === 'string' ? entry.path : '';
    const operationId = typeof entry.operationId === 'string' ? entry.operationId : undefined;
    const bySeamPath = isSeamPath(path) || path.startsWith(SAMPLE_HOST_PREFIX);
    const byId = operationId !== undefined && seamIds.has(operationId);
    if (!bySeamPath && !byId) return;
    report({
      location: Location.pointer(manifest, ['operations', index, bySeamPath ? 'path' : 'operationId'], 'value'),
      ...(bySeamPath
        ? { messageId: 'seam-in-manifest', data: { path, operationId: operationId ?? '', kind: path.startsWith(SAMPLE_HOST_PREFIX) ? 'sample-host' : 'seam' } }
        : { messageId: 'seam-id-in-manifest', data: { path, operationId: operationId ?? '', seams: SEAMS_PATH } }),
      hint: 'remove the operation from api/v2/openapi.yaml and run `openwop-spec generate`',
    });
  });
}
