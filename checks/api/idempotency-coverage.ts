import { siteLocation } from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';
import { describeOperation, headerKey, MUTATING_METHODS, OPENAPI_PATH, openApiModel, requestHeaders, responsesWithout } from '../../core/api/index.js';

const KEY = 'idempotency-key';
const REPLAY = 'openwop-idempotent-replay';
/** Safe methods: retrying them is already harmless, and idempotency.md says GET MUST NOT honor the key. */
const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);

/**
 * Layer 1 of idempotency.md, as declared: every mutating operation of the canonical document takes
 * `Idempotency-Key` and can answer from the cache (`OpenWOP-Idempotent-Replay` on its success
 * responses); no safe operation takes the key.
 */
export default defineCheck({
  id: 'api/idempotency-coverage',
  summary: 'Every mutating operation declares Idempotency-Key (and OpenWOP-Idempotent-Replay on its 2xx responses); no GET declares Idempotency-Key',
  severity: 'error',
  run(corpus, report) {
    const model = openApiModel(corpus, OPENAPI_PATH);
    if (!model) return;
    for (const operation of model.operations) {
      const key = requestHeaders(operation).find((header) => headerKey(header.name) === KEY);
      if (MUTATING_METHODS.has(operation.method) && !key) {
        report({
          ...siteLocation(operation.site),
          // The document cannot say whether an operation changes state (a render, a validation do
          // not); what it says is the method, which HTTP does not define as safe. The finding says that.
          messageId: 'key-missing', data: { operation: describeOperation(operation), method: operation.method }, message: `${describeOperation(operation)} is a ${operation.method.toUpperCase()}, a method that may change state, and does not declare the Idempotency-Key header`,
          hint: 'add the shared Idempotency-Key parameter ($ref: #/components/parameters/IdempotencyKey): idempotency.md Layer 1 applies to every mutating operation. If this one changes no state, suppress the finding with that reason (openwop-spec.suppressions.json)',
        });
      } else if (SAFE_METHODS.has(operation.method) && key) {
        const inherited = key.level === 'path-item' ? ' (it inherits the key from its path item)' : '';
        report({
          ...siteLocation(key.declared, 'value'),
          messageId: 'key-on-safe', data: { operation: describeOperation(operation), method: operation.method }, message: `${describeOperation(operation)} is a ${operation.method.toUpperCase()} and declares Idempotency-Key${inherited}; a safe operation MUST NOT honor it`,
          hint: 'declare Idempotency-Key on the mutating operations only',
        });
      }
    }
    const mutating = model.operations.filter((operation) => MUTATING_METHODS.has(operation.method));
    for (const { operation, response, at } of responsesWithout(mutating, REPLAY, (candidate) => /^2(\d\d|XX)$/.test(candidate.status))) {
      report({
        ...siteLocation(at),
        messageId: 'replay-header-missing', data: { operation: describeOperation(operation), status: response.status }, message: `${response.status} response of ${describeOperation(operation)}, a ${operation.method.toUpperCase()}, does not declare OpenWOP-Idempotent-Replay, which marks a response served from the idempotency cache`,
        hint: 'add the shared OpenWOP-Idempotent-Replay response header; if the operation changes no state, suppress the finding with that reason (openwop-spec.suppressions.json)',
      });
    }
  },
});
