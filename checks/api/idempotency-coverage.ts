import { siteLocation } from '../../core/api/index.js';
import { defineCheck } from '../../core/run/index.js';
import { describeOperation, headerKey, OPENAPI_PATH, openApiModel, requestHeaders, responsesWithout, type ResponseView } from '../../core/api/index.js';

const KEY = 'idempotency-key';
const REPLAY = 'openwop-idempotent-replay';
/** Safe methods: retrying them is already harmless, and idempotency.md says GET MUST NOT honor the key. */
const SAFE_METHODS = new Set(['get', 'head', 'options', 'trace']);
/**
 * The methods whose retry can multiply work: HTTP defines PUT and DELETE as idempotent (RFC 9110
 * §9.2.2), so a retried one cannot make a second run or effect, which is what idempotency.md says
 * Layer 1 exists to prevent. Whether the corpus also wants the key on them it does not say.
 */
const NON_IDEMPOTENT_METHODS = new Set(['post', 'patch']);

/**
 * Whether the document shows the operation makes something a retry would make twice: it answers
 * 201 Created or 202 Accepted, or names the new resource in `Location`. A POST that answers 200
 * may compute and change nothing (upstream's `POST /prompts:render`, a deterministic render); the
 * document does not say which, so it is not judged.
 */
function makesWork(responses: readonly ResponseView[]): boolean {
  return responses.some((response) => response.status === '201' || response.status === '202' || response.headers.some((header) => headerKey(header.name) === 'location'));
}

/**
 * Layer 1 of idempotency.md, as declared: every operation whose retry could multiply work takes
 * `Idempotency-Key`; no safe operation takes it. A response served from the cache carries
 * `OpenWOP-Idempotent-Replay`, which idempotency.md states of the response, not of each response
 * object: a document that declares the header as a shared component means it to be reused, and
 * then each 2xx of a keyed operation is held to declaring it; one that declares it inline where it
 * chooses (upstream: once) is not.
 */
export default defineCheck({
  id: 'api/idempotency-coverage',
  summary: 'Every POST or PATCH that creates or accepts work (201, 202, Location) declares Idempotency-Key, and where the replay header is a shared component each 2xx of a keyed operation declares OpenWOP-Idempotent-Replay; no GET declares Idempotency-Key',
  description:
    'idempotency.md asks Layer 1 of every mutating operation, whose retry must not multiply work. The document shows that an operation makes something when it answers 201 or 202 or names a `Location`: such a POST or PATCH without the key is a finding. A POST that answers 200 may compute and change nothing (a render), and HTTP makes PUT and DELETE idempotent, so neither is asked. `OpenWOP-Idempotent-Replay` is asked of each 2xx of a keyed operation only where the document declares it as a shared component; upstream declares it inline on the one operation it chooses.',
  severity: 'error',
  run(corpus, report) {
    const model = openApiModel(corpus, OPENAPI_PATH);
    if (!model) return;
    for (const operation of model.operations) {
      const key = requestHeaders(operation).find((header) => headerKey(header.name) === KEY);
      if (NON_IDEMPOTENT_METHODS.has(operation.method) && !key && makesWork(operation.responses)) {
        report({
          ...siteLocation(operation.site),
          messageId: 'key-missing',
          data: { operation: describeOperation(operation), method: operation.method },
          message: `${describeOperation(operation)} is a ${operation.method.toUpperCase()} that creates or accepts work (it answers ${operation.responses.filter((response) => /^20[12]$/.test(response.status)).map((response) => response.status).join(' or ') || 'with a Location'}), and does not declare the Idempotency-Key header, so a retry may do it twice`,
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
    const shared = model.operations.some((operation) => operation.responses.some((response) => response.headers.some((header) => headerKey(header.name) === REPLAY && header.component !== undefined)));
    if (!shared) return;
    const keyed = model.operations.filter((operation) => !SAFE_METHODS.has(operation.method) && requestHeaders(operation).some((header) => headerKey(header.name) === KEY));
    for (const { operation, response, at } of responsesWithout(keyed, REPLAY, (candidate) => /^2(\d\d|XX)$/.test(candidate.status))) {
      report({
        ...siteLocation(at),
        messageId: 'replay-header-missing',
        data: { operation: describeOperation(operation), status: response.status },
        message: `${response.status} response of ${describeOperation(operation)}, a ${operation.method.toUpperCase()}, does not declare OpenWOP-Idempotent-Replay, which marks a response served from the idempotency cache`,
        hint: 'add the shared OpenWOP-Idempotent-Replay response header, as the keyed operations that declare it do',
      });
    }
  },
});
