import { isRecord, siteLocation } from '../../core/api/index.js';
import type { Corpus } from '../../core/model/index.js';
import { defineCheck } from '../../core/run/index.js';
import type { Report } from '../../core/output/index.js';
import { describeOperation, OPENAPI_PATH, openApiModel, SEAMS_PATH, SEAMS_PREFIX, type OperationView } from '../../core/api/index.js';
import { locate } from '../../core/model/index.js';

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
  run(corpus, report) {
    const seams = openApiModel(corpus, SEAMS_PATH);
    const seamIds = new Set((seams?.operations ?? []).flatMap((operation) => (operation.operationId ? [operation.operationId] : [])));

    for (const operation of seams?.operations ?? []) {
      if (!isSeamPath(operation.path)) {
        report({
          ...siteLocation({ file: operation.file, segments: ['paths', operation.path] }),
          messageId: 'outside-seams', data: { operation: describeOperation(operation) }, message: `seam operation ${describeOperation(operation)} is outside the seams path space ${SEAMS_PREFIX}…`,
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
        const pathLevel = why.startsWith('its path');
        if (pathLevel && reportedPaths.has(operation.path)) continue;
        if (pathLevel) reportedPaths.add(operation.path);
        const where = pathLevel ? siteLocation({ file, segments: ['paths', operation.path] }) : siteLocation(operation.site);
        report({
          ...where,
          messageId: 'seam-in-document', data: { operation: describeOperation(operation), reason: why }, message: `${describeOperation(operation)} is a ${why.includes('sample-host') ? 'sample-host' : 'seam'} operation (${why}); ${file.path === OPENAPI_PATH ? 'the canonical document holds none' : `seam operations are described only in ${SEAMS_PATH}`}`,
          hint: why.includes('sample-host') ? 'sample-host operations belong to the sample host, not to the protocol' : `move it to ${SEAMS_PATH}, under ${SEAMS_PREFIX}`,
        });
      }
    }

    checkManifest(corpus, seamIds, report);
  },
});

function isSeamPath(path: string): boolean {
  return path === SEAMS_PREFIX.slice(0, -1) || path.startsWith(SEAMS_PREFIX);
}

/** Why an operation is a seam or sample-host operation, or undefined when it is neither. */
function excludedBecause(operation: OperationView, seamIds: ReadonlySet<string>): string | undefined {
  if (isSeamPath(operation.path)) return `its path is under ${SEAMS_PREFIX}`;
  if (operation.path.startsWith(SAMPLE_HOST_PREFIX)) return `its path is under ${SAMPLE_HOST_PREFIX}`;
  const tag = operation.tags.find((t) => SEAM_TAGS.has(t) || t === 'sample-host');
  if (tag) return `it is tagged ${tag}`;
  if (operation.value['x-openwop-seam'] === true) return 'it is marked x-openwop-seam';
  if (operation.value['x-openwop-sample-host'] === true) return 'it is marked x-openwop-sample-host';
  if (operation.operationId && seamIds.has(operation.operationId)) return `${SEAMS_PATH} defines ${operation.operationId}`;
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
      file: MANIFEST,
      ...locate(manifest, ['operations', index, bySeamPath ? 'path' : 'operationId'], 'value'),
      messageId: 'seam-in-manifest', data: { path: path ?? '', operationId: operationId ?? '' }, message: `the path manifest lists ${bySeamPath ? `${path}, a ${path.startsWith(SAMPLE_HOST_PREFIX) ? 'sample-host' : 'seam'} path` : `${operationId}, a seam operation of ${SEAMS_PATH}`}; it lists protocol operations only`,
      hint: 'remove the operation from api/v2/openapi.yaml and run `openwop-spec generate`',
    });
  });
}
